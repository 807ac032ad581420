// Issue 7: the defects an adversarial probe found, each with the class of bug it belongs to. (Defect 1, replays
// across keys, is in idempotency.test.ts; defect 9, revoking, in api-keys.test.ts; defect 2, in rate-limit.test.ts.)
// Raw HTTP throughout: each defect was found by bytes no SDK sends (malformed structures, invalid UTF-8, half-sent
// bodies, forwarded-for headers, bad request lines, dropped connections).
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import type { Document } from "openapi-backend";
import { createPartner, listPartners } from "../../src/partners/partners.js";
import { defineHandler, requireCompany, type Handler } from "../../src/handlers/types.js";
import { MAX_BODY_DEPTH } from "../../src/http/body.js";
import { loadDocument } from "../../src/http/openapi.js";
import { expectError } from "../support/expect.js";
import { startHarness, type Harness } from "../support/harness.js";
import { waitForLockWaiters } from "../support/db-waits.js";
import { captureLogs } from "../support/logs.js";

let h: Harness;
let t: { apiKey: string; companyId: string; accountId: string; keyId: string };
const logs = captureLogs();

beforeAll(async () => {
  h = await startHarness({ log: logs.log });
  t = await h.tenant();
  const applied = await h.post("/v1/ledger/accounts/apply-template", { template: "lt-standard" }, { key: t.apiKey, companyId: t.companyId });
  if (applied.status !== 200) throw new Error(JSON.stringify(applied.body));
});
afterAll(() => h.close());

