// The TypeScript SDK (sdk/typescript) against the real server: the paging helper over more than one page (rows in
// the request's order, each page asked for once, the filter kept on every page, `limit`), what a call sends (key,
// company, Idempotency-Key, X-Request-Id, User-Agent) and what an error carries, a call that gets no answer, the
// retry hooks, "exactly one of id and code", and the webhook verifier on real deliveries made by the worker (one
// secret, then two during a rotation). The verifier against the server's signing code: test/unit/sdk-webhooks.test.ts;
// what the SDK's types refuse: test/unit/sdk-types.test.ts; its error keys and codes: test/unit/sdk-errors.test.ts.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import type { Middleware } from "openapi-fetch";
import { startHarness, type Harness } from "../support/harness.js";
import { captureLogs } from "../support/logs.js";
import { bankWorld } from "../support/bank.js";
import { base64, buildCamt, type CamtEntry } from "../support/camt.js";
import { loadDocument } from "../../src/http/openapi.js";
import { expectApiError, invalid } from "../support/expect.js";
import { ltCompanyCode } from "../support/codes.js";
import { startReceiver, type Receiver } from "../support/webhook-receiver.js";
import { createLogger } from "../../src/log.js";
import { startWorker, type Worker } from "../../src/worker.js";
import {
  AccountingApi,
  AccountingApiConnectionError,
  AccountingApiError,
  API_VERSION,
  constructWebhookEvent,
  pages,
  verifyWebhookSignature,
  WebhookSignatureError,
  type RequestEvent,
  type RetryEvent,
} from "../../sdk/typescript/src/index.js";

let h: Harness;
const logs = captureLogs();
const contractDocument = loadDocument() as any;
let receiver: Receiver;
let worker: Worker;

