// Idempotency (spec: "Limits", idempotency; "Errors": idempotency_key_reuse, idempotency_in_progress; README
// "Idempotency"): a retried mutating call with the same Idempotency-Key replays the first response, marked
// `x-idempotent-replay: true`, and never executes twice.
// Raw HTTP throughout: replays are about the wire (the Idempotency-Key header, the same bytes again, a body that differs,
// concurrent sends, the replay header), which the SDK's own retries would hide.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import pg from "pg";
import type { Document } from "openapi-backend";
import { createPartner } from "../../src/partners/partners.js";
import { defineHandler, requireCompany, type Handler } from "../../src/handlers/types.js";
import { NO_COMPANY } from "../../src/http/idempotency.js";
import { loadDocument } from "../../src/http/openapi.js";
import { pruneIdempotencyKeys } from "../../src/jobs/prune-idempotency-keys.js";
import { startHarness, type ApiResponse, type Harness } from "../support/harness.js";
import { AT_ONCE_MS } from "../support/timing.js";
import { ltCompanyCode } from "../support/codes.js";
import { waitForLockWaiters } from "../support/db-waits.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

let seq = 0;
const uniq = (prefix: string) => `${prefix}-${++seq}-${Date.now().toString(36)}`;

const partnersOf = (companyId: string) => h.db("partners").where({ company_id: companyId }).orderBy("created_at").select("id", "code", "name");
const storedKeys = (accountId: string) =>
  h.db("idempotency_keys").where({ account_id: accountId }).orderBy("created_at").select("company_id", "key", "operation_id", "status_code", "response_body");
const replayHeader = (res: ApiResponse) => res.headers.get("x-idempotent-replay");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves once a session of this database waits on a table lock (request A, past its idempotency lock). */
const untilWaitingOnLock = () => waitForLockWaiters(h.db, { queryLike: "%insert into%partners%", what: "request A reaching the locked partners table" });

/** The error of a replayed 4xx: the original one; its requestId must still match the response's X-Request-Id. */
const asReplayedError = (original: ApiResponse, replay: ApiResponse) => ({ ...original.body.error, requestId: replay.headers.get("x-request-id") });