const as = () => ({ key: t.apiKey, companyId: t.companyId });
const MAX = "999999999999999.99";
const journalCount = async () => Number((await h.db("journal_transactions").where({ company_id: t.companyId }).count({ n: "*" }))[0].n);
const lockCount = async () => Number((await h.db("ledger_period_locks").where({ company_id: t.companyId }).count({ n: "*" }))[0].n);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends raw bytes as one HTTP request on a fresh connection and returns what came back. */
function rawExchange(port: number, bytes: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.on("data", (c) => chunks.push(c));
    socket.on("error", reject);
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

function parseRawResponse(raw: string) {
  const [head, ...rest] = raw.split("\r\n\r\n");
  const [statusLine, ...headerLines] = head.split("\r\n");
  const headers = Object.fromEntries(headerLines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
  return { status: Number(statusLine.split(" ")[1]), headers, body: JSON.parse(rest.join("\r\n\r\n")) };
}

describe("defect 3: any body structure is a 400 naming body, never a 500", () => {
  test.each([
    ["arrays, 100,000 levels", "[".repeat(100_000) + "]".repeat(100_000)],
    ["objects, 100,000 levels", `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`],
    ["arrays, one level over the cap", "[".repeat(MAX_BODY_DEPTH + 1) + "]".repeat(MAX_BODY_DEPTH + 1)],
    ["a deep value inside a valid-looking body", `{"name":"X","code":"Y","address":${'{"a":'.repeat(5000)}1${"}".repeat(5000)}}`],
  ])("%s", async (_name, raw) => {
    const res = await h.post("/v1/partners/create", undefined, { ...as(), rawBody: raw });
    expectError(res, 400, "validation", "request.invalid");
    expect(res.body.error.fieldErrors).toEqual({ body: [`nests deeper than ${MAX_BODY_DEPTH} levels`] });
  });

  test("a body exactly at the cap passes the inspection (and meets the contract's own rules)", async () => {
    const raw = JSON.stringify({ name: "Gylis", code: "DEPTH", extra: JSON.parse("[".repeat(MAX_BODY_DEPTH - 1) + "]".repeat(MAX_BODY_DEPTH - 1)) });
    const res = await h.post("/v1/partners/create", undefined, { ...as(), rawBody: raw });
    expectError(res, 400, "validation");
    expect(Object.keys(res.body.error.fieldErrors)).toEqual(["extra"]);
  });
});

describe("defects 4 and 5: dates outside the documented windows are 400 naming the field; nothing is written", () => {
  const entries = [
    { accountCode: "2410", debit: "10.00" },
    { accountCode: "4430", credit: "10.00" },
  ];
  test.each([
    ["journal date 9999-12-31", "/v1/ledger/journal/transactions/create", { date: "9999-12-31", entries }, "date"],
    ["journal date 2101-01-01", "/v1/ledger/journal/transactions/create", { date: "2101-01-01", entries }, "date"],
    ["journal date 1999-12-31", "/v1/ledger/journal/transactions/create", { date: "1999-12-31", entries }, "date"],
    ["journal date 0000-01-01", "/v1/ledger/journal/transactions/create", { date: "0000-01-01", entries }, "date"],
    ["lock through 9999-12-31", "/v1/ledger/periods/lock", { through: "9999-12-31" }, "through"],
    ["lock month 0001-01", "/v1/ledger/periods/lock", { month: "0001-01" }, "month"],
    ["unlock month 2101-01", "/v1/ledger/periods/unlock", { month: "2101-01" }, "month"],
    ["balance sheet at 0001-06-30", "/v1/ledger/reports/balance-sheet", { date: "0001-06-30" }, "date"],
    ["trial balance to 9999-12-31", "/v1/ledger/reports/trial-balance", { from: "2026-01-01", to: "9999-12-31" }, "to"],
    ["exchange rate on 0000-01-01", "/v1/reference/exchange-rates/set", { currency: "USD", date: "0000-01-01", rate: "1.1" }, "date"],
  ])("%s", async (_name, path, body, field) => {
    const before = [await journalCount(), await lockCount()];
    const res = await h.post(path, body, as());
    expectError(res, 400, "validation");
    expect(Object.keys(res.body.error.fieldErrors)).toEqual([field]);
    expect([await journalCount(), await lockCount()]).toEqual(before);
  });

  test.each([
    ["a date filter of year 0000", { field: "date", op: "gte", value: "0000-01-01" }],
    ["a timestamp filter of year 0000", { field: "createdAt", op: "gte", value: "0000-01-01T00:00:00Z" }],
    ["a timestamp filter with offset +99:99", { field: "createdAt", op: "lte", value: "2026-01-01T00:00:00+99:99" }],
    ["a timestamp filter with offset +16:00", { field: "createdAt", op: "lte", value: "2026-01-01T00:00:00+16:00" }],
    ["a date filter of year 10000", { field: "date", op: "lte", value: "10000-01-01" }],
  ])("list filter: %s", async (_name, filter) => {
    const res = await h.post("/v1/ledger/journal/transactions/list", { filter: [filter] }, as());
    expectError(res, 400, "validation", "list.invalid");
    expect(Object.keys(res.body.error.fieldErrors)).toEqual(["filter[0].value"]);
  });

  test("the window's ends are accepted; locking through its last day touches only the company's own months", async () => {
    const other = await h.tenant();
    await h.post("/v1/ledger/accounts/apply-template", { template: "lt-standard" }, { key: other.apiKey, companyId: other.companyId });
    const first = await h.post("/v1/ledger/journal/transactions/create", { date: "2000-01-01", entries }, { key: other.apiKey, companyId: other.companyId });
    expect(first.status).toBe(200);
    const locked = await h.post("/v1/ledger/periods/lock", { through: "2100-12-31" }, { key: other.apiKey, companyId: other.companyId });
    expect(locked.status).toBe(200);
    // 101 years of months, and no more: the window bounds what one request can touch.
    expect(locked.body.locked).toHaveLength(101 * 12);
    expect(locked.body.locked[0].month).toBe("2000-01");
    expect(locked.body.locked.at(-1).month).toBe("2100-12");
    const listed = await h.post("/v1/ledger/periods/list", { pageSize: 500, page: 3 }, { key: other.apiKey, companyId: other.companyId });
    expect(listed.body.total).toBe(1212);
    expect(listed.body.rows).toHaveLength(212);
    expect(await h.db("ledger_period_locks").where({ company_id: t.companyId }).count({ n: "*" })).toEqual([{ n: "0" }]);
  });
});

describe("defect 6: amounts that match the contract never overflow", () => {
  test("250 + 250 lines of the largest amount: 422 journal.total_too_large naming the figures; nothing stored", async () => {
    const before = await journalCount();
    const many = [
      ...Array.from({ length: 250 }, () => ({ accountCode: "2410", debit: MAX })),
      ...Array.from({ length: 250 }, () => ({ accountCode: "4430", credit: MAX })),
    ];
    const res = await h.post("/v1/ledger/journal/transactions/create", { date: "2026-03-01", entries: many }, as());
    expectError(res, 422, "unprocessable", "journal.total_too_large");
    expect(res.body.error.params).toEqual({ total: "249999999999999997.50", max: MAX });
    expect(await journalCount()).toBe(before);
  });

  test("one transaction of exactly the largest total posts; report sums beyond 15 digits are valid MoneyTotal figures", async () => {
    const other = await h.tenant();
    const opts = { key: other.apiKey, companyId: other.companyId };
    await h.post("/v1/ledger/accounts/apply-template", { template: "lt-standard" }, opts);
    for (let i = 0; i < 3; i++) {
      const res = await h.post(
        "/v1/ledger/journal/transactions/create",
        {
          date: `2026-04-0${i + 1}`,
          entries: [
            { accountCode: "2410", debit: MAX },
            { accountCode: "4430", credit: MAX },
          ],
        },
        opts,
      );
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(MAX);
    }
    const tb = await h.post("/v1/ledger/reports/trial-balance", { from: "2026-01-01", to: "2026-12-31" }, opts);
    expect(tb.status).toBe(200);
    expect(tb.body.totals).toMatchObject({ debit: "2999999999999999.97", credit: "2999999999999999.97", closingBalance: "0.00" });
    const list = await h.post("/v1/ledger/journal/transactions/list", { totals: ["debit"] }, opts);
    expect(list.body.totals).toEqual({ debit: "2999999999999999.97" });
  });
});

describe("defect 7: strings PostgreSQL cannot store are 400 naming the field, with or without an Idempotency-Key", () => {
  test.each([
    ["a lone high surrogate", '{"name":"Bad \\ud800 name","code":"S1"}', "name"],
    ["a lone low surrogate", '{"name":"Bad \\udc00","code":"S2"}', "name"],
    ["a reversed pair", '{"name":"X","code":"\\udc00\\ud800"}', "code"],
    ["U+0000", '{"name":"X\\u0000","code":"S3"}', "name"],
    ["a surrogate in a nested value", '{"name":"X","code":"S4","address":{"city":"\\ud83d"}}', "address.city"],
  ])("%s", async (_name, raw, field) => {
    for (const idempotencyKey of [undefined, `surrogate-${field}-${Math.random()}`]) {
      const res = await h.post("/v1/partners/create", undefined, { ...as(), rawBody: raw, idempotencyKey });
      expectError(res, 400, "validation");
      expect(Object.keys(res.body.error.fieldErrors)).toEqual([field]);
    }
    expect(await h.db("partners").where({ company_id: t.companyId }).whereIn("code", ["S1", "S2", "S3", "S4"])).toEqual([]);
  });

  test("invalid UTF-8 is 400 naming body, not silently replaced with U+FFFD", async () => {
    const raw = Buffer.concat([Buffer.from('{"name":"Bad '), Buffer.from([0xc3, 0x28]), Buffer.from('","code":"U8"}')]);
    const res = await h.post("/v1/partners/create", undefined, { ...as(), rawBody: raw, idempotencyKey: "utf8-case" });
    expectError(res, 400, "validation");
    expect(res.body.error.fieldErrors).toEqual({ body: ["is not valid UTF-8"] });
    expect(await h.db("partners").where({ company_id: t.companyId, code: "U8" })).toEqual([]);
  });

  test("a real pair (an emoji) and Lithuanian letters are stored as sent", async () => {
    const res = await h.post("/v1/partners/create", { name: "Ąžuolas 🌳 ČĘĖĮŠŲŪŽ", code: "EMOJI" }, as());
    expect(res.status).toBe(200);
    expect((await h.db("partners").where({ company_id: t.companyId, code: "EMOJI" }).first("name")).name).toBe("Ąžuolas 🌳 ČĘĖĮŠŲŪŽ");
  });
});

describe("defect 8: a key revoked while its request body arrives does not write", () => {
  test("the write answers 401 auth.key_revoked and stores nothing", async () => {
    const child = await h.post("/v1/account/api-keys/create", { name: "lėtas", scopes: ["partners:write"] }, { key: t.apiKey });
    const body = JSON.stringify({ name: "Lėtas", code: "SLOW-1" });
    const answer = new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = httpRequest(
        `${h.url}/v1/partners/create`,
        {
          method: "POST",
          headers: {
            authorization: `Bearer ${child.body.key}`,
            "x-company-id": t.companyId,
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) }));
        },
      );
      req.on("error", reject);
      req.write(body.slice(0, 10));
      // The gate has seen the key once the headers are in; revoke it before the rest of the body arrives.
      setTimeout(async () => {
        const revoked = await h.post("/v1/account/api-keys/revoke", { id: child.body.id }, { key: t.apiKey });
        expect(revoked.status).toBe(200);
        req.end(body.slice(10));
      }, 200);
    });
    const res = await answer;
    expect(res).toMatchObject({ status: 401, body: { error: { code: "unauthorized", key: "auth.key_revoked" } } });
    expect(await h.db("partners").where({ company_id: t.companyId, code: "SLOW-1" })).toEqual([]);
    expect(await h.db("audit_log").where({ key_id: child.body.id })).toEqual([]);
  });

  test("a revocation waits for the writes of the key already in flight: after its 200, no write of the key commits", async () => {
    const child = await h.post("/v1/account/api-keys/create", { name: "skrydyje", scopes: ["partners:write"] }, { key: t.apiKey });
    const blocker = await h.db.transaction();
    const order: string[] = [];
    try {
      // The write passes its key check, then waits inside its transaction on the table the test has locked.
      await blocker.raw("lock table partners in share row exclusive mode");
      const write = h
        .post("/v1/partners/create", { name: "Skrydyje", code: "INFLIGHT-1" }, { key: child.body.key, companyId: t.companyId })
        .then((r) => (order.push("write"), r));
      await waitForLockWaiters(h.db, { waitEvent: "relation", queryLike: "%insert into%partners%", what: "the write" });
      const revoke = h.post("/v1/account/api-keys/revoke", { id: child.body.id }, { key: t.apiKey }).then((r) => (order.push("revoke"), r));
      // The revocation waits on the key's lock while the write it would overtake is still open.
      await waitForLockWaiters(h.db, { waitEvent: "advisory", what: "the revocation" });
      expect(order).toEqual([]);
      await blocker.commit();
      const [written, revoked] = await Promise.all([write, revoke]);
      expect([written.status, revoked.status]).toEqual([200, 200]);
      expect(order).toEqual(["write", "revoke"]);
    } finally {
      if (!blocker.isCompleted()) await blocker.rollback();
    }
    expect(await h.db("partners").where({ company_id: t.companyId, code: "INFLIGHT-1" }).count({ n: "*" })).toEqual([{ n: "1" }]);
    // And the next write of the revoked key is refused.
    const after = await h.post("/v1/partners/create", { name: "Po", code: "INFLIGHT-2" }, { key: child.body.key, companyId: t.companyId });
    expect(after.status).toBe(401);
  });

  test("the server bounds how long a request may take to arrive", () => {
    expect(h.server.server.requestTimeout).toBe(h.config.requestTimeoutMs);
    expect(h.config.requestTimeoutMs).toBeLessThanOrEqual(120_000);
    expect(h.server.server.headersTimeout).toBeLessThanOrEqual(h.config.requestTimeoutMs);
  });
});