beforeAll(async () => {
  receiver = await startReceiver();
  h = await startHarness({ config: { webhookAllowPrivateUrls: true, webhookRetrySchedule: [0, 200, 400], webhookTimeoutMs: 1500 }, log: logs.log });
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
    expect(c.sent.map((s) => [s.path, s.body])).toEqual(
      [1, 2, 3].map((page) => ["/v1/partners/list", { sort: [{ field: "code", dir: "desc" }], page, pageSize: 3 }]),
    );
  });

  test.each([
    {
      name: "a filter is sent on every page",
      request: { filter: [{ field: "isSupplier" as const, op: "eq" as const, value: true }] },
      pageSize: 2,
      limit: undefined,
      codes: ["D4", "J3", "S5"],
      requests: 2,
    },
    {
      name: "pageSize equal to the total ends after one page",
      request: {},
      pageSize: 7,
      limit: undefined,
      codes: PARTNERS.map((p) => p.code).sort(),
      requests: 1,
    },
    { name: "limit stops early without asking for more", request: {}, pageSize: 2, limit: 3, codes: ["A7", "B2", "D4"], requests: 2 },
    {
      name: "nothing matches: one request, no rows",
      request: { filter: [{ field: "name" as const, op: "contains" as const, value: "Vilniaus" }] },
      pageSize: 2,
      limit: undefined,
      codes: [],
      requests: 1,
    },
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
      // A 409 of the server itself, or a proxy's 503 page (not the contract's envelope).
      if (step === 409)
        return Response.json(
          { error: { code: "conflict", message: "in progress", requestId: "r1", key: "idempotency.in_progress" } },
          { status: 409, headers: { "x-request-id": "r1", "retry-after": "0" } },
        );
      return new Response("<html>busy</html>", { status: step, headers: { "content-type": "text/html", "retry-after": "0" } });
    };
    const retries: RetryEvent[] = [];
    // No contract middleware here: the stand-in answers are not the server's.
    const api = new AccountingApi({
      apiKey: t.apiKey,
      companyId: t.companyId,
      baseUrl: h.url,
      fetch: fetcher,
      maxRetries,
      onRetry: (event) => void retries.push(event),
    });
    return { ...t, attempts, retries, api };
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
    await expectApiError(c.api.partners.create({ name: "Niekas", code: "N" }), status, "http_error");
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

  test("a network error with maxRetries 0 reaches the caller as an AccountingApiConnectionError holding it", async () => {
    const c = await flakyClient(["network"], 0);
    const error = await c.api.partners.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AccountingApiConnectionError);
    expect((error as AccountingApiConnectionError).cause).toEqual(new TypeError("fetch failed"));
    expect(c.attempts).toHaveLength(1);
    expect(c.retries).toEqual([]);
  });

  test("onRetry sees each retry with its status (or error) and delay; onRequest every attempt", async () => {
    const t = await h.tenant();
    const script: (number | "network")[] = [429, "network", 503];
    const requests: RequestEvent[] = [];
    const retries: RetryEvent[] = [];
    const fetcher = async (request: Request) => {
      const step = script.shift();
      if (step === undefined) return fetch(request);
      if (step === "network") throw new TypeError("fetch failed");
      return new Response("{}", { status: step, headers: { "content-type": "application/json", ...(step === 429 ? { "retry-after": "0" } : {}) } });
    };
    const api = new AccountingApi({
      apiKey: t.apiKey,
      companyId: t.companyId,
      baseUrl: h.url,
      fetch: fetcher,
      maxRetries: 3,
      onRequest: (event) => void requests.push(event),
      onRetry: (event) => void retries.push(event),
    });
    const partner = await api.partners.create({ name: "Alytaus tekstilė UAB", code: "AT" });
    expect(retries.map(({ attempt, status, error }) => ({ attempt, status, error: error === undefined ? undefined : String(error) }))).toEqual([
      { attempt: 1, status: 429, error: undefined },
      { attempt: 2, status: undefined, error: "TypeError: fetch failed" },
      { attempt: 3, status: 503, error: undefined },
    ]);
    // A 429's delay is its Retry-After; the others' the backoff with jitter: about 1 s, then 2 s.
    expect(retries[0].delayMs).toBe(0);
    expect(retries[1].delayMs).toBeGreaterThanOrEqual(750);
    expect(retries[1].delayMs).toBeLessThanOrEqual(1250);
    expect(retries[2].delayMs).toBeGreaterThanOrEqual(1500);
    expect(retries[2].delayMs).toBeLessThanOrEqual(2500);
    expect(requests.map((r) => r.attempt)).toEqual([0, 1, 2, 3]);
    // Every attempt of the call carries one X-Request-Id and one Idempotency-Key, which the server kept.
    expect(new Set(requests.map((r) => r.request.headers.get("x-request-id"))).size).toBe(1);
    expect(new Set(requests.map((r) => r.request.headers.get("idempotency-key"))).size).toBe(1);
    expect(await h.db("partners").where({ company_id: t.companyId }).pluck("id")).toEqual([partner.id]);
  }, 20_000);

  test("a 429 of the real server: onRetry sees it with its Retry-After, and false gives the 429 at once instead of waiting", async () => {
    const t = await h.tenant();
    await h.db("api_keys").where({ id: t.keyId }).update({ rate_limit_per_minute: 1 });
    const retries: RetryEvent[] = [];
    const api = new AccountingApi({ ...t.api.options, maxRetries: 2, onRetry: (event) => (retries.push(event), false) });
    // Within one one-minute window the second request is over the budget of 1; three cover a window's end.
    let limited: AccountingApiError | undefined;
    for (let i = 0; i < 3 && !limited; i++) {
      limited = await api.partners.list().then(
        () => undefined,
        (e: unknown) => e as AccountingApiError,
      );
    }
    expect(limited).toBeInstanceOf(AccountingApiError);
    expect([limited!.status, limited!.code, limited!.key]).toEqual([429, "rate_limited", "rate_limit.exceeded"]);
    const retryAfter = Number(limited!.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ attempt: 1, status: 429, delayMs: retryAfter * 1000 });
    expect(retries[0].headers?.get("x-ratelimit-limit")).toBe("1");
  });
});

