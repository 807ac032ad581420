// Tenancy: another account, and a key restricted to one company of the same account, probe rows they may not
// reach. Every probe gets the same 404 as an id that does not exist (nothing leaks, not even existence), and
// nothing of the probed account changes.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { startHarness, type ApiResponse, type Harness, type RequestOptions } from "../support/harness.js";
import { ltCompanyCode } from "../support/codes.js";
import { okBody as ok } from "../support/expect.js";

type Tenant = { accountId: string; apiKey: string; keyId: string; companyId: string };

let h: Harness;
/** The probed account: a company, a partner in it, and a second key restricted to the company. */
let victim: Tenant & { partnerId: string; partnerCode: string; restrictedKeyId: string };
/** The probing account, with its own company, partner and a `*` key. */
let intruder: Tenant & { partnerId: string };
let seq = 0;
const uniq = (prefix: string) => `${prefix}-${++seq}-${randomUUID().slice(0, 6)}`;

beforeAll(async () => {
  h = await startHarness();
  const v = await h.tenant({ name: "Auka UAB" });
  const partnerCode = uniq("VP");
  const partner = await ok(h.post("/v1/partners/create", { name: "Aukos partneris", code: partnerCode }, { key: v.apiKey, companyId: v.companyId }));
  const restricted = await ok(
    h.post("/v1/account/api-keys/create", { name: "restricted", scopes: ["partners:read"], companyIds: [v.companyId] }, { key: v.apiKey }),
  );
  victim = { ...v, partnerId: partner.id, partnerCode, restrictedKeyId: restricted.id };

  const i = await h.tenant({ name: "Įsibrovėlis UAB" });
  const own = await ok(h.post("/v1/partners/create", { name: "Savas", code: uniq("IP") }, { key: i.apiKey, companyId: i.companyId }));
  intruder = { ...i, partnerId: own.id };
});
afterAll(() => h.close());

/** Every row of an account, and every row anywhere that names one of its companies. */
async function accountState(accountId: string) {
  const companyIds = await h.db("companies").where({ account_id: accountId }).pluck("id");
  return {
    account: await h.db("accounts").where({ id: accountId }).select(),
    companies: await h.db("companies").where({ account_id: accountId }).orderBy("id").select(),
    partners: await h.db("partners").whereIn("company_id", companyIds).orderBy(["company_id", "id"]).select(),
    apiKeys: await h
      .db("api_keys")
      .where({ account_id: accountId })
      .orderBy("id")
      .select("id", "name", "scopes", "company_ids", "revoked_at", "rate_limit_per_minute"),
    keysNamingItsCompanies: await h.db("api_keys").whereRaw("company_ids && ?::uuid[]", [companyIds]).orderBy("id").pluck("id"),
    idempotency: await h
      .db("idempotency_keys")
      .where({ account_id: accountId })
      .orWhereIn("company_id", companyIds)
      .orderBy(["account_id", "key"])
      .select("account_id", "company_id", "key"),
  };
}

/** The error without what differs per request: requestId, and the probed id wherever it is echoed. */
function normalized(res: ApiResponse, probedId: string) {
  const { requestId: _ignored, ...error } = res.body.error;
  return JSON.parse(JSON.stringify(error).split(probedId).join("<id>"));
}

interface Probe {
  path: string;
  body: (id: string) => unknown;
  options?: (id: string) => RequestOptions;
  /** The expected error key. */
  key: string;
}

/**
 * Sends the probe with the foreign id and with a random id; both must be the same 404 `not_found`, the whole
 * error equal apart from requestId and the echoed id.
 */
async function expectSameAsNonexistent(probe: Probe, foreignId: string, auth: string) {
  const send = (id: string) => h.post(probe.path, probe.body(id), { key: auth, ...probe.options?.(id) });
  const foreign = await send(foreignId);
  const randomId = randomUUID();
  const missing = await send(randomId);
  expect({ status: foreign.status, code: foreign.body?.error?.code, key: foreign.body?.error?.key }).toEqual({
    status: 404,
    code: "not_found",
    key: probe.key,
  });
  expect({ status: missing.status, code: missing.body?.error?.code, key: missing.body?.error?.key }).toEqual({
    status: 404,
    code: "not_found",
    key: probe.key,
  });
  expect(normalized(foreign, foreignId)).toEqual(normalized(missing, randomId));
  expect(JSON.stringify(foreign.body)).not.toMatch(/Auka|Aukos/);
  // The same headers apart from the per-request ones.
  const names = (r: ApiResponse) => [...r.headers.keys()].filter((n) => !/^(date|x-request-id|x-ratelimit-|content-length|etag)/.test(n)).sort();
  expect(names(foreign)).toEqual(names(missing));
}