describe("defect 10: the routes outside /v1 are rate-limited per client address", () => {
  let local: Harness;
  beforeAll(async () => {
    // Behind a trusted proxy, so that each case comes from an address of its own.
    local = await startHarness({ config: { rateLimitPerMinute: 2, trustProxyHops: 1 } });
    const { rows } = await local.db.raw<{ rows: { left: string }[] }>("select 60 - extract(second from now()) as left");
    if (Number(rows[0].left) < 5) await sleep(Number(rows[0].left) * 1000 + 300);
  });
  afterAll(() => local.close());

  test.each(["/health", "/openapi.json", "/docs", "/docs/assets/swagger-ui.css"])("%s: 429 in the envelope once the budget is spent", async (path) => {
    const from = { "x-forwarded-for": `203.0.113.${path.length}` };
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push(await fetch(local.url + path, { headers: from }));
    expect(statuses.map((r) => r.status)).toEqual([200, 200, 429]);
    expect(statuses[0].headers.get("x-ratelimit-limit")).toBe("2");
    const limited = statuses[2];
    const body = (await limited.json()) as { error: { code: string; requestId: string } };
    expect(body.error.code).toBe("rate_limited");
    expect(body.error.requestId).toBe(limited.headers.get("x-request-id"));
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // The address's budget is the one an API request without a key spends too.
    const api = await local.post("/v1/account/companies/list", {}, { headers: from });
    expect(api.status).toBe(429);
  });
});

