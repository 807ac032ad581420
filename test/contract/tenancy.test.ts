// Tenancy: another account, and a key restricted to one company of the same account, probe rows they may not
// reach. Every probe gets the same 404 as an id that does not exist (nothing leaks, not even existence), and
// nothing of the probed account changes. Every call goes through the SDK (`withResponse`, read by `answer`, so that a
// probe's whole refusal, headers included, is compared with a nonexistent id's).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { startHarness, type ApiResponse, type Harness } from "../support/harness.js";
import { ltCompanyCode } from "../support/codes.js";
import { answer } from "../support/expect.js";
import { world } from "../support/world.js";
import type { AccountingApi, WithResponse } from "../../sdk/typescript/src/index.js";

type Tenant = { accountId: string; apiKey: string; keyId: string; companyId: string };
/** The account-level SDK client of a key (a probe names its company itself). */
const as = (key: string, companyId?: string): AccountingApi => h.sdk(key, companyId);

let h: Harness;
/** The probed account: a company, a partner in it, and a second key restricted to the company. */
let victim: Tenant & { partnerId: string; partnerCode: string; restrictedKeyId: string };
/** The probing account, with its own company, partner and a `*` key. */
let intruder: Tenant & { partnerId: string };
let seq = 0;
const uniq = (prefix: string) => `${prefix}-${++seq}-${randomUUID().slice(0, 6)}`;