describe("replay", () => {
  test("same key and payload: the same status and body, the replay header on the replay only, one row", async () => {
    const t = await h.tenant();
    const opts = { key: t.apiKey, companyId: t.companyId, idempotencyKey: uniq("replay") };
    const body = { code: "P-REPLAY", name: "Tiekėjas UAB" };

    const first = await h.post("/v1/partners/create", body, opts);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject(body);
    expect(replayHeader(first)).toBeNull();

    const second = await h.post("/v1/partners/create", body, opts);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(replayHeader(second)).toBe("true");
    expect(second.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));

    // The same JSON object with its properties in another order is the same payload.
    const reordered = await h.post("/v1/partners/create", { name: body.name, code: body.code }, opts);
    expect(reordered.status).toBe(200);
    expect(reordered.body).toEqual(first.body);
    expect(replayHeader(reordered)).toBe("true");

    expect(await partnersOf(t.companyId)).toEqual([{ id: first.body.id, code: body.code, name: body.name }]);
    expect(await storedKeys(t.accountId)).toEqual([
      { company_id: t.companyId, key: opts.idempotencyKey, operation_id: "partners_create", status_code: 200, response_body: first.body },
    ]);
  });

  test("same key, different payload: 422 idempotency_key_reuse, nothing written, the original still replays", async () => {
    const t = await h.tenant();
    const opts = { key: t.apiKey, companyId: t.companyId, idempotencyKey: uniq("reuse") };
    const first = await h.post("/v1/partners/create", { code: "P-1", name: "First" }, opts);
    expect(first.status).toBe(200);

    for (const other of [
      { code: "P-2", name: "First" },
      { code: "P-1", name: "Second" },
    ]) {
      const reused = await h.post("/v1/partners/create", other, opts);
      expect(reused.status).toBe(422);
      expect(reused.body.error).toMatchObject({ code: "idempotency_key_reuse", key: "idempotency.key_reuse" });
      expect(replayHeader(reused)).toBeNull();
    }
    expect(await partnersOf(t.companyId)).toEqual([{ id: first.body.id, code: "P-1", name: "First" }]);
    expect((await storedKeys(t.accountId)).map((k) => k.response_body)).toEqual([first.body]);

    const again = await h.post("/v1/partners/create", { code: "P-1", name: "First" }, opts);
    expect(again.body).toEqual(first.body);
    expect(replayHeader(again)).toBe("true");
  });

  test("same key on a different operation (same account and company scope): 422, nothing written", async () => {
    const t = await h.tenant();
    const key = uniq("cross-op");
    const created = await h.post(
      "/v1/account/companies/create",
      { name: "Antra UAB", code: ltCompanyCode(), countryCode: "LT" },
      { key: t.apiKey, idempotencyKey: key },
    );
    expect(created.status).toBe(200);

    const update = await h.post("/v1/account/companies/update", { id: created.body.id, name: "Pakeista UAB" }, { key: t.apiKey, idempotencyKey: key });
    expect(update.status).toBe(422);
    expect(update.body.error.code).toBe("idempotency_key_reuse");
    expect(await h.db("companies").where({ id: created.body.id }).first("name")).toEqual({ name: "Antra UAB" });

    const keysBefore = await h.db("api_keys").where({ account_id: t.accountId }).count({ n: "*" });
    const apiKey = await h.post("/v1/account/api-keys/create", { name: "second", scopes: ["*"] }, { key: t.apiKey, idempotencyKey: key });
    expect(apiKey.status).toBe(422);
    expect(apiKey.body.error.code).toBe("idempotency_key_reuse");
    expect(await h.db("api_keys").where({ account_id: t.accountId }).count({ n: "*" })).toEqual(keysBefore);
    expect((await storedKeys(t.accountId)).map((k) => [k.key, k.operation_id])).toEqual([[key, "account_companies_create"]]);
  });

  test("a 4xx outcome is stored and replayed, even after the conflict is gone", async () => {
    const t = await h.tenant();
    const taken = await h.post("/v1/partners/create", { code: "DUP", name: "Original" }, { key: t.apiKey, companyId: t.companyId });
    expect(taken.status).toBe(200);

    const opts = { key: t.apiKey, companyId: t.companyId, idempotencyKey: uniq("conflict") };
    const body = { code: "DUP", name: "Newcomer" };
    const conflict = await h.post("/v1/partners/create", body, opts);
    expect(conflict.status).toBe(409);
    expect(conflict.body.error).toMatchObject({ code: "conflict", key: "partner.code_taken", params: { code: "DUP" } });
    expect(replayHeader(conflict)).toBeNull();

    const replay = await h.post("/v1/partners/create", body, opts);
    expect(replay.status).toBe(409);
    expect(replayHeader(replay)).toBe("true");
    expect(replay.body.error).toEqual(asReplayedError(conflict, replay));

    // The conflicting partner is gone: executing again would now succeed, but the key replays its 409.
    await h.db("partners").where({ company_id: t.companyId, code: "DUP" }).del();
    const later = await h.post("/v1/partners/create", body, opts);
    expect(later.status).toBe(409);
    expect(replayHeader(later)).toBe("true");
    expect(later.body.error).toEqual(asReplayedError(conflict, later));
    expect(await partnersOf(t.companyId)).toEqual([]);

    const fresh = await h.post("/v1/partners/create", body, { ...opts, idempotencyKey: uniq("conflict") });
    expect(fresh.status).toBe(200);
    expect(await partnersOf(t.companyId)).toEqual([{ id: fresh.body.id, code: "DUP", name: "Newcomer" }]);
  });
});

