// The TypeScript SDK (sdk/typescript) against the real server: the paging helper over more than one page (rows in
// the request's order, each page asked for once, the filter kept on every page, `limit`), what a call sends (key,
// company, Idempotency-Key) and what an error carries, and the webhook verifier on real deliveries made by the worker
// (one secret, then two during a rotation). The verifier against the server's signing code: test/unit/sdk-webhooks.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import type { Middleware } from "openapi-fetch";
import { startHarness, type Harness } from "../support/harness.js";
import { expectApiError } from "../support/expect.js";
import { ltCompanyCode } from "../support/codes.js";
import { startReceiver, type Receiver } from "../support/webhook-receiver.js";
import { createLogger } from "../../src/log.js";
import { startWorker, type Worker } from "../../src/worker.js";
import { AccountingApi, constructWebhookEvent, pages, verifyWebhookSignature, WebhookSignatureError } from "../../sdk/typescript/src/index.js";

let h: Harness;
let receiver: Receiver;
let worker: Worker;

beforeAll(async () => {
  receiver = await startReceiver();
  h = await startHarness({ config: { webhookAllowPrivateUrls: true, webhookRetrySchedule: [0, 200, 400], webhookTimeoutMs: 1500 } });
  worker = await startWorker(h.connectionString, 2, createLogger("silent"), { db: h.db, config: h.config });
});
afterAll(async () => {
  await worker.stop();
  await h.close();
  await receiver.close();
});

/** An SDK client of a new tenant that also records the body of every request it sends. */
async function recordingClient() {
  const t = await h.tenant();
  const sent: { path: string; body: any; headers: Headers }[] = [];
  const recorder: Middleware = {
    async onRequest({ request }) {
      sent.push({ path: new URL(request.url).pathname, body: JSON.parse(await request.clone().text()), headers: request.headers });
    },
  };
  return { ...t, api: new AccountingApi({ ...t.api.options, middleware: [...(t.api.options.middleware ?? []), recorder] }), sent };
}

const PARTNERS = [
  { name: "Alytaus prekyba UAB", code: "A7" },
  { name: "Biržų duona AB", code: "B2" },
  { name: "Druskininkų vandenys UAB", code: "D4", isSupplier: true },
  { name: "Elektrėnų energija UAB", code: "E1" },
  { name: "Jonavos azotas AB", code: "J3", isSupplier: true },
  { name: "Kauno baldai UAB", code: "K9" },
  { name: "Šiaulių pienas UAB", code: "S5", isSupplier: true },
];

describe("paginate", () => {
  let c: Awaited<ReturnType<typeof recordingClient>>;
  beforeAll(async () => {
    c = await recordingClient();
    for (const p of PARTNERS) await c.api.partners.create(p);
    c.sent.length = 0;
  });

  test("walks every page in the request's order, asking for each page once, and yields every stored row", async () => {
    const codes: string[] = [];
    for await (const partner of c.api.paginate(c.api.partners.list, { sort: [{ field: "code", dir: "desc" }] }, { pageSize: 3 })) codes.push(partner.code);
    const stored = await h.db("partners").where({ company_id: c.companyId }).orderBy("code", "desc").pluck("code");
    expect(codes).toEqual(stored);
    expect(codes).toHaveLength(7);
    expect(c.sent.map((s) => [s.path, s.body])).toEqual([1, 2, 3].map((page) => ["/v1/partners/list", { sort: [{ field: "code", dir: "desc" }], page, pageSize: 3 }]));
  });

  test.each([
    { name: "a filter is sent on every page", request: { filter: [{ field: "isSupplier" as const, op: "eq" as const, value: true }] }, pageSize: 2, limit: undefined, codes: ["D4", "J3", "S5"], requests: 2 },
    { name: "pageSize equal to the total ends after one page", request: {}, pageSize: 7, limit: undefined, codes: PARTNERS.map((p) => p.code).sort(), requests: 1 },
    { name: "limit stops early without asking for more", request: {}, pageSize: 2, limit: 3, codes: ["A7", "B2", "D4"], requests: 2 },
    { name: "nothing matches: one request, no rows", request: { filter: [{ field: "name" as const, op: "contains" as const, value: "Vilniaus" }] }, pageSize: 2, limit: undefined, codes: [], requests: 1 },
  ])("$name", async ({ request, pageSize, limit, codes, requests }) => {
    c.sent.length = 0;
    const got: string[] = [];
    for await (const partner of c.api.paginate(c.api.partners.list, { ...request, sort: [{ field: "code" }] }, { pageSize, limit })) got.push(partner.code);
    expect(got).toEqual(codes);
    expect(c.sent).toHaveLength(requests);
    for (const s of c.sent) expect(s.body).toMatchObject({ ...request, pageSize });
  });

  test("pages() gives whole pages with their total", async () => {
    const seen = [];
    for await (const page of pages(c.api.partners.list, { sort: [{ field: "name" }] }, { pageSize: 4 })) seen.push([page.page, page.rows.length, page.total]);
    expect(seen).toEqual([
      [1, 4, 7],
      [2, 3, 7],
    ]);
  });
});