describe("defect 10: behind one trusted proxy, the client address is the one the proxy added", () => {
  let local: Harness;
  beforeAll(async () => {
    local = await startHarness({ config: { rateLimitPerMinute: 2, trustProxyHops: 1 } });
    const { rows } = await local.db.raw<{ rows: { left: string }[] }>("select 60 - extract(second from now()) as left");
    if (Number(rows[0].left) < 5) await sleep(Number(rows[0].left) * 1000 + 300);
  });
  afterAll(() => local.close());

  test("addresses the client writes into X-Forwarded-For itself earn no fresh budget", async () => {
    // nginx appends the peer it saw ($proxy_add_x_forwarded_for): whatever the client sent stays on the left.
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${local.url}/health`, { headers: { "x-forwarded-for": `198.51.100.${i + 1}, 203.0.113.77` } });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 429]);
    // Another client (another address added by the proxy) still has its own budget.
    expect((await fetch(`${local.url}/health`, { headers: { "x-forwarded-for": "198.51.100.1, 203.0.113.78" } })).status).toBe(200);
    const counted = await local.db("rate_limit_counters").whereLike("bucket", "%203.0.113.77%").select("bucket");
    expect(counted.length).toBe(1);
    expect(await local.db("rate_limit_counters").whereLike("bucket", "%198.51.100%").select("bucket")).toEqual([]);
  });
});

describe("defect 11: security headers", () => {
  test("every API answer, success or error, is nosniff and no-store — the new key's secret included", async () => {
    const created = await h.post("/v1/account/api-keys/create", { name: "antraštės", scopes: ["partners:read"] }, { key: t.apiKey });
    const failed = await h.post("/v1/partners/get", { id: "nope" }, as());
    const missing = await h.get("/nope");
    for (const res of [created, failed, missing]) {
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  });

  test("/docs sets a content security policy and refuses framing; its assets may be cached", async () => {
    const page = await h.get("/docs");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    const asset = await h.get("/docs/assets/swagger-ui.css");
    expect(asset.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(asset.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("defect 12: a client that disconnects mid-body is logged as a client abort, not a 500", () => {
  test("one log line with status 499 and clientAborted, no error line, no stack", async () => {
    const before = logs.lines().length;
    await new Promise<void>((resolve) => {
      const socket = connect(h.server.port, "127.0.0.1", () => {
        socket.write(
          `POST /v1/partners/create HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.apiKey}\r\nX-Company-Id: ${t.companyId}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":`,
        );
        setTimeout(() => socket.destroy(), 150);
      });
      socket.on("close", () => resolve());
    });
    let mine: Record<string, unknown>[] = [];
    for (let i = 0; i < 50 && mine.length === 0; i++) {
      await sleep(20);
      mine = logs
        .lines()
        .slice(before)
        .filter((l) => l.path === "/v1/partners/create");
    }
    expect(mine).toEqual([expect.objectContaining({ status: 499, clientAborted: true, operationId: "partners_create" })]);
    expect(
      logs
        .lines()
        .slice(before)
        .filter((l) => l.level === 50 || "err" in l),
    ).toEqual([]);
  });
});

