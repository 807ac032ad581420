// The SDK's webhook verifier (sdk/typescript/src/webhooks.ts) against signatures made by the server's own signing code
// (src/webhooks/signing.ts): the v2 header within and outside the tolerance window, several signatures during a
// rotation, several secrets on the receiver's side, the legacy header only when allowed, and every malformed or
// tampered form refused with its reason. A real delivery through the worker: test/contract/sdk.test.ts.
import { describe, expect, test } from "@jest/globals";
import { signatureHeaders } from "../../src/webhooks/signing.js";
import { constructWebhookEvent, verifyWebhookSignature, WebhookSignatureError, type WebhookFailure } from "../../sdk/typescript/src/index.js";

const NOW = 1_795_000_000; // 2026-11-18T08:26:40Z, pinned
const NEW = "whsec_new_3b1f0c";
const OLD = "whsec_old_9a7e42";
const BODY = JSON.stringify({ id: "7d0c3a5e-1f4b-4c8a-9e2d-5b6a7c8d9e0f", eventType: "partner.created", data: { name: "Pirkėjas UAB", code: "P1" } });

const signed = (secrets: string[], t = NOW, body = BODY) => signatureHeaders(secrets, t, body);
const v2Only = (h: { "x-service-signature-v2": string }) => ({ "x-service-signature-v2": h["x-service-signature-v2"] });
const legacyOnly = (h: { "x-service-signature": string }) => ({ "x-service-signature": h["x-service-signature"] });

async function outcome(run: () => Promise<unknown>): Promise<"ok" | WebhookFailure> {
  try {
    await run();
    return "ok";
  } catch (e) {
    if (e instanceof WebhookSignatureError) return e.reason;
    throw e;
  }
}