describe("a call that gets no answer", () => {
  /** A port nothing listens on any more: connecting to it is refused. */
  async function closedPort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    return port;
  }

  test("a refused connection is an AccountingApiConnectionError with status 0, the request id and the cause, after its retries", async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const requests: RequestEvent[] = [];
    const retries: RetryEvent[] = [];
    const api = new AccountingApi({ apiKey: "ak_none", baseUrl, maxRetries: 1, onRequest: (e) => void requests.push(e), onRetry: (e) => void retries.push(e) });
    const error = await api.partners.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AccountingApiConnectionError);
    expect(error).toBeInstanceOf(AccountingApiError);
    const e = error as AccountingApiConnectionError;
    expect([e.status, e.code, e.key, e.body]).toEqual([0, "connection_error", undefined, undefined]);
    expect(e.requestId).toMatch(/^sdk_[0-9a-f-]{36}$/);
    expect(e.requestId).toBe(requests[0].request.headers.get("x-request-id"));
    expect(e.request).toEqual({ method: "POST", url: `${baseUrl}/v1/partners/list` });
    expect(e.message).toContain("ECONNREFUSED");
    expect((e.cause as { cause?: { code?: string } }).cause?.code).toBe("ECONNREFUSED");
    expect(requests.map((r) => r.attempt)).toEqual([0, 1]);
    expect(retries).toHaveLength(1);
    expect([retries[0].attempt, retries[0].status, String(retries[0].error)]).toEqual([1, undefined, "TypeError: fetch failed"]);
  });

  test("a call aborted through its signal rejects with the signal's reason, not a connection error", async () => {
    const t = await h.tenant();
    const controller = new AbortController();
    controller.abort(new Error("the caller gave up"));
    await expect(t.api.partners.list({}, { signal: controller.signal })).rejects.toThrow("the caller gave up");
  });
});

describe("what names the SDK to the server", () => {
  test("User-Agent and X-Client-Name name the SDK and its version; the server keeps the call's X-Request-Id and logs all three", async () => {
    const t = await h.tenant();
    const { response } = await t.api.partners.list.withResponse();
    const requestId = response.headers.get("x-request-id")!;
    expect(requestId).toMatch(/^sdk_[0-9a-f-]{36}$/);
    const line = logs.lines().find((l) => l.requestId === requestId && l.path === "/v1/partners/list");
    expect(line).toMatchObject({
      status: 200,
      userAgent: `accounting-api-sdk/${API_VERSION} (node ${process.versions.node})`,
      clientName: `accounting-api-sdk/${API_VERSION}`,
    });
    // A header of the caller's replaces the SDK's own.
    const named = new AccountingApi({ ...t.api.options, headers: { "User-Agent": "Buhalterija/2.1" } });
    const second = (await named.partners.list.withResponse()).response.headers.get("x-request-id");
    expect(logs.lines().find((l) => l.requestId === second)).toMatchObject({ userAgent: "Buhalterija/2.1", clientName: `accounting-api-sdk/${API_VERSION}` });
  });

  test("every answer carries X-Api-Version, the contract's version; an error too", async () => {
    const t = await h.tenant();
    const { response } = await t.api.partners.list.withResponse();
    expect(response.headers.get("x-api-version")).toBe(API_VERSION);
    const error = await expectApiError(t.api.partners.get({ code: "NO-SUCH" }), 404, "not_found", "partner.not_found");
    expect(error.headers.get("x-api-version")).toBe(API_VERSION);
    expect(API_VERSION).toBe("0.3.6");
  });

  test("baseUrl is required: the client no longer falls back to http://localhost:3000", () => {
    expect(() => new AccountingApi({ apiKey: "ak_x" } as never)).toThrow(/baseUrl is required/);
  });
});