describe("a call", () => {
  test("sends the key, the client's company and an Idempotency-Key; a retry is a replay of the one stored row", async () => {
    const c = await recordingClient();
    const body = { name: "Panevėžio statyba AB", code: "PST" };
    const first = await c.api.partners.create.withResponse(body, { idempotencyKey: "sdk-idem-1" });
    const again = await c.api.partners.create.withResponse(body, { idempotencyKey: "sdk-idem-1" });
    expect(again.data).toEqual(first.data);
    expect([first.response.headers.get("x-idempotent-replay"), again.response.headers.get("x-idempotent-replay")]).toEqual([null, "true"]);
    expect(c.sent.map((s) => [s.headers.get("authorization"), s.headers.get("x-company-id"), s.headers.get("idempotency-key")])).toEqual([
      [`Bearer ${c.apiKey}`, c.companyId, "sdk-idem-1"],
      [`Bearer ${c.apiKey}`, c.companyId, "sdk-idem-1"],
    ]);
    expect(await h.db("partners").where({ company_id: c.companyId, code: "PST" })).toHaveLength(1);
  });

  test("withCompany acts on another company; a company the key cannot reach is a 404 AccountingApiError naming the request", async () => {
    const c = await recordingClient();
    const second = await c.api.account.companies.create({ name: "Antra įmonė UAB", code: ltCompanyCode(), countryCode: "LT" });
    const there = await c.api.withCompany(second.id).partners.create({ name: "Utenos alus UAB", code: "UA" });
    expect(await h.db("partners").where({ id: there.id }).first()).toMatchObject({ company_id: second.id });

    const stranger = await h.tenant();
    const error = await expectApiError(c.api.withCompany(stranger.companyId).partners.list(), 404, "not_found");
    expect(error.requestId).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(error.requestId).toBe(error.headers.get("x-request-id"));
    expect(error).toBeInstanceOf(Error);
  });

  test("a validation error carries fieldErrors; a wrong key is 401", async () => {
    const c = await recordingClient();
    const error = await expectApiError(c.api.partners.create({ name: "Be kodo", code: "" }), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["code"]);
    await expectApiError(new AccountingApi({ ...c.api.options, apiKey: "ak_not_a_key" }).partners.list(), 401, "unauthorized");
    expect(await h.db("partners").where({ company_id: c.companyId })).toHaveLength(0);
  });
});