describe("verifyWebhookSignature", () => {
  test.each([
    { name: "one secret, signed now", headers: () => signed([NEW]), secret: NEW, want: "ok" },
    { name: "the v2 header alone", headers: () => v2Only(signed([NEW])), secret: NEW, want: "ok" },
    { name: "a rotation (new, old): the receiver holds the new secret", headers: () => signed([NEW, OLD]), secret: NEW, want: "ok" },
    { name: "a rotation (new, old): the receiver still holds the old secret", headers: () => signed([NEW, OLD]), secret: OLD, want: "ok" },
    { name: "the receiver holds both secrets", headers: () => signed([OLD]), secret: [NEW, OLD], want: "ok" },
    { name: "300 s old (the edge of the default window)", headers: () => signed([NEW], NOW - 300), secret: NEW, want: "ok" },
    { name: "300 s ahead (a fast sender clock)", headers: () => signed([NEW], NOW + 300), secret: NEW, want: "ok" },
    { name: "301 s old", headers: () => signed([NEW], NOW - 301), secret: NEW, want: "timestamp_outside_tolerance" },
    { name: "a day old (a replay)", headers: () => signed([NEW], NOW - 86_400), secret: NEW, want: "timestamp_outside_tolerance" },
    { name: "another secret", headers: () => signed(["whsec_someone_else"]), secret: NEW, want: "no_matching_signature" },
    { name: "the old secret alone once the rotation is over", headers: () => signed([NEW]), secret: OLD, want: "no_matching_signature" },
    { name: "a body signed for another body", headers: () => signed([NEW], NOW, BODY.replace("P1", "P2")), secret: NEW, want: "no_matching_signature" },
    {
      name: "t moved (the v1 value then signs another t)",
      headers: () => ({ "x-service-signature-v2": signed([NEW])["x-service-signature-v2"].replace(`t=${NOW}`, `t=${NOW + 1}`) }),
      secret: NEW,
      want: "no_matching_signature",
    },
    { name: "no signature header", headers: () => ({}), secret: NEW, want: "missing_signature" },
    { name: "the legacy header alone, not allowed", headers: () => legacyOnly(signed([NEW])), secret: NEW, want: "missing_signature" },
    {
      name: "v2 without t",
      headers: () => ({ "x-service-signature-v2": signed([NEW])["x-service-signature-v2"].replace(`t=${NOW},`, "") }),
      secret: NEW,
      want: "malformed_signature",
    },
    { name: "v2 without v1", headers: () => ({ "x-service-signature-v2": `t=${NOW}` }), secret: NEW, want: "malformed_signature" },
    {
      name: "v2 with two t",
      headers: () => ({ "x-service-signature-v2": `t=${NOW},${signed([NEW])["x-service-signature-v2"]}` }),
      secret: NEW,
      want: "malformed_signature",
    },
    {
      name: "v2 with t not a number",
      headers: () => ({ "x-service-signature-v2": signed([NEW])["x-service-signature-v2"].replace(`t=${NOW}`, "t=soon") }),
      secret: NEW,
      want: "malformed_signature",
    },
    { name: "a v1 value of another length", headers: () => ({ "x-service-signature-v2": `t=${NOW},v1=abc` }), secret: NEW, want: "no_matching_signature" },
  ] as const)("$name -> $want", async ({ headers, secret, want }) => {
    expect(await outcome(() => verifyWebhookSignature(BODY, headers(), secret, { now: NOW }))).toBe(want);
  });

  test.each([
    { name: "the legacy header alone, allowed", headers: () => legacyOnly(signed([NEW])), secret: NEW, want: "ok" },
    { name: "the legacy header during a rotation, receiver on the old secret", headers: () => legacyOnly(signed([NEW, OLD])), secret: OLD, want: "ok" },
    { name: "the legacy header of another body", headers: () => legacyOnly(signed([NEW], NOW, "{}")), secret: NEW, want: "no_matching_signature" },
    { name: "the legacy header without sha256=", headers: () => ({ "x-service-signature": "md5=00" }), secret: NEW, want: "malformed_signature" },
    {
      name: "both headers: v2 is the one checked (stale t refused)",
      headers: () => signed([NEW], NOW - 3600),
      secret: NEW,
      want: "timestamp_outside_tolerance",
    },
  ] as const)("allowLegacy: $name -> $want", async ({ headers, secret, want }) => {
    expect(await outcome(() => verifyWebhookSignature(BODY, headers(), secret, { now: NOW, allowLegacy: true }))).toBe(want);
  });

  test("a wider tolerance accepts what the default refuses", async () => {
    const headers = signed([NEW], NOW - 600);
    expect(await outcome(() => verifyWebhookSignature(BODY, headers, NEW, { now: NOW }))).toBe("timestamp_outside_tolerance");
    expect(await outcome(() => verifyWebhookSignature(BODY, headers, NEW, { now: NOW, toleranceSeconds: 900 }))).toBe("ok");
  });

  test.each([
    { name: "Node's req.headers (lower case)", headers: (h: Record<string, string>) => ({ ...h, "content-type": "application/json" }) },
    { name: "a Fetch API Headers object", headers: (h: Record<string, string>) => new Headers(h) },
    { name: "a plain object in mixed case", headers: (h: Record<string, string>) => ({ "X-Service-Signature-V2": h["x-service-signature-v2"] }) },
    {
      name: "a header given as an array (repeated)",
      headers: (h: Record<string, string>) => ({ "x-service-signature-v2": h["x-service-signature-v2"].split(/,(?=v1=)/) }),
    },
  ])("headers as $name", async ({ headers }) => {
    const h = signed([NEW, OLD]) as unknown as Record<string, string>;
    expect(await outcome(() => verifyWebhookSignature(BODY, headers(h), OLD, { now: NOW }))).toBe("ok");
  });

  test("the raw body as bytes (UTF-8, Lithuanian letters) verifies like the string; a re-serialised body does not", async () => {
    const body = JSON.stringify({ id: "e1", data: { name: "Ąžuolas ir Ūla, UAB" } }, null, 1);
    const headers = signed([NEW], NOW, body);
    expect(await outcome(() => verifyWebhookSignature(Buffer.from(body, "utf8"), headers, NEW, { now: NOW }))).toBe("ok");
    expect(await outcome(() => verifyWebhookSignature(new TextEncoder().encode(body), headers, NEW, { now: NOW }))).toBe("ok");
    expect(await outcome(() => verifyWebhookSignature(JSON.stringify(JSON.parse(body)), headers, NEW, { now: NOW }))).toBe("no_matching_signature");
  });

  test("no secret is a usage error, not a verdict", async () => {
    await expect(verifyWebhookSignature(BODY, signed([NEW]), [], { now: NOW })).rejects.toThrow(TypeError);
  });
});

describe("constructWebhookEvent", () => {
  test("returns the parsed event when genuine, and throws without parsing when not", async () => {
    expect(await constructWebhookEvent(BODY, signed([NEW]), NEW, { now: NOW })).toEqual(JSON.parse(BODY));
    await expect(constructWebhookEvent("not json", signed([NEW]), NEW, { now: NOW })).rejects.toBeInstanceOf(WebhookSignatureError);
  });
});