describe("defect 13: requests that Node's HTTP parser refuses get the envelope and a request id", () => {
  test.each([
    ["a header without a colon", "POST /v1/partners/create HTTP/1.1\r\nHost: x\r\nBroken header line\r\n\r\n", "headers"],
    ["a malformed request line", "GARBAGE\r\n\r\n", "request"],
    ["headers over the size limit", `POST /v1/partners/create HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`, "headers"],
  ])("%s", async (_name, raw, field) => {
    const res = parseRawResponse(await rawExchange(h.server.port, raw));
    expect(res.status).toBe(400);
    expect(res.headers["x-request-id"]).toMatch(/^req_[A-Za-z0-9_-]+$/);
    expect(res.headers["content-type"]).toContain("application/json");
    expect(res.body.error).toMatchObject({ code: "validation", requestId: res.headers["x-request-id"] });
    expect(Object.keys(res.body.error.fieldErrors)).toEqual([field]);
  });
});

describe("the fault battery's class: a lost database connection", () => {
  // Two test-only operations that sleep in the database, so that their connections can be terminated mid-request.
  const SLOW_WRITE = "/v1/partners/slow-create-test";
  const SLOW_READ = "/v1/partners/slow-list-test";
  let slow: Harness;
  let tenant: { apiKey: string; companyId: string };
  let calls = 0;
  beforeAll(async () => {
    const document = structuredClone(loadDocument()) as Document & { paths: Record<string, { post: Record<string, unknown> }> };
    for (const [path, from, operationId, scope] of [
      [SLOW_WRITE, "/v1/partners/create", "partners_slow_create_test", "partners:write"],
      [SLOW_READ, "/v1/partners/list", "partners_slow_list_test", "partners:read"],
    ]) {
      const base = document.paths[from].post;
      document.paths[path] = { post: { ...structuredClone(base), operationId, "x-required-scope": scope } };
    }
    const slowCreate = defineHandler("partners_slow_create_test" as "partners_create", async (ctx) => {
      calls++;
      await ctx.db.raw("select pg_sleep(2)");
      return createPartner(ctx.db, requireCompany(ctx).id, ctx.body);
    }) as unknown as Handler;
    const slowList = defineHandler("partners_slow_list_test" as "partners_list", async (ctx) => {
      await ctx.db.raw("select pg_sleep(2)");
      return listPartners(ctx.db, requireCompany(ctx).id, ctx.body);
    }) as unknown as Handler;
    slow = await startHarness({
      document,
      extraHandlers: new Map([
        ["partners_slow_create_test", slowCreate],
        ["partners_slow_list_test", slowList],
      ]),
    });
    tenant = await slow.tenant();
  });
  afterAll(() => slow.close());

  test("connections terminated in the middle of reads and writes: every request still answers 200, each write exactly once", async () => {
    const opts = { key: tenant.apiKey, companyId: tenant.companyId };
    const pending = [
      ...Array.from({ length: 4 }, (_, i) => slow.post(SLOW_WRITE, { name: "Nutrauktas", code: `CUT-${i}` }, opts)),
      ...Array.from({ length: 4 }, () => slow.post(SLOW_READ, {}, opts)),
    ];
    // Wait until all eight are inside their pg_sleep (a loaded machine may take longer than the sleep itself to get
    // there: the sleep is 2 s, so poll often), then cut all eight connections at once.
    const sleeping = "from pg_stat_activity where datname = current_database() and query like '%pg_sleep(2)%' and state = 'active' and pid <> pg_backend_pid()";
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const { rows: active } = await slow.db.raw<{ rows: { n: string }[] }>(`select count(*) as n ${sleeping}`);
      if (Number(active[0].n) >= 8) break;
      await sleep(5);
    }
    const { rows } = await slow.db.raw<{ rows: unknown[] }>(`select pg_terminate_backend(pid) ${sleeping}`);
    expect(rows.length).toBe(8);
    const answers = await Promise.all(pending);
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
    // Each write ran twice (its first transaction was rolled back with the connection) and is stored once.
    expect(calls).toBe(8);
    expect(await slow.db("partners").where({ company_id: tenant.companyId }).orderBy("code").pluck("code")).toEqual(["CUT-0", "CUT-1", "CUT-2", "CUT-3"]);
    expect(await slow.db("audit_log").where({ company_id: tenant.companyId, operation: "partners.slow-create-test" }).count({ n: "*" })).toEqual([{ n: "4" }]);
  });
});