describe("concurrency", () => {
  test("409 idempotency_in_progress at once while the first request with the key is still running", async () => {
    const t = await h.tenant();
    const opts = { key: t.apiKey, companyId: t.companyId, idempotencyKey: uniq("in-progress") };
    const body = { code: "P-SLOW", name: "Lėtas" };
    const blocker = new pg.Client({ connectionString: h.connectionString });
    await blocker.connect();
    let committed = false;
    try {
      await blocker.query("begin");
      await blocker.query("lock table partners in access exclusive mode");

      let aDone = false;
      const a = h.post("/v1/partners/create", body, opts).finally(() => (aDone = true));
      await sleep(300);
      await untilWaitingOnLock();
      expect(aDone).toBe(false);

      // Raced against a timer: a B that waited for A's lock would otherwise hang until the blocker lets go (never,
      // here), so any bound well below the test timeout tells "at once" from "waited".
      const b = await Promise.race([h.post("/v1/partners/create", body, opts), sleep(AT_ONCE_MS).then(() => undefined)]);
      if (!b) throw new Error("the second request with the key waited for the first instead of answering 409 at once");
      expect(b.status).toBe(409);
      expect(b.body.error).toMatchObject({ code: "idempotency_in_progress", key: "idempotency.in_progress" });
      expect(replayHeader(b)).toBeNull();
      expect(aDone).toBe(false);

      await blocker.query("commit");
      committed = true;
      const first = await a;
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject(body);
      expect(replayHeader(first)).toBeNull();

      const c = await h.post("/v1/partners/create", body, opts);
      expect(c.status).toBe(200);
      expect(c.body).toEqual(first.body);
      expect(replayHeader(c)).toBe("true");
      expect(await partnersOf(t.companyId)).toEqual([{ id: first.body.id, code: body.code, name: body.name }]);
    } finally {
      if (!committed) await blocker.query("rollback").catch(() => undefined);
      await blocker.end();
    }
  });

  test("exactly once under 20 concurrent identical requests with one key", async () => {
    const t = await h.tenant();
    const opts = { key: t.apiKey, companyId: t.companyId, idempotencyKey: uniq("burst") };
    const body = { code: "P-BURST", name: "Vienas" };
    const responses = await Promise.all(Array.from({ length: 20 }, () => h.post("/v1/partners/create", body, opts)));

    const rows = await partnersOf(t.companyId);
    expect(rows).toHaveLength(1);
    const executed = responses.filter((r) => r.status === 200 && replayHeader(r) === null);
    expect(executed).toHaveLength(1);
    expect(executed[0].body).toMatchObject({ id: rows[0].id, ...body });
    for (const res of responses) {
      if (res.status === 200) {
        expect(res.body).toEqual(executed[0].body);
      } else {
        expect(res.status).toBe(409);
        expect(res.body.error.code).toBe("idempotency_in_progress");
        expect(replayHeader(res)).toBeNull();
      }
    }
    expect(await storedKeys(t.accountId)).toHaveLength(1);
  });
});