describe("retries", () => {
  /**
   * A client whose fetch answers the first attempts itself (`script`: a status; "network": the connection fails before
   * the request leaves; "lost": the server executes the request and the answer is lost), then reaches the real server.
   */
  async function flakyClient(script: (number | "network" | "lost")[], maxRetries?: number) {
    const t = await h.tenant();
    const attempts: { path: string; idempotencyKey: string | null }[] = [];
    const fetcher = async (request: Request) => {
      attempts.push({ path: new URL(request.url).pathname, idempotencyKey: request.headers.get("idempotency-key") });
      const step = script.shift();
      if (step === undefined) return fetch(request);
      if (step === "network") throw new TypeError("fetch failed");
      if (step === "lost") {
        await (await fetch(request)).arrayBuffer();
        throw new TypeError("fetch failed");
      }
      const body = step === 409 ? { error: { code: "conflict", message: "in progress", requestId: "r1", key: "idempotency.in_progress" } } : { error: { code: "unavailable", message: "busy", requestId: "r1" } };
      return new Response(JSON.stringify(body), { status: step, headers: { "content-type": "application/json", "x-request-id": "r1", "retry-after": "0" } });
    };
    // No contract middleware here: the stand-in answers are not the server's.
    return { ...t, attempts, api: new AccountingApi({ apiKey: t.apiKey, companyId: t.companyId, baseUrl: h.url, fetch: fetcher, maxRetries }) };
  }

  test.each([
    { name: "a lost connection", script: ["network" as const] },
    { name: "an answer lost after the server stored the write (the retry is its replay)", script: ["lost" as const] },
    { name: "503 then 502", script: [503, 502] },
    { name: "429 (after its Retry-After)", script: [429] },
    { name: "409 idempotency.in_progress", script: [409] },
  ])("a write after $name is sent again under one generated Idempotency-Key and stored once", async ({ script }) => {
    const c = await flakyClient([...script]);
    const partner = await c.api.partners.create({ name: "Kėdainių konservai AB", code: "KK" });
    expect(c.attempts).toHaveLength(script.length + 1);
    const keys = new Set(c.attempts.map((a) => a.idempotencyKey));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^sdk-[0-9a-f-]{36}$/);
    expect(await h.db("partners").where({ company_id: c.companyId }).pluck("id")).toEqual([partner.id]);
    expect(await h.db("idempotency_keys").where({ company_id: c.companyId }).pluck("key")).toEqual([...keys]);
  });

  test("a read is sent again without an Idempotency-Key; the caller's own key is kept on a write", async () => {
    const read = await flakyClient(["network"]);
    expect((await read.api.partners.list()).total).toBe(0);
    expect(read.attempts.map((a) => a.idempotencyKey)).toEqual([null, null]);
    const write = await flakyClient([503]);
    await write.api.partners.create({ name: "Rokiškio sūris AB", code: "RS" }, { idempotencyKey: "mine-1" });
    expect(write.attempts.map((a) => a.idempotencyKey)).toEqual(["mine-1", "mine-1"]);
  });

  test.each([
    { name: "retries used up", script: [503, 503, 503], maxRetries: 2, status: 503, attempts: 3 },
    { name: "maxRetries 0", script: [503], maxRetries: 0, status: 503, attempts: 1 },
  ])("$name: the last answer is the error, and nothing is stored", async ({ script, maxRetries, status, attempts }) => {
    const c = await flakyClient([...script], maxRetries);
    await expectApiError(c.api.partners.create({ name: "Niekas", code: "N" }), status, "unavailable");
    expect(c.attempts).toHaveLength(attempts);
    expect(await h.db("partners").where({ company_id: c.companyId })).toHaveLength(0);
  });

  test("an answer that is final (a 4xx of the request itself) is not sent again", async () => {
    const c = await flakyClient([]);
    await expectApiError(c.api.partners.create({ name: "Be kodo", code: "" }), 400, "validation");
    await c.api.partners.create({ name: "Pirmas", code: "DUP" });
    await expectApiError(c.api.partners.create({ name: "Antras", code: "DUP" }), 409, "conflict", "partner.code_taken");
    expect(c.attempts).toHaveLength(3);
  });

  test("a network error with maxRetries 0 reaches the caller as it is", async () => {
    const c = await flakyClient(["network"], 0);
    await expect(c.api.partners.list()).rejects.toThrow("fetch failed");
    expect(c.attempts).toHaveLength(1);
  });
});