beforeAll(async () => {
  h = await startHarness();
  const v = await world(h, { chart: false, company: { name: "Auka UAB" } });
  const partnerCode = uniq("VP");
  const partner = await v.api.partners.create({ name: "Aukos partneris", code: partnerCode });
  const restricted = await as(v.apiKey).account.apiKeys.create({ name: "restricted", scopes: ["partners:read"], companyIds: [v.companyId] });
  victim = { ...v, partnerId: partner.id, partnerCode, restrictedKeyId: restricted.id };

  const i = await world(h, { chart: false, company: { name: "Įsibrovėlis UAB" } });
  const own = await i.api.partners.create({ name: "Savas", code: uniq("IP") });
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
  /** The call with the probed id, through the prober's account-level client. */
  call: (api: AccountingApi, id: string) => Promise<WithResponse<unknown>>;
  /** The expected error key. */
  key: string;
}

/**
 * Sends the probe with the foreign id and with a random id; both must be the same 404 `not_found`, the whole
 * error equal apart from requestId and the echoed id.
 */
async function expectSameAsNonexistent(probe: Probe, foreignId: string, auth: string) {
  const send = (id: string) => answer(probe.call(as(auth), id));
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
      { call: (api, id) => api.account.companies.get.withResponse({ id }), key: "company.not_found" },
      () => victim.companyId,
    ],
    [
      "account/companies/update with its company id",
      {
        call: (api, id) => api.account.companies.update.withResponse({ id, name: "Užgrobta", email: "x@example.com" }, { idempotencyKey: uniq("upd") }),
        key: "company.not_found",
      },
      () => victim.companyId,
    ],
    [
      "partners/create with X-Company-Id of its company",
      {
        call: (api, id) => api.partners.create.withResponse({ name: "Svetimas", code: uniq("X") }, { companyId: id, idempotencyKey: uniq("pc") }),
        key: "company.not_found",
      },
      () => victim.companyId,
    ],
    [
      "partners/get with X-Company-Id of its company and its partner's id",
      { call: (api, id) => api.partners.get.withResponse({ id: victim.partnerId }, { companyId: id }), key: "company.not_found" },
      () => victim.companyId,
    ],
    [
      "partners/get with X-Company-Id of its company and its partner's code",
      { call: (api, id) => api.partners.get.withResponse({ code: victim.partnerCode }, { companyId: id }), key: "company.not_found" },
      () => victim.companyId,
    ],
    [
      "partners/get in its own company with the other account's partner id",
      { call: (api, id) => api.partners.get.withResponse({ id }, { companyId: intruder.companyId }), key: "partner.not_found" },
      () => victim.partnerId,
    ],
    [
      "account/api-keys/revoke with its key id",
      { call: (api, id) => api.account.apiKeys.revoke.withResponse({ id }), key: "api_key.not_found" },
      () => victim.keyId,
    ],
    [
      "account/api-keys/revoke with its restricted key's id",
      { call: (api, id) => api.account.apiKeys.revoke.withResponse({ id }), key: "api_key.not_found" },
      () => victim.restrictedKeyId,
    ],
    [
      "account/api-keys/create with companyIds of its company",
      { call: (api, id) => api.account.apiKeys.create.withResponse({ name: "Svetimas raktas", scopes: ["*"], companyIds: [id] }), key: "company.not_found" },
      () => victim.companyId,
    ],
    [
      "account/api-keys/create with companyIds of its own and the other account's company",
      {
        call: (api, id) => api.account.apiKeys.create.withResponse({ name: "Mišrus raktas", scopes: ["*"], companyIds: [intruder.companyId, id] }),
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
    const companies = as(intruder.apiKey).account.companies;
    const all = await companies.list({ pageSize: 500 });
    expect(all.rows.map((r) => r.id)).toEqual([intruder.companyId]);
    expect(all.total).toBe(1);
    expect(JSON.stringify(all)).not.toContain(victim.companyId);

    const filtered = await companies.list({ filter: [{ field: "id", op: "eq", value: victim.companyId }] });
    expect({ rows: filtered.rows, total: filtered.total }).toEqual({ rows: [], total: 0 });

    const byName = await companies.list({ filter: [{ field: "name", op: "contains", value: "Auka" }] });
    expect({ rows: byName.rows, total: byName.total }).toEqual({ rows: [], total: 0 });

    // Control: the other account sees its own.
    const own = await as(victim.apiKey).account.companies.list({});
    expect(own.rows.map((r) => r.id)).toEqual([victim.companyId]);
  });

  test("account/api-keys/list shows none of the other account's keys", async () => {
    const keys = as(intruder.apiKey).account.apiKeys;
    const all = await keys.list({ pageSize: 500 });
    const ids: string[] = all.rows.map((r) => r.id);
    expect(ids).toContain(intruder.keyId);
    expect(ids.sort()).toEqual((await h.db("api_keys").where({ account_id: intruder.accountId }).pluck("id")).sort());
    expect(all.total).toBe(ids.length);
    expect(ids).not.toContain(victim.keyId);
    expect(ids).not.toContain(victim.restrictedKeyId);

    const filtered = await keys.list({ filter: [{ field: "id", op: "eq", value: victim.keyId }] });
    expect({ rows: filtered.rows, total: filtered.total }).toEqual({ rows: [], total: 0 });

    const own = await as(victim.apiKey).account.apiKeys.list({});
    expect(own.rows.map((r) => r.id).sort()).toEqual([victim.keyId, victim.restrictedKeyId].sort());
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

    expect((await as(victim.apiKey, victim.companyId).partners.get({ id: victim.partnerId })).code).toBe(victim.partnerCode);
  });

  test("an Idempotency-Key used by one account is not replayed to another", async () => {
    // Two fresh accounts: the victim's rows that the other tests check stay as they are.
    const one = await world(h, { chart: false });
    const other = await world(h, { chart: false });
    const idem = uniq("shared");
    const a = await one.api.partners.create.withResponse({ name: "Tas pats", code: "SAME" }, { idempotencyKey: idem });
    const b = await other.api.partners.create.withResponse({ name: "Tas pats", code: "SAME" }, { idempotencyKey: idem });
    expect(b.response.headers.get("x-idempotent-replay")).toBeNull();
    expect(b.data.id).not.toBe(a.data.id);
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
    account = await world(h, { chart: false, company: { name: "Pirma UAB" } });
    sibling = (await as(account.apiKey).account.companies.create({ name: "Sesuo UAB", code: ltCompanyCode(), countryCode: "LT" })).id;
    siblingPartner = (await as(account.apiKey, sibling).partners.create({ name: "Sesers partneris", code: uniq("SP") })).id;
    const created = await as(account.apiKey).account.apiKeys.create({ name: "only first", scopes: ["*"], companyIds: [account.companyId] });
    restricted = { id: created.id, key: created.key };
  });

  const probes: [string, Probe, () => string][] = [
    ["account/companies/get", { call: (api, id) => api.account.companies.get.withResponse({ id }), key: "company.not_found" }, () => sibling],
    [
      "account/companies/update",
      { call: (api, id) => api.account.companies.update.withResponse({ id, name: "Perimta" }), key: "company.not_found" },
      () => sibling,
    ],
    [
      "partners/create",
      { call: (api, id) => api.partners.create.withResponse({ name: "Per sieną", code: uniq("S") }, { companyId: id }), key: "company.not_found" },
      () => sibling,
    ],
    ["partners/get", { call: (api, id) => api.partners.get.withResponse({ id: siblingPartner }, { companyId: id }), key: "company.not_found" }, () => sibling],
    [
      "partners/get (sibling's partner id in its own company)",
      { call: (api, id) => api.partners.get.withResponse({ id }, { companyId: account.companyId }), key: "partner.not_found" },
      () => siblingPartner,
    ],
    [
      "account/api-keys/revoke of the account's unrestricted key",
      { call: (api, id) => api.account.apiKeys.revoke.withResponse({ id }), key: "api_key.not_found" },
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
    const send = (id: string) => answer(as(restricted.key).account.apiKeys.create.withResponse({ name: "sesers", scopes: ["*"], companyIds: [id] }));
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
    const companies = await as(restricted.key).account.companies.list({});
    expect(companies.rows.map((r) => r.id)).toEqual([account.companyId]);
    expect(companies.total).toBe(1);
    const keys = await as(restricted.key).account.apiKeys.list({});
    const ids: string[] = keys.rows.map((r) => r.id);
    expect(ids).toContain(restricted.id);
    expect(ids).not.toContain(account.keyId);
    for (const row of keys.rows) expect(row.companyIds).toEqual([account.companyId]);
  });

  test("after every probe the sibling is unchanged, its partner alone, the unrestricted key active", async () => {
    for (const [, probe, foreignId] of probes) await expectSameAsNonexistent(probe, foreignId(), restricted.key);
    expect(await h.db("companies").where({ id: sibling }).first("name")).toEqual({ name: "Sesuo UAB" });
    expect(await h.db("partners").where({ company_id: sibling }).pluck("id")).toEqual([siblingPartner]);
    expect((await h.db("api_keys").where({ id: account.keyId }).first("revoked_at")).revoked_at).toBeNull();
    // Control: the unrestricted key of the same account does reach the sibling.
    expect((await as(account.apiKey, sibling).partners.get({ id: siblingPartner })).id).toBe(siblingPartner);
  });
});