describe("scope of a key", () => {
  test("the same key value in another company of the account, or in another account, executes independently", async () => {
    const t = await h.tenant();
    const companyB = await h.post("/v1/account/companies/create", { name: "Kita UAB", code: ltCompanyCode(), countryCode: "LT" }, { key: t.apiKey });
    expect(companyB.status).toBe(200);
    const other = await h.tenant();
    const key = uniq("shared");
    const body = { code: "P-SAME", name: "Tas pats" };

    const inA = await h.post("/v1/partners/create", body, { key: t.apiKey, companyId: t.companyId, idempotencyKey: key });
    const inB = await h.post("/v1/partners/create", body, { key: t.apiKey, companyId: companyB.body.id, idempotencyKey: key });
    const inOther = await h.post("/v1/partners/create", body, { key: other.apiKey, companyId: other.companyId, idempotencyKey: key });
    for (const res of [inA, inB, inOther]) {
      expect(res.status).toBe(200);
      expect(replayHeader(res)).toBeNull();
    }
    expect(new Set([inA.body.id, inB.body.id, inOther.body.id]).size).toBe(3);
    expect(await partnersOf(t.companyId)).toEqual([{ id: inA.body.id, ...body }]);
    expect(await partnersOf(companyB.body.id)).toEqual([{ id: inB.body.id, ...body }]);
    expect(await partnersOf(other.companyId)).toEqual([{ id: inOther.body.id, ...body }]);

    // An account-level operation is a scope of its own too.
    const company = await h.post(
      "/v1/account/companies/create",
      { name: "Trečia UAB", code: ltCompanyCode(), countryCode: "LT" },
      { key: t.apiKey, idempotencyKey: key },
    );
    expect(company.status).toBe(200);
    expect(replayHeader(company)).toBeNull();

    // Each scope replays its own response.
    const replayB = await h.post("/v1/partners/create", body, { key: t.apiKey, companyId: companyB.body.id, idempotencyKey: key });
    expect(replayB.body).toEqual(inB.body);
    expect(replayHeader(replayB)).toBe("true");
    expect((await storedKeys(t.accountId)).map((k) => k.company_id).sort()).toEqual([t.companyId, companyB.body.id, NO_COMPANY].sort());
  });

  // Issue 7, defect 1: a replay never gives a key anything it could not get by running the request itself.
  const keyOf = async (apiKey: string, scopes: string[], companyIds?: string[]) => {
    const res = await h.post("/v1/account/api-keys/create", { name: uniq("k"), scopes, ...(companyIds ? { companyIds } : {}) }, { key: apiKey });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    return res.body as { id: string; key: string };
  };

  test("a key restricted to company A replaying another key's companies/update of company B gets B's 404, not the stored 200", async () => {
    const t = await h.tenant();
    const companyB = await h.post("/v1/account/companies/create", { name: "Slapta UAB", code: ltCompanyCode(), countryCode: "LT" }, { key: t.apiKey });
    const restricted = await keyOf(t.apiKey, ["account:write"], [t.companyId]);
    const idem = uniq("upd");
    const body = { id: companyB.body.id, name: "Pervadinta UAB" };
    const first = await h.post("/v1/account/companies/update", body, { key: t.apiKey, idempotencyKey: idem });
    expect(first.status).toBe(200);

    const replayed = await h.post("/v1/account/companies/update", body, { key: restricted.key, idempotencyKey: idem });
    expect(replayed.body.error?.key).toBe("company.not_found");
    expect(replayed.status).toBe(404);
    expect(replayHeader(replayed)).toBeNull();
    expect(JSON.stringify(replayed.body)).not.toContain("Pervadinta");
    // The same answer as a get of that company, and as the same update without any Idempotency-Key.
    expect((await h.post("/v1/account/companies/get", { id: companyB.body.id }, { key: restricted.key })).status).toBe(404);
    expect((await h.post("/v1/account/companies/update", body, { key: restricted.key })).status).toBe(404);
  });

  test("a key that may not create companies replaying another key's companies/create gets its own 403, and nothing is created", async () => {
    const t = await h.tenant();
    const restricted = await keyOf(t.apiKey, ["account:write"], [t.companyId]);
    const idem = uniq("create");
    const body = { name: "Nauja UAB", code: ltCompanyCode(), countryCode: "LT" };
    const first = await h.post("/v1/account/companies/create", body, { key: t.apiKey, idempotencyKey: idem });
    expect(first.status).toBe(200);

    const replayed = await h.post("/v1/account/companies/create", body, { key: restricted.key, idempotencyKey: idem });
    expect({ status: replayed.status, key: replayed.body.error?.key }).toEqual({ status: 403, key: "company.create_restricted_key" });
    expect(replayHeader(replayed)).toBeNull();
    expect(await h.db("companies").where({ account_id: t.accountId, code: body.code }).count({ n: "*" })).toEqual([{ n: "1" }]);
  });

  test("another key's use of an Idempotency-Key is invisible: a different body runs (no 422), the same body runs too", async () => {
    const t = await h.tenant();
    const second = await keyOf(t.apiKey, ["partners:write"]);
    const third = await keyOf(t.apiKey, ["partners:write"]);
    const idem = uniq("shared-key");
    const first = await h.post("/v1/partners/create", { code: "P-1", name: "Pirmas" }, { key: t.apiKey, companyId: t.companyId, idempotencyKey: idem });
    expect(first.status).toBe(200);

    const different = await h.post("/v1/partners/create", { code: "P-2", name: "Antras" }, { key: second.key, companyId: t.companyId, idempotencyKey: idem });
    expect(different.status).toBe(200);
    expect(replayHeader(different)).toBeNull();
    const same = await h.post("/v1/partners/create", { code: "P-1", name: "Pirmas" }, { key: third.key, companyId: t.companyId, idempotencyKey: idem });
    // It executes (and meets the first key's partner: the code is taken), instead of replaying the first key's 200.
    expect({ status: same.status, key: same.body.error?.key }).toEqual({ status: 409, key: "partner.code_taken" });
    expect((await partnersOf(t.companyId)).map((p) => p.code)).toEqual(["P-1", "P-2"]);
  });
});

describe("without Idempotency-Key", () => {
  test("two identical creates execute twice", async () => {
    const t = await h.tenant();
    const opts = { key: t.apiKey, companyId: t.companyId };
    const body = { code: "P-TWICE", name: "Du kartus" };
    const first = await h.post("/v1/partners/create", body, opts);
    expect(first.status).toBe(200);
    const second = await h.post("/v1/partners/create", body, opts);
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({ code: "conflict", key: "partner.code_taken" });
    expect(replayHeader(second)).toBeNull();
    expect(await partnersOf(t.companyId)).toEqual([{ id: first.body.id, ...body }]);

    const companies = [];
    for (const code of [ltCompanyCode(), ltCompanyCode()]) {
      const res = await h.post("/v1/account/companies/create", { name: "Ta pati UAB", code, countryCode: "LT" }, { key: t.apiKey });
      expect(res.status).toBe(200);
      expect(replayHeader(res)).toBeNull();
      companies.push(res.body.id);
    }
    expect(new Set(companies).size).toBe(2);
    expect(await h.db("companies").where({ account_id: t.accountId, name: "Ta pati UAB" }).count({ n: "*" })).toEqual([{ n: "2" }]);
    expect(await storedKeys(t.accountId)).toEqual([]);
  });
});