describe("the harness's SDK client", () => {
  test.each([
    { name: "a 200 whose body breaks the operation's schema", status: 200, body: { id: 42, name: "Be kodo" }, message: /partners\/get \(200\) breaks the contract/ },
    { name: "a status the operation does not declare", status: 418, body: { error: { code: "internal", message: "x", requestId: "r1" } }, message: /status 418 is not in the contract/ },
    { name: "a body that is not JSON", status: 200, body: "<html>", message: /not JSON/ },
  ])("fails the call on $name", async ({ status, body, message }) => {
    // The real server never answers so; a fetch standing in for it proves the check the harness adds to every call.
    const { options } = (await h.tenant()).api;
    const fake = async () => new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers: { "content-type": "application/json", "x-request-id": "r1" } });
    await expect(new AccountingApi({ ...options, fetch: fake }).partners.get({ code: "P1" })).rejects.toThrow(message);
  });
});

describe("verifying real deliveries", () => {
  test("a delivery verifies with the subscription's secret, and not when tampered with or under another secret", async () => {
    const c = await recordingClient();
    const sub = await c.api.webhooks.subscriptions.create({ url: receiver.url("/sdk/one"), eventTypes: ["partner.created"] });
    const partner = await c.api.partners.create({ name: "Marijampolės cukrus AB", code: "MC" });
    const [delivery] = await receiver.waitFor("/sdk/one", 1);

    const event = await constructWebhookEvent(delivery.body, delivery.headers, sub.secret);
    expect(event).toMatchObject({ eventType: "partner.created", companyId: c.companyId, data: partner });
    expect(event.id).toBe(delivery.headers["webhook-id"]);
    expect(await h.db("webhook_events").where({ company_id: c.companyId, id: event.id })).toHaveLength(1);

    const reason = (p: Promise<unknown>) => p.then(() => "ok", (e) => (e instanceof WebhookSignatureError ? e.reason : String(e)));
    expect(await reason(verifyWebhookSignature(delivery.body.replace("MC", "MX"), delivery.headers, sub.secret))).toBe("no_matching_signature");
    expect(await reason(verifyWebhookSignature(delivery.body, delivery.headers, "whsec_someone_else"))).toBe("no_matching_signature");
    expect(await reason(verifyWebhookSignature(delivery.body, delivery.headers, sub.secret, { now: Date.now() / 1000 + 3600 }))).toBe("timestamp_outside_tolerance");
    expect(await reason(verifyWebhookSignature(delivery.body, { "x-service-signature": delivery.headers["x-service-signature"] }, sub.secret, { allowLegacy: true }))).toBe("ok");
  });

  test("during a secret rotation a delivery verifies under the old secret and under the new one", async () => {
    const c = await recordingClient();
    const sub = await c.api.webhooks.subscriptions.create({ url: receiver.url("/sdk/rotation"), eventTypes: ["partner.created"] });
    const rotated = await c.api.webhooks.subscriptions.rotateSecret({ id: sub.id });
    expect(rotated.secret).not.toBe(sub.secret);
    await c.api.partners.create({ name: "Telšių mėsa UAB", code: "TM" });
    const [delivery] = await receiver.waitFor("/sdk/rotation", 1);
    expect(String(delivery.headers["x-service-signature-v2"]).match(/v1=/g)).toHaveLength(2);
    for (const secret of [sub.secret, rotated.secret, [rotated.secret, sub.secret]]) {
      expect((await constructWebhookEvent(delivery.body, delivery.headers, secret)).data).toMatchObject({ code: "TM" });
    }
  });
});