describe("another account gets 404 not_found, exactly as for an id that does not exist", () => {
  const probes: [string, Probe, () => string][] = [
    [
      "account/companies/get with its company id",
      { path: "/v1/account/companies/get", body: (id) => ({ id }), key: "company.not_found" },
      () => victim.companyId,
    ],
    [
      "account/companies/update with its company id",
      {
        path: "/v1/account/companies/update",
        body: (id) => ({ id, name: "Užgrobta", email: "x@example.com" }),
        options: () => ({ idempotencyKey: uniq("upd") }),
        key: "company.not_found",
      },
      () => victim.companyId,
    ],
    [
      "partners/create with X-Company-Id of its company",
      {
        path: "/v1/partners/create",
        body: () => ({ name: "Svetimas", code: uniq("X") }),
        options: (id) => ({ companyId: id, idempotencyKey: uniq("pc") }),
        key: "company.not_found",
      },
      () => victim.companyId,
    ],
    [
      "partners/get with X-Company-Id of its company and its partner's id",
      { path: "/v1/partners/get", body: () => ({ id: victim.partnerId }), options: (id) => ({ companyId: id }), key: "company.not_found" },
      () => victim.companyId,
    ],
    [
      "partners/get with X-Company-Id of its company and its partner's code",
      { path: "/v1/partners/get", body: () => ({ code: victim.partnerCode }), options: (id) => ({ companyId: id }), key: "company.not_found" },
      () => victim.companyId,
    ],
    [
      "partners/get in its own company with the other account's partner id",
      { path: "/v1/partners/get", body: (id) => ({ id }), options: () => ({ companyId: intruder.companyId }), key: "partner.not_found" },
      () => victim.partnerId,
    ],
    ["account/api-keys/revoke with its key id", { path: "/v1/account/api-keys/revoke", body: (id) => ({ id }), key: "api_key.not_found" }, () => victim.keyId],
    [
      "account/api-keys/revoke with its restricted key's id",
      { path: "/v1/account/api-keys/revoke", body: (id) => ({ id }), key: "api_key.not_found" },
      () => victim.restrictedKeyId,
    ],
    [
      "account/api-keys/create with companyIds of its company",
      { path: "/v1/account/api-keys/create", body: (id) => ({ name: "Svetimas raktas", scopes: ["*"], companyIds: [id] }), key: "company.not_found" },
      () => victim.companyId,
    ],
    [
      "account/api-keys/create with companyIds of its own and the other account's company",
      {
        path: "/v1/account/api-keys/create",
        body: (id) => ({ name: "Mišrus raktas", scopes: ["*"], companyIds: [intruder.companyId, id] }),
        key: "company.not_found",
      },
      () => victim.companyId,
    ],
  ];

  test.each(probes)("%s", async (_name, probe, foreignId) => {
    const before = await accountState(victim.accountId);
    await expectSameAsNonexistent(probe, foreignId(), intruder.apiKey);
    expect(await accountState(victim.accountId)).toEqual(before);
  });

  test("account/companies/list shows none of the other account's companies", async () => {
    const all = await h.post("/v1/account/companies/list", { pageSize: 500 }, { key: intruder.apiKey });
    expect(all.status).toBe(200);
    expect(all.body.rows.map((r: { id: string }) => r.id)).toEqual([intruder.companyId]);
    expect(all.body.total).toBe(1);
    expect(JSON.stringify(all.body)).not.toContain(victim.companyId);

    const filtered = await h.post("/v1/account/companies/list", { filter: [{ field: "id", op: "eq", value: victim.companyId }] }, { key: intruder.apiKey });
    expect(filtered.status).toBe(200);
    expect({ rows: filtered.body.rows, total: filtered.body.total }).toEqual({ rows: [], total: 0 });

    const byName = await h.post("/v1/account/companies/list", { filter: [{ field: "name", op: "contains", value: "Auka" }] }, { key: intruder.apiKey });
    expect({ rows: byName.body.rows, total: byName.body.total }).toEqual({ rows: [], total: 0 });

    // Control: the other account sees its own.
    const own = await h.post("/v1/account/companies/list", {}, { key: victim.apiKey });
    expect(own.body.rows.map((r: { id: string }) => r.id)).toEqual([victim.companyId]);
  });

  test("account/api-keys/list shows none of the other account's keys", async () => {
    const all = await h.post("/v1/account/api-keys/list", { pageSize: 500 }, { key: intruder.apiKey });
    expect(all.status).toBe(200);
    const ids: string[] = all.body.rows.map((r: { id: string }) => r.id);
    expect(ids).toContain(intruder.keyId);
    expect(ids.sort()).toEqual((await h.db("api_keys").where({ account_id: intruder.accountId }).pluck("id")).sort());
    expect(all.body.total).toBe(ids.length);
    expect(ids).not.toContain(victim.keyId);
    expect(ids).not.toContain(victim.restrictedKeyId);

    const filtered = await h.post("/v1/account/api-keys/list", { filter: [{ field: "id", op: "eq", value: victim.keyId }] }, { key: intruder.apiKey });
    expect({ rows: filtered.body.rows, total: filtered.body.total }).toEqual({ rows: [], total: 0 });

    const own = await h.post("/v1/account/api-keys/list", {}, { key: victim.apiKey });
    expect(own.body.rows.map((r: { id: string }) => r.id).sort()).toEqual([victim.keyId, victim.restrictedKeyId].sort());
  });

  test("after every probe the first account's rows are unchanged and still work", async () => {
    // The probes run here again, so this test stands on its own (whatever ran before it).
    for (const [, probe, foreignId] of probes) await expectSameAsNonexistent(probe, foreignId(), intruder.apiKey);
    const company = await h.db("companies").where({ id: victim.companyId }).first("name", "email", "account_id");
    expect(company).toEqual({ name: "Auka UAB", email: null, account_id: victim.accountId });
    expect(await h.db("partners").where({ company_id: victim.companyId }).pluck("id")).toEqual([victim.partnerId]);
    expect(await h.db("api_keys").whereIn("id", [victim.keyId, victim.restrictedKeyId]).whereNotNull("revoked_at").count("* as n")).toEqual([{ n: "0" }]);
    expect(await h.db("api_keys").whereRaw("? = any(company_ids)", [victim.companyId]).pluck("id")).toEqual([victim.restrictedKeyId]);
    expect(await h.db("api_keys").where({ account_id: victim.accountId }).count("* as n")).toEqual([{ n: "2" }]);
    expect(await h.db("idempotency_keys").where({ company_id: victim.companyId }).count("* as n")).toEqual([{ n: "0" }]);

    const got = await h.post("/v1/partners/get", { id: victim.partnerId }, { key: victim.apiKey, companyId: victim.companyId });
    expect(got.status).toBe(200);
    expect(got.body.code).toBe(victim.partnerCode);
  });

  test("an Idempotency-Key used by one account is not replayed to another", async () => {
    // Two fresh accounts: the victim's rows that the other tests check stay as they are.
    const one = await h.tenant();
    const other = await h.tenant();
    const idem = uniq("shared");
    const a = await h.post("/v1/partners/create", { name: "Tas pats", code: "SAME" }, { key: one.apiKey, companyId: one.companyId, idempotencyKey: idem });
    const b = await h.post("/v1/partners/create", { name: "Tas pats", code: "SAME" }, { key: other.apiKey, companyId: other.companyId, idempotencyKey: idem });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.headers.get("x-idempotent-replay")).toBeNull();
    expect(b.body.id).not.toBe(a.body.id);
    expect(
      await h.db("partners").where({ code: "SAME" }).whereIn("company_id", [one.companyId, other.companyId]).orderBy("company_id").pluck("company_id"),
    ).toEqual([one.companyId, other.companyId].sort());
  });
});

