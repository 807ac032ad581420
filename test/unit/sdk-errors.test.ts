// The SDK's error codes and keys (sdk/typescript/src/generated/errors.ts, from the contract) and how an answer becomes
// an AccountingApiError. The contract is the one list of keys: test/contract/contract-errors.test.ts holds it to what
// src/ can raise; here the SDK's list is held to the contract and, directly, to every key the server can raise, so
// that `error.key` never meets a key its type does not name.
import { describe, expect, test } from "@jest/globals";
import { STATUS_OF } from "../../src/shared/errors.js";
import { loadDocument } from "../../src/http/openapi.js";
import { allRaisedKeys } from "../support/error-keys.js";
import { AccountingApiError, ERROR_CODES, ERROR_KEYS } from "../../sdk/typescript/src/index.js";

const document = loadDocument() as unknown as Record<string, unknown>;

/** Every key the document declares, wherever: each response's `x-error-keys`, the shared, trait and unrouted ones. */
function declaredAnywhere(): string[] {
  const keys = new Set<string>();
  const addAll = (value: unknown): void => {
    if (typeof value === "string") keys.add(value);
    else if (Array.isArray(value)) value.forEach(addAll);
    else if (value && typeof value === "object") Object.values(value).forEach(addAll);
  };
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(walk);
      return;
    }
    if (!node || typeof node !== "object") return;
    for (const [k, v] of Object.entries(node)) {
      if (/^x-(trait-|unrouted-)?error-keys$/.test(k)) addAll(v);
      else walk(v);
    }
  };
  walk(document);
  return [...keys].sort();
}

describe("the SDK's error keys and codes", () => {
  test("ERROR_KEYS is every key the contract declares, no more", () => {
    expect([...ERROR_KEYS]).toEqual(declaredAnywhere());
  });

  test("every key the server can raise is one of ERROR_KEYS (of a template's expansions, one at least)", () => {
    const known = new Set<string>(ERROR_KEYS);
    const sites = allRaisedKeys();
    const plain = sites.filter((s) => !s.template && !known.has(s.key)).map((s) => `${s.key} (${s.at})`);
    const templates = new Map<string, boolean>();
    for (const s of sites.filter((site) => site.template)) templates.set(s.template!, (templates.get(s.template!) ?? false) || known.has(s.key));
    expect([...new Set(plain)]).toEqual([]);
    expect([...templates].filter(([, found]) => !found).map(([template]) => template)).toEqual([]);
    expect(sites.length).toBeGreaterThan(100);
  });

  test("ERROR_CODES are the server's codes", () => {
    expect([...ERROR_CODES].sort()).toEqual(Object.keys(STATUS_OF).sort());
  });
});

describe("an answer other than 200", () => {
  const answer = (status: number, body: unknown) =>
    new AccountingApiError(new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers: { "x-request-id": "r1" } }), body);

  test.each([
    {
      name: "the contract's envelope: code and key as sent",
      status: 409,
      body: { error: { code: "conflict", message: "Taken.", requestId: "r1", key: "partner.code_taken", params: { code: "P1" } } },
      want: { code: "conflict", key: "partner.code_taken", message: "Taken.", params: { code: "P1" } },
    },
    {
      name: "a key this SDK does not know (a newer server's) is left out, as the contract asks; the body keeps it",
      status: 422,
      body: { error: { code: "unprocessable", message: "New rule.", requestId: "r1", key: "partner.some_future_rule" } },
      want: { code: "unprocessable", key: undefined, message: "New rule." },
    },
    {
      name: "a code outside the contract: not its envelope",
      status: 503,
      body: { error: { code: "unavailable", message: "busy", requestId: "r1" } },
      want: { code: "http_error", key: undefined },
    },
    {
      name: "a body that is not JSON (a proxy's page)",
      status: 502,
      body: "<html>Bad gateway</html>",
      want: { code: "http_error", key: undefined, message: "HTTP 502: <html>Bad gateway</html>" },
    },
  ])("$name", ({ status, body, want }) => {
    const error = answer(status, body);
    expect(error).toMatchObject({ status, requestId: "r1", body, ...want });
    expect(error).toBeInstanceOf(Error);
  });
});