describe("pruning", () => {
  test("records older than 24 hours are pruned; younger ones are kept", async () => {
    const t = await h.bootstrap();
    const row = (key: string, age: string) =>
      h.db.raw(
        `insert into idempotency_keys (account_id, company_id, key_id, key, operation_id, request_hash, status_code, response_body, created_at)
         values (?, ?, ?, ?, 'account_companies_create', 'hash', 200, '{}'::jsonb, now() - ?::interval)`,
        [t.accountId, NO_COMPANY, t.keyId, key, age],
      );
    await row("old-25h", "25 hours");
    await row("young-23h", "23 hours");
    const othersBefore = await h.db("idempotency_keys").whereNot({ account_id: t.accountId }).count({ n: "*" });

    const client = new pg.Client({ connectionString: h.connectionString });
    await client.connect();
    const logged: string[] = [];
    try {
      const helpers = { query: (sql: string, params?: unknown[]) => client.query(sql, params), logger: { info: (m: string) => logged.push(m) } };
      await pruneIdempotencyKeys({}, helpers as never);
    } finally {
      await client.end();
    }
    expect((await storedKeys(t.accountId)).map((k) => k.key)).toEqual(["young-23h"]);
    expect(await h.db("idempotency_keys").whereNot({ account_id: t.accountId }).count({ n: "*" })).toEqual(othersBefore);
    expect(logged.join("\n")).toContain("pruned 1 ");
  });
});

describe("5xx responses are not stored", () => {
  const FLAKY_PATH = "/v1/partners/flaky-test";
  let flaky: Harness;
  let calls = 0;

  beforeAll(async () => {
    const document = structuredClone(loadDocument()) as Document & { paths: Record<string, { post: Record<string, unknown> }> };
    const create = document.paths["/v1/partners/create"].post;
    document.paths[FLAKY_PATH] = {
      post: {
        operationId: "partners_flaky_test",
        description: "Test only: fails with an unexpected error on its first call.",
        "x-required-scope": "partners:write",
        "x-company-scoped": true,
        parameters: structuredClone(create.parameters),
        requestBody: structuredClone(create.requestBody),
        responses: structuredClone(create.responses),
      },
    };
    const handler = defineHandler("partners_flaky_test" as "partners_create", async (ctx) => {
      calls++;
      const partner = await createPartner(ctx.db, requireCompany(ctx).id, ctx.body);
      if (calls === 1) {
        throw new Error(
          `duplicate key value violates unique constraint; select * from partners where id = '${partner.id}'\n    at flaky (/work/main/src/secret.ts:1:1)`,
        );
      }
      return partner;
    }) as unknown as Handler;
    flaky = await startHarness({ document, extraHandlers: new Map([["partners_flaky_test", handler]]) });
  });
  afterAll(() => flaky.close());

  test("a 500 is not stored: the retry with the same key executes and succeeds", async () => {
    const t = await flaky.tenant();
    const opts = { key: t.apiKey, companyId: t.companyId, idempotencyKey: uniq("flaky") };
    const body = { code: "P-FLAKY", name: "Nepatikimas" };

    const failed = await flaky.post(FLAKY_PATH, body, opts);
    expect(failed.status).toBe(500);
    expect(failed.body.error).toMatchObject({ code: "internal", key: "internal" });
    expect(failed.body.error.message).not.toMatch(/select|constraint|duplicate|secret|\.ts|\n/i);
    expect(Object.keys(failed.body.error).sort()).toEqual(["code", "key", "message", "requestId"]);
    for (const name of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "retry-after"]) expect(failed.headers.has(name)).toBe(false);
    expect(replayHeader(failed)).toBeNull();
    // The handler's write was rolled back with the failure, and nothing was remembered for the key.
    expect(await flaky.db("partners").where({ company_id: t.companyId }).count({ n: "*" })).toEqual([{ n: "0" }]);
    expect(await flaky.db("idempotency_keys").where({ account_id: t.accountId }).count({ n: "*" })).toEqual([{ n: "0" }]);

    const retried = await flaky.post(FLAKY_PATH, body, opts);
    expect(retried.status).toBe(200);
    expect(replayHeader(retried)).toBeNull();
    expect(retried.body).toMatchObject(body);
    expect(calls).toBe(2);

    const replay = await flaky.post(FLAKY_PATH, body, opts);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(retried.body);
    expect(replayHeader(replay)).toBe("true");
    expect(calls).toBe(2);
    expect(await flaky.db("partners").where({ company_id: t.companyId }).select("id")).toEqual([{ id: retried.body.id }]);
  });
});