describe("exactly one of id and code", () => {
  // The six operations that name one resource by id or by code. Their request is a oneOf of {id} and {code}: the
  // SDK's types refuse the bodies below (test/unit/sdk-types.test.ts), so they are sent through invalid().
  let c: Awaited<ReturnType<typeof h.tenant>>;
  const named: Record<string, { id: string; code: string; table: string }> = {};
  beforeAll(async () => {
    c = await h.tenant();
    const partner = await c.api.partners.create({ name: "Kauno grūdai AB", code: "KG" });
    const item = await c.api.catalog.items.create({ code: "KONS", name: "Konsultacija", type: "service", unit: "val.", vatRatePercent: "21" });
    const warehouse = await c.api.inventory.warehouses.create({ code: "VLN", name: "Vilniaus sandėlis" });
    const account = await c.api.ledger.accounts.create({ code: "5001", name: "Pajamos", type: "income" });
    Object.assign(named, {
      partner: { id: partner.id, code: partner.code, table: "partners" },
      item: { id: item.id, code: item.code, table: "catalog_items" },
      warehouse: { id: warehouse.id, code: warehouse.code, table: "warehouses" },
      account: { id: account.id, code: account.code, table: "ledger_accounts" },
    });
  });

  const operations = [
    { name: "partners/get", resource: "partner", send: (api: AccountingApi, body: never) => api.partners.get(body) },
    { name: "partners/delete", resource: "partner", send: (api: AccountingApi, body: never) => api.partners.delete(body) },
    { name: "catalog/items/get", resource: "item", send: (api: AccountingApi, body: never) => api.catalog.items.get(body) },
    { name: "catalog/items/delete", resource: "item", send: (api: AccountingApi, body: never) => api.catalog.items.delete(body) },
    { name: "inventory/warehouses/get", resource: "warehouse", send: (api: AccountingApi, body: never) => api.inventory.warehouses.get(body) },
    { name: "ledger/accounts/get", resource: "account", send: (api: AccountingApi, body: never) => api.ledger.accounts.get(body) },
  ];
  const cases = operations.flatMap((op) => [
    { ...op, body: "neither", make: () => ({}) },
    { ...op, body: "both", make: (r: { id: string; code: string }) => ({ id: r.id, code: r.code }) },
  ]);

  test.each(cases)("$name with $body: 400 naming id and code in words, and nothing changes", async ({ resource, send, make }) => {
    const r = named[resource];
    const error = await expectApiError(send(c.api, invalid(make(r))), 400, "validation", "request.invalid");
    expect(error.fieldErrors).toEqual({ id: ["send exactly one of id and code"], code: ["send exactly one of id and code"] });
    expect(await h.db(r.table).where({ company_id: c.companyId, id: r.id, code: r.code })).toHaveLength(1);
  });

  // (A delete by each form is in its module's suite.)
  test.each(operations.filter((op) => op.name.endsWith("/get")))("$name by id and by code each answer the same resource", async ({ resource, send }) => {
    const r = named[resource];
    const [byId, byCode] = [await send(c.api, { id: r.id } as never), await send(c.api, { code: r.code } as never)];
    expect(byId).toEqual(byCode);
    expect(byId).toMatchObject({ id: r.id, code: r.code });
  });
});