describe("a key restricted to one company cannot reach a sibling company of the same account", () => {
  let account: Tenant;
  let sibling: string;
  let siblingPartner: string;
  let restricted: { id: string; key: string };

  beforeAll(async () => {
    account = await h.tenant({ name: "Pirma UAB" });
    sibling = (await ok(h.post("/v1/account/companies/create", { name: "Sesuo UAB", code: ltCompanyCode(), countryCode: "LT" }, { key: account.apiKey }))).id;
    siblingPartner = (await ok(h.post("/v1/partners/create", { name: "Sesers partneris", code: uniq("SP") }, { key: account.apiKey, companyId: sibling }))).id;
    const created = await ok(
      h.post("/v1/account/api-keys/create", { name: "only first", scopes: ["*"], companyIds: [account.companyId] }, { key: account.apiKey }),
    );
    restricted = { id: created.id, key: created.key };
  });

  const probes: [string, Probe, () => string][] = [
    ["account/companies/get", { path: "/v1/account/companies/get", body: (id) => ({ id }), key: "company.not_found" }, () => sibling],
    ["account/companies/update", { path: "/v1/account/companies/update", body: (id) => ({ id, name: "Perimta" }), key: "company.not_found" }, () => sibling],
    [
      "partners/create",
      { path: "/v1/partners/create", body: () => ({ name: "Per sieną", code: uniq("S") }), options: (id) => ({ companyId: id }), key: "company.not_found" },
      () => sibling,
    ],
    [
      "partners/get",
      { path: "/v1/partners/get", body: () => ({ id: siblingPartner }), options: (id) => ({ companyId: id }), key: "company.not_found" },
      () => sibling,
    ],
    [
      "partners/get (sibling's partner id in its own company)",
      { path: "/v1/partners/get", body: (id) => ({ id }), options: () => ({ companyId: account.companyId }), key: "partner.not_found" },
      () => siblingPartner,
    ],
    [
      "account/api-keys/revoke of the account's unrestricted key",
      { path: "/v1/account/api-keys/revoke", body: (id) => ({ id }), key: "api_key.not_found" },
      () => account.keyId,
    ],
  ];

  test.each(probes)("%s: 404 like a nonexistent id, nothing changed", async (_name, probe, foreignId) => {
    const before = await accountState(account.accountId);
    await expectSameAsNonexistent(probe, foreignId(), restricted.key);
    expect(await accountState(account.accountId)).toEqual(before);
  });

  test("api-keys/create for the sibling: 403, the same as for an unknown company", async () => {
    const before = await accountState(account.accountId);
    const send = (id: string) => h.post("/v1/account/api-keys/create", { name: "sesers", scopes: ["*"], companyIds: [id] }, { key: restricted.key });
    const s = await send(sibling);
    const randomId = randomUUID();
    const r = await send(randomId);
    expect({ status: s.status, code: s.body.error?.code, key: s.body.error?.key }).toEqual({
      status: 403,
      code: "forbidden",
      key: "api_key.company_escalation",
    });
    expect(normalized(s, sibling)).toEqual(normalized(r, randomId));
    expect(await accountState(account.accountId)).toEqual(before);
  });

  test("lists show only what the key reaches", async () => {
    const companies = await h.post("/v1/account/companies/list", {}, { key: restricted.key });
    expect(companies.body.rows.map((r: { id: string }) => r.id)).toEqual([account.companyId]);
    expect(companies.body.total).toBe(1);
    const keys = await h.post("/v1/account/api-keys/list", {}, { key: restricted.key });
    const ids: string[] = keys.body.rows.map((r: { id: string }) => r.id);
    expect(ids).toContain(restricted.id);
    expect(ids).not.toContain(account.keyId);
    for (const row of keys.body.rows) expect(row.companyIds).toEqual([account.companyId]);
  });

  test("after every probe the sibling is unchanged, its partner alone, the unrestricted key active", async () => {
    for (const [, probe, foreignId] of probes) await expectSameAsNonexistent(probe, foreignId(), restricted.key);
    expect(await h.db("companies").where({ id: sibling }).first("name")).toEqual({ name: "Sesuo UAB" });
    expect(await h.db("partners").where({ company_id: sibling }).pluck("id")).toEqual([siblingPartner]);
    expect((await h.db("api_keys").where({ id: account.keyId }).first("revoked_at")).revoked_at).toBeNull();
    // Control: the unrestricted key of the same account does reach the sibling.
    const got = await h.post("/v1/partners/get", { id: siblingPartner }, { key: account.apiKey, companyId: sibling });
    expect(got.status).toBe(200);
  });
});