describe("the harness's SDK client", () => {
  test.each([
    {
      name: "a 200 whose body breaks the operation's schema",
      status: 200,
      body: { id: 42, name: "Be kodo" },
      message: /partners\/get \(200\) breaks the contract/,
    },
    {
      name: "a status the operation does not declare",
      status: 418,
      body: { error: { code: "internal", message: "x", requestId: "r1" } },
      message: /status 418 is not in the contract/,
    },
    { name: "a body that is not JSON", status: 200, body: "<html>", message: /not JSON/ },
  ])("fails the call on $name", async ({ status, body, message }) => {
    // The real server never answers so; a fetch standing in for it proves the check the harness adds to every call.
    const { options } = (await h.tenant()).api;
    const fake = async () =>
      new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers: { "content-type": "application/json", "x-request-id": "r1" } });
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

    const reason = (p: Promise<unknown>) =>
      p.then(
        () => "ok",
        (e) => (e instanceof WebhookSignatureError ? e.reason : String(e)),
      );
    expect(await reason(verifyWebhookSignature(delivery.body.replace("MC", "MX"), delivery.headers, sub.secret))).toBe("no_matching_signature");
    expect(await reason(verifyWebhookSignature(delivery.body, delivery.headers, "whsec_someone_else"))).toBe("no_matching_signature");
    expect(await reason(verifyWebhookSignature(delivery.body, delivery.headers, sub.secret, { now: Date.now() / 1000 + 3600 }))).toBe(
      "timestamp_outside_tolerance",
    );
    expect(
      await reason(
        verifyWebhookSignature(delivery.body, { "x-service-signature": delivery.headers["x-service-signature"] }, sub.secret, { allowLegacy: true }),
      ),
    ).toBe("ok");
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

describe("a 400 says what a field expects in words, never a regular expression", () => {
  // The words are the scalar's own description in the contract (src/http/validation.ts).
  const ACCOUNTING_DATE =
    "expected a date of an accounting event (a posting, a document, a period, a report range), `YYYY-MM-DD`, from 2000-01-01 to 2100-12-31, the window the number series use too (a real date: `2026-02-30` is refused)";
  const cases = [
    {
      name: "an amount with 3 decimals",
      send: (api: AccountingApi) =>
        api.ledger.journal.transactions.create({
          date: "2026-03-02",
          entries: [
            { accountCode: "2710", debit: "12.345" },
            { accountCode: "3010", credit: "12.35" },
          ],
        }),
      fieldErrors: { "entries[0].debit": ["expected a positive amount: up to 15 integer digits and 2 decimals, above 0"] },
    },
    {
      name: "a date that is no day of the calendar (its format, not its pattern)",
      send: (api: AccountingApi) =>
        api.ledger.journal.transactions.create({
          date: "2026-02-30",
          entries: [
            { accountCode: "2710", debit: "1.00" },
            { accountCode: "3010", credit: "1.00" },
          ],
        }),
      fieldErrors: { date: [ACCOUNTING_DATE] },
    },
    {
      name: "a rate with a comma",
      send: (api: AccountingApi) => api.reference.exchangeRates.set({ currency: "USD", date: "2026-03-02", rate: "1,08" }),
      fieldErrors: { rate: ["expected an exchange rate as a decimal string: 1 to 10 integer digits and an optional fraction of 1 to 8 digits"] },
    },
    {
      name: "an id that is not a UUID",
      send: (api: AccountingApi) => api.partners.get({ id: "P-1" }),
      fieldErrors: { id: ["expected an identifier of a resource: a UUID in its 36-character form (either case)"] },
    },
    {
      name: "a code with surrounding spaces, and an IBAN too short",
      send: (api: AccountingApi) => api.partners.create({ name: "Tarpų UAB", code: " P1 ", iban: "LT12" }),
      fieldErrors: {
        code: ["expected a business code (partner code, account code, item code): 1 to 64 printable characters, no surrounding spaces"],
        iban: ["expected IBAN without spaces, e.g. `LT121000011101001000`"],
      },
    },
    {
      name: "an Idempotency-Key of 256 characters",
      send: (api: AccountingApi) => api.partners.create({ name: "Raktas UAB", code: "K1" }, { idempotencyKey: "k".repeat(256) }),
      fieldErrors: { "Idempotency-Key": ["expected an `Idempotency-Key` value: 1 to 255 printable ASCII characters"] },
    },
  ];

  test.each(cases)("$name", async ({ send, fieldErrors }) => {
    const c = await h.tenant();
    const error = await expectApiError(send(c.api), 400, "validation", "request.invalid");
    expect(error.fieldErrors).toEqual(fieldErrors);
    expect(await h.db("partners").where({ company_id: c.companyId })).toEqual([]);
    expect(await h.db("journal_transactions").where({ company_id: c.companyId })).toEqual([]);
  });
});

describe("the contract's examples, as a newcomer copies them", () => {
  const document = contractDocument;
  const example = (operationId: string) => {
    const op = Object.values(document.paths)
      .map((item: any) => item.post)
      .find((o: any) => o.operationId === operationId);
    return op.requestBody.content["application/json"].example;
  };

  test("the journal example posts on a company with the standard chart, and the balance sheet example reads it", async () => {
    const c = await h.tenant();
    await c.api.ledger.accounts.applyTemplate({ template: "lt-standard" });
    const posted = await c.api.ledger.journal.transactions.create(example("ledger_journal_transactions_create"));
    expect(posted.entries.map((e) => [e.accountCode, e.debit, e.credit])).toEqual([
      ["2710", "2500.00", null],
      ["3010", null, "2500.00"],
    ]);
    expect(await h.db("journal_entries").where({ company_id: c.companyId }).orderBy("line_no").pluck("account_code")).toEqual(["2710", "3010"]);
    const sheet = await c.api.ledger.reports.balanceSheet(example("ledger_reports_balance_sheet"));
    expect([sheet.asOf, sheet.totalAssets, sheet.balanced]).toEqual(["2026-03-31", "2500.00", true]);
  });
});

describe("the balance sheet's day: asOf, or the deprecated date", () => {
  test("asOf and date answer the same sheet, with asOf and date both the day; both or neither is 400", async () => {
    const c = await h.tenant();
    await c.api.ledger.accounts.applyTemplate({ template: "lt-standard" });
    await c.api.ledger.journal.transactions.create({
      date: "2026-03-02",
      entries: [
        { accountCode: "2710", debit: "100.00" },
        { accountCode: "3010", credit: "100.00" },
      ],
    });
    const byAsOf = await c.api.ledger.reports.balanceSheet({ asOf: "2026-03-31" });
    const byDate = await c.api.ledger.reports.balanceSheet({ date: "2026-03-31" });
    expect(byDate).toEqual(byAsOf);
    expect([byAsOf.asOf, byAsOf.date, byAsOf.totalAssets]).toEqual(["2026-03-31", "2026-03-31", "100.00"]);
    expect((await c.api.ledger.reports.balanceSheet({ asOf: "2026-03-01" })).totalAssets).toBe("0.00");
    for (const body of [{}, { asOf: "2026-03-31", date: "2026-03-31" }]) {
      const error = await expectApiError(c.api.ledger.reports.balanceSheet(invalid(body)), 400, "validation", "request.invalid");
      expect(error.fieldErrors).toEqual({ asOf: ["send exactly one of asOf and date"], date: ["send exactly one of asOf and date"] });
    }
  });

  test("the contract marks date deprecated, in the request and in the answer", () => {
    const schemas = contractDocument.components.schemas;
    expect(schemas["Ledger.BalanceSheetDateRequest"].properties.date.deprecated).toBe(true);
    expect(schemas["Ledger.BalanceSheetAsOfRequest"].properties.asOf.deprecated).toBeUndefined();
    expect(schemas["Ledger.BalanceSheet"].properties.date.deprecated).toBe(true);
  });
});

describe("bank/statements/import answers the ids of the transactions it created", () => {
  test("in the file's order, per statement; a re-import answers only the new one", async () => {
    const w = await bankWorld(h);
    const file = (entries: CamtEntry[]) => base64(buildCamt("02", [{ id: "2026-03", iban: w.account.iban, opening: "0", entries }]));
    const entries: CamtEntry[] = [
      { amount: "30.00", ref: "R3", bookingDate: "2026-03-20" },
      { amount: "10.00", ref: "R1", bookingDate: "2026-03-02" },
      { amount: "-5.00", ref: "R2", bookingDate: "2026-03-10" },
    ];
    const first = await w.api.bank.statements.import({ bankAccountId: w.account.id, format: "camt.053", contentBase64: file(entries) });
    const refOf = async (ids: string[]) => {
      const rows = await h.db("bank_transactions").where({ company_id: w.companyId }).whereIn("id", ids).select("id", "bank_reference", "statement_id");
      return ids.map((id) => rows.find((r) => r.id === id)?.bank_reference);
    };
    const [statement] = first.byStatement;
    expect(statement.imported).toBe(3);
    expect(await refOf(statement.transactionIds)).toEqual(["R3", "R1", "R2"]);
    expect(await h.db("bank_transactions").where({ company_id: w.companyId, statement_id: statement.statementId }).pluck("id")).toEqual(
      expect.arrayContaining(statement.transactionIds),
    );
    expect((await w.api.bank.transactions.get({ id: statement.transactionIds[1] })).amount).toBe("10.00");

    const again = await w.api.bank.statements.import({
      bankAccountId: w.account.id,
      format: "camt.053",
      contentBase64: file([...entries, { amount: "7.00", ref: "R4", bookingDate: "2026-03-25" }]),
    });
    expect([again.imported, again.duplicates]).toEqual([1, 3]);
    expect(await refOf(again.byStatement[0].transactionIds)).toEqual(["R4"]);
    expect(await h.db("bank_transactions").where({ company_id: w.companyId })).toHaveLength(4);
  });
});
