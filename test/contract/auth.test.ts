// Authentication and authorisation (spec: "Authentication", "Errors"; contract: `x-required-scope`, api-keys):
// 401 for every missing or invalid key, 403 per scope for every operation of the contract, and the rules for
// creating keys (no scope or company escalation, the secret shown once, company restriction and X-Company-Id).
// Raw HTTP where the test is about HTTP itself: a missing or malformed Authorization or X-Company-Id header, and every
// operation of the contract probed by its path with each scope; the rules for creating keys go through the SDK.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { loadDocument } from "../../src/http/openapi.js";
import { startHarness, type ApiResponse, type Harness } from "../support/harness.js";
import { expectApiError, expectError } from "../support/expect.js";
import type { Scope } from "../support/keys.js";
import { ltCompanyCode } from "../support/codes.js";

// ---------------------------------------------------------------------------------------------------------
// The operations of the contract, read from the loaded OpenAPI document.
// ---------------------------------------------------------------------------------------------------------

interface Op {
  operationId: string;
  path: string;
  scope: string;
  module: string;
  access: "read" | "write";
  companyScoped: boolean;
}

const document = loadDocument();
const OPS: Op[] = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
  Object.values(item as Record<string, Record<string, unknown>>).map((op) => {
    const scope = op["x-required-scope"] as string;
    const [module, access] = scope.split(":") as [string, "read" | "write"];
    return { operationId: op.operationId as string, path, scope, module, access, companyScoped: op["x-company-scoped"] === true };
  }),
);
const MODULES = [...new Set(OPS.map((o) => o.module))];
/** A module the spec names that has no operation in the contract yet (its scopes grant nothing here). */
const IDLE_MODULE = ["webhooks", "bank", "assets", "inventory", "sales", "purchases", "migration", "declarations"].find((m) => !MODULES.includes(m))!;

/** Scopes of other modules: one of a module with no operation here, and the write scope of each other module. */
const unrelatedScopes = (op: Op) => [`${IDLE_MODULE}:write`, ...MODULES.filter((m) => m !== op.module).map((m) => `${m}:write`)];

const KEY_SHAPE = /^ak_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/;

// ---------------------------------------------------------------------------------------------------------
// World: one account with a `*` key, two companies (A, B) and a partner in A.
// ---------------------------------------------------------------------------------------------------------

let h: Harness;
let root: { accountId: string; apiKey: string; keyId: string; companyId: string };
let companyB: string;
let partnerId: string;
let seq = 0;
const uniq = (prefix: string) => `${prefix}-${++seq}-${randomBytes(3).toString("hex")}`;

beforeAll(async () => {
  h = await startHarness();
  root = await h.tenant();
  const b = await h.post("/v1/account/companies/create", { name: "Antra UAB", code: ltCompanyCode(), countryCode: "LT" }, { key: root.apiKey });
  expect(b.status).toBe(200);
  companyB = b.body.id;
  const partner = await h.post("/v1/partners/create", { name: "Pirkėjas", code: uniq("P") }, { key: root.apiKey, companyId: root.companyId });
  expect(partner.status).toBe(200);
  partnerId = partner.body.id;
});
afterAll(() => h.close());

interface CreatedKey {
  id: string;
  key: string;
}

/** Creates a key of the world's account with the `*` key. */
async function createKey(scopes: string[], companyIds?: string[]): Promise<CreatedKey> {
  const created = await h.sdk(root.apiKey).account.apiKeys.create({ name: uniq("key"), scopes: scopes as Scope[], ...(companyIds ? { companyIds } : {}) });
  return { id: created.id, key: created.key };
}

const keyCache = new Map<string, Promise<CreatedKey>>();
/** One key per distinct scope set and company restriction (keys are never revoked by the tests that share them). */
function keyWith(scopes: string[], companyIds?: string[]): Promise<CreatedKey> {
  const id = JSON.stringify([scopes, companyIds ?? null]);
  if (!keyCache.has(id)) keyCache.set(id, createKey(scopes, companyIds));
  return keyCache.get(id)!;
}

/**
 * A fingerprint of every row of every table a request could write (all tables of the schema but the rate-limit
 * counters and the migration bookkeeping), so that "nothing written" also covers tables added later.
 */
async function snapshot(): Promise<Record<string, { rows: number; digest: string }>> {
  const tables: string[] = await h
    .db("information_schema.tables")
    .where({ table_schema: h.db.raw("current_schema()"), table_type: "BASE TABLE" })
    .whereNotIn("table_name", ["rate_limit_counters", "knex_migrations", "knex_migrations_lock"])
    .orderBy("table_name")
    .pluck("table_name");
  expect(tables).toEqual(expect.arrayContaining(["accounts", "api_keys", "companies", "partners", "idempotency_keys"]));
  const result: Record<string, { rows: number; digest: string }> = {};
  for (const table of tables) {
    const { rows } = await h.db.raw<{ rows: { rows: string; digest: string | null }[] }>(
      `select count(*) as rows, md5(string_agg(t::text, '|' order by t::text)) as digest from ?? t`,
      [table],
    );
    result[table] = { rows: Number(rows[0].rows), digest: rows[0].digest ?? "" };
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------
// A well-formed call of each operation, and what its success looks like, for the "passes the scope check" cases.
// ---------------------------------------------------------------------------------------------------------

interface Call {
  body: unknown;
  companyId?: string;
  /** Checks the 200 response and its effect. */
  verify?: (res: ApiResponse) => Promise<void>;
}

const VALID_CALLS: Record<string, (heldScope: string) => Promise<Call>> = {
  account_companies_create: async () => {
    const code = ltCompanyCode();
    return {
      body: { name: "Nauja UAB", code, countryCode: "LT" },
      verify: async (res) => {
        expect(res.body).toMatchObject({ code, countryCode: "LT", baseCurrency: "EUR" });
        expect(await h.db("companies").where({ id: res.body.id, account_id: root.accountId }).first("code")).toEqual({ code });
      },
    };
  },
  account_companies_list: async () => ({
    body: {},
    verify: async (res) => expect(res.body.rows.map((r: { id: string }) => r.id)).toEqual(expect.arrayContaining([root.companyId, companyB])),
  }),
  account_companies_get: async () => ({
    body: { id: root.companyId },
    verify: async (res) => expect(res.body.id).toBe(root.companyId),
  }),
  account_companies_update: async () => {
    const name = uniq("Pervadinta");
    return {
      body: { id: root.companyId, name },
      verify: async (res) => {
        expect(res.body).toMatchObject({ id: root.companyId, name });
        expect(await h.db("companies").where({ id: root.companyId }).first("name")).toEqual({ name });
      },
    };
  },
  account_api_keys_create: async (heldScope) => ({
    body: { name: uniq("child"), scopes: [heldScope] },
    verify: async (res) => {
      expect(res.body.key).toMatch(KEY_SHAPE);
      expect(res.body.scopes).toEqual([heldScope]);
      expect(await h.db("api_keys").where({ id: res.body.id, account_id: root.accountId }).first("scopes")).toEqual({ scopes: [heldScope] });
    },
  }),
  account_api_keys_list: async () => ({
    body: {},
    verify: async (res) => expect(res.body.rows.map((r: { id: string }) => r.id)).toContain(root.keyId),
  }),
  account_api_keys_revoke: async () => {
    // A key may only revoke keys it could have made: account:write (which grants account:read) revokes an
    // account:read key.
    const victim = await createKey(["account:read"]);
    return {
      body: { id: victim.id },
      verify: async (res) => {
        expect(res.body.id).toBe(victim.id);
        expect(res.body.revokedAt).not.toBeNull();
        expect((await h.db("api_keys").where({ id: victim.id }).first("revoked_at")).revoked_at).not.toBeNull();
      },
    };
  },
  partners_create: async () => {
    const code = uniq("PC");
    return {
      body: { name: "Tiekėjas", code },
      companyId: root.companyId,
      verify: async (res) => {
        expect(res.body.code).toBe(code);
        expect(await h.db("partners").where({ company_id: root.companyId, id: res.body.id }).first("code")).toEqual({ code });
      },
    };
  },
  partners_get: async () => ({
    body: { id: partnerId },
    companyId: root.companyId,
    verify: async (res) => expect(res.body.id).toBe(partnerId),
  }),
  partners_balances: async () => ({
    body: { partnerIds: [partnerId] },
    companyId: root.companyId,
    verify: async (res) => expect(res.body.rows.map((r: { partnerId: string; balance: string }) => [r.partnerId, r.balance])).toEqual([[partnerId, "0.00"]]),
  }),
  partners_statement: async () => ({
    body: { partnerId, from: "2026-01-01", to: "2026-12-31" },
    companyId: root.companyId,
    verify: async (res) => expect([res.body.partner.id, res.body.lines, res.body.closing.balance]).toEqual([partnerId, [], "0.00"]),
  }),
};

/** A call of an operation this file does not know yet: an empty body (it must still get past the scope check). */
const callOf = (op: Op, heldScope: string): Promise<Call> =>
  VALID_CALLS[op.operationId]?.(heldScope) ?? Promise.resolve({ body: {}, companyId: op.companyScoped ? root.companyId : undefined });

async function expectPassesScopeCheck(op: Op, key: CreatedKey, heldScope: string) {
  const call = await callOf(op, heldScope);
  const res = await h.post(op.path, call.body, { key: key.key, companyId: call.companyId });
  if (!VALID_CALLS[op.operationId]) {
    // An operation without a known valid call here: it must get past the scope check to an answer the operation
    // itself gives (success, or a 4xx about the empty body or missing data) — never a 403, never a 5xx.
    expect(res.body?.error?.key).not.toBe("auth.scope_missing");
    expect([200, 400, 404, 409, 422]).toContain(res.status);
    return;
  }
  expect({ status: res.status, error: res.body?.error }).toEqual({ status: 200, error: undefined });
  await call.verify?.(res);
}

async function expectScopeRefused(op: Op, key: CreatedKey, heldScope: string) {
  const call = await callOf(op, heldScope);
  const before = await snapshot();
  const res = await h.post(op.path, call.body, { key: key.key, companyId: call.companyId });
  expectError(res, 403, "forbidden", "auth.scope_missing");
  expect(res.body.error.params).toEqual({ requiredScope: op.scope });
  expect(res.body.error.message).toContain(op.scope);
  expect(await snapshot()).toEqual(before);
}

// ---------------------------------------------------------------------------------------------------------
// 401
// ---------------------------------------------------------------------------------------------------------

describe("401 unauthorized", () => {
  const randomSecret = () => randomBytes(32).toString("base64url");
  const hexOf = (key: string) => key.slice(3, 35);
  const secretOf = (key: string) => key.slice(36);
  const hex = (n: number) =>
    randomBytes(Math.ceil(n / 2))
      .toString("hex")
      .slice(0, n);

  // Each case builds the Authorization header (undefined: none) from the world's real `*` key and a second key.
  type Case = [string, (real: string, other: string) => string | undefined, "auth.key_missing" | "auth.key_invalid"];
  const cases: Case[] = [
    ["no Authorization header", () => undefined, "auth.key_missing"],
    ["Basic scheme", (real) => `Basic ${Buffer.from(`${real}:`).toString("base64")}`, "auth.key_invalid"],
    ["Token scheme with the real key", (real) => `Token ${real}`, "auth.key_invalid"],
    ["the real key without a scheme", (real) => real, "auth.key_invalid"],
    ["Bearer without a token", () => "Bearer", "auth.key_invalid"],
    ["Bearer with garbage", () => "Bearer garbage", "auth.key_invalid"],
    ["Bearer with a UUID", () => `Bearer ${randomUUID()}`, "auth.key_invalid"],
    ["Bearer with the real key and a second token", (real) => `Bearer ${real} extra`, "auth.key_invalid"],
    ["Bearer with the real key twice", (real) => `Bearer ${real}${real}`, "auth.key_invalid"],
    ["wrong prefix sk_", (real) => `Bearer sk_${real.slice(3)}`, "auth.key_invalid"],
    ["upper-case prefix AK_", (real) => `Bearer AK_${real.slice(3)}`, "auth.key_invalid"],
    ["no prefix", (real) => `Bearer ${real.slice(3)}`, "auth.key_invalid"],
    ["dash instead of underscore", (real) => `Bearer ak-${hexOf(real)}-${secretOf(real)}`, "auth.key_invalid"],
    ["key id of 31 hex digits", (real) => `Bearer ak_${hexOf(real).slice(1)}_${secretOf(real)}`, "auth.key_invalid"],
    ["key id of 33 hex digits", (real) => `Bearer ak_${hexOf(real)}0_${secretOf(real)}`, "auth.key_invalid"],
    ["key id in upper case", (real) => `Bearer ak_${hexOf(real).toUpperCase()}_${secretOf(real)}`, "auth.key_invalid"],
    ["key id with a non-hex digit", (real) => `Bearer ak_g${hexOf(real).slice(1)}_${secretOf(real)}`, "auth.key_invalid"],
    ["key id as a dashed UUID", (real) => `Bearer ak_${randomUUID()}_${secretOf(real)}`, "auth.key_invalid"],
    ["secret of 42 characters", (real) => `Bearer ${real.slice(0, -1)}`, "auth.key_invalid"],
    ["secret of 44 characters", (real) => `Bearer ${real}A`, "auth.key_invalid"],
    ["secret with a character outside base64url", (real) => `Bearer ${real.slice(0, -1)}+`, "auth.key_invalid"],
    ["no secret", (real) => `Bearer ak_${hexOf(real)}_`, "auth.key_invalid"],
    ["only the listed prefix of the key", (real) => `Bearer ${real.slice(0, 11)}`, "auth.key_invalid"],
    ["well-formed key with an unknown id", () => `Bearer ak_${hex(32)}_${randomSecret()}`, "auth.key_invalid"],
    ["well-formed key with an unknown id and a real secret", (real) => `Bearer ak_${hex(32)}_${secretOf(real)}`, "auth.key_invalid"],
    ["real key id with a wrong secret", (real) => `Bearer ak_${hexOf(real)}_${randomSecret()}`, "auth.key_invalid"],
    ["real key id with the secret of another real key", (real, other) => `Bearer ak_${hexOf(real)}_${secretOf(other)}`, "auth.key_invalid"],
    ["real key with one secret character changed", (real) => `Bearer ${real.slice(0, -1)}${real.endsWith("A") ? "B" : "A"}`, "auth.key_invalid"],
  ];

  test.each(cases)("%s: 401 unauthorized, nothing written", async (_name, header, key) => {
    const other = await keyWith(["*"]);
    const authorization = header(root.apiKey, other.key);
    const before = await snapshot();
    const res = await h.post(
      "/v1/partners/create",
      { name: "Niekas", code: uniq("UNAUTH") },
      { companyId: root.companyId, headers: authorization === undefined ? {} : { authorization } },
    );
    expectError(res, 401, "unauthorized", key);
    expect(res.body.error.params).toBeUndefined();
    expect(await snapshot()).toEqual(before);
  });

  test.each([
    ["Bearer <key>", (real: string) => `Bearer ${real}`],
    ["bearer <key> (the scheme is case-insensitive)", (real: string) => `bearer ${real}`],
  ])("control: %s is accepted and writes", async (_name, header) => {
    const code = uniq("AUTH");
    const res = await h.post("/v1/partners/create", { name: "Kažkas", code }, { companyId: root.companyId, headers: { authorization: header(root.apiKey) } });
    expect(res.status).toBe(200);
    expect(await h.db("partners").where({ company_id: root.companyId, code }).first("id")).toEqual({ id: res.body.id });
  });

  test.each(OPS.map((op) => [op.operationId, op] as const))("%s: no key gives 401 auth.key_missing before validation", async (_id, op) => {
    const res = await h.post(op.path, { notAField: true }, { companyId: op.companyScoped ? "not-a-uuid" : undefined });
    expectError(res, 401, "unauthorized", "auth.key_missing");
  });

  test.each(OPS.map((op) => [op.operationId, op] as const))(
    "%s: an unknown key gives 401 auth.key_invalid before the scope check and validation",
    async (_id, op) => {
      const res = await h.post(op.path, { notAField: true }, { key: `ak_${hex(32)}_${randomSecret()}` });
      expectError(res, 401, "unauthorized", "auth.key_invalid");
    },
  );

  test("a revoked key gets 401 while another key of the same account still works", async () => {
    const doomed = await createKey(["*"]);
    const sibling = await createKey(["partners:write"]);
    const before = await h.post("/v1/partners/get", { id: partnerId }, { key: doomed.key, companyId: root.companyId });
    expect(before.status).toBe(200);

    const revoked = await h.post("/v1/account/api-keys/revoke", { id: doomed.id }, { key: root.apiKey });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: doomed.id });
    expect(Date.parse(revoked.body.revokedAt)).not.toBeNaN();
    expect(revoked.body.key).toBeUndefined();
    const row = await h.db("api_keys").where({ id: doomed.id }).first("revoked_at");
    expect(row.revoked_at).toBeInstanceOf(Date);

    const snap = await snapshot();
    for (const [path, body] of [
      ["/v1/partners/get", { id: partnerId }],
      ["/v1/partners/create", { name: "Po atšaukimo", code: uniq("REV") }],
      ["/v1/account/api-keys/create", { name: "revived", scopes: ["*"] }],
    ] as const) {
      const res = await h.post(path, body, { key: doomed.key, companyId: path.startsWith("/v1/partners") ? root.companyId : undefined });
      expectError(res, 401, "unauthorized", "auth.key_invalid");
    }
    expect(await snapshot()).toEqual(snap);

    // Revoking it again returns it unchanged.
    const again = await h.post("/v1/account/api-keys/revoke", { id: doomed.id }, { key: root.apiKey });
    expect(again.status).toBe(200);
    expect(again.body.revokedAt).toBe(revoked.body.revokedAt);

    // The other keys of the account are untouched.
    const ok = await h.post("/v1/partners/get", { id: partnerId }, { key: sibling.key, companyId: root.companyId });
    expect(ok.status).toBe(200);
    expect(ok.body.id).toBe(partnerId);
    expect((await h.post("/v1/account/companies/list", {}, { key: root.apiKey })).status).toBe(200);
    expect((await h.db("api_keys").where({ id: sibling.id }).first("revoked_at")).revoked_at).toBeNull();

    const listed = await h.post("/v1/account/api-keys/list", { filter: [{ field: "id", op: "eq", value: doomed.id }] }, { key: root.apiKey });
    expect(listed.body.rows).toEqual([expect.objectContaining({ id: doomed.id, revokedAt: revoked.body.revokedAt })]);
  });
});

// ---------------------------------------------------------------------------------------------------------
// 403 per scope
// ---------------------------------------------------------------------------------------------------------

describe("403 forbidden per scope", () => {
  test("the contract has operations of at least two modules, with reads and writes", () => {
    expect(OPS.length).toBeGreaterThanOrEqual(9);
    expect(MODULES.length).toBeGreaterThanOrEqual(2);
    expect(OPS.some((o) => o.access === "read") && OPS.some((o) => o.access === "write")).toBe(true);
    for (const op of OPS) expect(`${op.operationId} ${op.scope}`).toMatch(/ [a-z]+:(read|write)$/);
  });

  const unrelated = OPS.flatMap((op) => unrelatedScopes(op).map((scope) => [op.operationId, scope, op] as const));
  test.each(unrelated)("%s with only %s: 403 auth.scope_missing naming the scope, nothing written", async (_id, scope, op) => {
    await expectScopeRefused(op, await keyWith([scope]), scope);
  });

  test.each(OPS.map((op) => [op.operationId, op.scope, op] as const))("%s with exactly %s: passes the scope check", async (_id, scope, op) => {
    await expectPassesScopeCheck(op, await keyWith([scope]), scope);
  });

  const reads = OPS.filter((op) => op.access === "read");
  test.each(reads.map((op) => [op.operationId, `${op.module}:write`, op] as const))("%s with %s (write grants read): passes", async (_id, scope, op) => {
    await expectPassesScopeCheck(op, await keyWith([scope]), scope);
  });

  const writes = OPS.filter((op) => op.access === "write");
  test.each(writes.map((op) => [op.operationId, `${op.module}:read`, op] as const))(
    "%s with only %s (read does not grant write): 403",
    async (_id, scope, op) => {
      await expectScopeRefused(op, await keyWith([scope]), scope);
    },
  );

  test.each(OPS.map((op) => [op.operationId, op] as const))("%s with the scopes of every other module and every read: 403", async (_id, op) => {
    const others = MODULES.filter((m) => m !== op.module).map((m) => `${m}:write`);
    const held = op.access === "write" ? [...others, `${op.module}:read`] : others;
    await expectScopeRefused(op, await keyWith(held), held[0]);
  });

  test("the scope check comes before body validation and company resolution", async () => {
    const key = await keyWith([`${IDLE_MODULE}:write`]);
    for (const op of OPS) {
      const res = await h.post(op.path, { notAField: true }, { key: key.key, companyId: op.companyScoped ? randomUUID() : undefined });
      expectError(res, 403, "forbidden", "auth.scope_missing");
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
// Creating keys
// ---------------------------------------------------------------------------------------------------------

describe("api-keys/create: a key cannot grant scopes it does not hold", () => {
  type Case = [string[], Scope[], 200 | 403];
  const cases: Case[] = [
    [["account:write", "partners:read"], ["partners:write"], 403],
    [["account:write", "partners:read"], ["*"], 403],
    [["account:write", "partners:read"], ["partners:read", "ledger:read"], 403],
    [["account:write"], ["partners:read"], 403],
    [["account:write"], ["account:read", "partners:read"], 403],
    [["account:write", "partners:write"], ["*"], 403],
    [["account:write", "partners:read"], ["partners:read"], 200],
    [["account:write", "partners:write"], ["partners:read"], 200],
    [["account:write", "partners:write"], ["partners:write", "partners:read"], 200],
    [["account:write"], ["account:read", "account:write"], 200],
    [["*"], ["*"], 200],
    [["*"], ["ledger:write", "sales:read"], 200],
  ];
  test.each(cases)("a key with %j asking for %j: %d", async (held, wanted, status) => {
    const caller = await keyWith(held);
    const before = await snapshot();
    const name = uniq("esc");
    const create = h.sdk(caller.key).account.apiKeys.create({ name, scopes: wanted });
    if (status === 403) {
      const error = await expectApiError(create, 403, "forbidden", "api_key.scope_escalation");
      expect(error.params).toEqual({ scopes: wanted });
      expect(await snapshot()).toEqual(before);
    } else {
      const created = await create;
      expect(created).toMatchObject({ name, scopes: wanted, companyIds: null, revokedAt: null });
      expect(await h.db("api_keys").where({ id: created.id }).first("account_id", "scopes")).toEqual({ account_id: root.accountId, scopes: wanted });
    }
  });
});

describe("api-keys/create: the key is returned once", () => {
  const FIELDS = ["companyIds", "createdAt", "id", "name", "prefix", "revokedAt", "scopes"];

  test("the response carries the key, usable at once; only a hash of its secret is stored; list never shows it", async () => {
    const rootApi = h.sdk(root.apiKey);
    const created = await rootApi.account.apiKeys.create({ name: "Once", scopes: ["partners:read"] });
    expect(Object.keys(created).sort()).toEqual([...FIELDS, "key"].sort());
    expect(created.key).toMatch(KEY_SHAPE);
    expect(created.key.slice(3, 35)).toBe(created.id.replace(/-/g, ""));
    expect(created.key.startsWith(created.prefix)).toBe(true);
    expect(created.prefix.length).toBeLessThan(20);
    expect(created).toMatchObject({ name: "Once", scopes: ["partners:read"], companyIds: null, revokedAt: null });

    const secret = created.key.slice(36);
    const row = await h.db("api_keys").where({ id: created.id }).first();
    const sha = createHash("sha256").update(secret).digest();
    expect(Buffer.compare(row.secret_hash, sha)).toBe(0);
    expect(JSON.stringify(row)).not.toContain(secret);

    expect((await h.sdk(created.key, root.companyId).partners.get({ id: partnerId })).id).toBe(partnerId);

    const listed = await rootApi.account.apiKeys.list({ pageSize: 500 });
    const mine = listed.rows.find((r) => r.id === created.id);
    expect(mine).toEqual({
      id: created.id,
      name: "Once",
      scopes: ["partners:read"],
      companyIds: null,
      prefix: created.prefix,
      createdAt: created.createdAt,
      revokedAt: null,
    });
    const text = JSON.stringify(listed);
    for (const r of listed.rows) expect(Object.keys(r).sort()).toEqual(FIELDS);
    expect(text).not.toContain(secret);
    expect(text).not.toContain(created.key);
    expect(text).not.toContain(sha.toString("hex"));
    expect(text).not.toContain(sha.toString("base64"));
    expect(text).not.toContain(sha.toString("base64url"));
    expect(text.toLowerCase()).not.toMatch(/hash|secret/);

    // Revoke does not show it again either.
    const revoked = await rootApi.account.apiKeys.revoke({ id: created.id });
    expect(Object.keys(revoked).sort()).toEqual(FIELDS);
    expect(JSON.stringify(revoked)).not.toContain(secret);
    expect((await h.db("api_keys").where({ id: created.id }).first("revoked_at")).revoked_at?.toISOString()).toBe(revoked.revokedAt);
  });

  test("two created keys differ in id and secret", async () => {
    const a = await createKey(["partners:read"]);
    const b = await createKey(["partners:read"]);
    expect(a.id).not.toBe(b.id);
    expect(a.key.slice(36)).not.toBe(b.key.slice(36));
  });
});

describe("api-keys/create and companies: a key restricted to companies", () => {
  type Case = [string, () => string[] | undefined, 200 | 403];
  const cases: Case[] = [
    ["an unrestricted key", () => undefined, 403],
    ["a key for company B", () => [companyB], 403],
    ["a key for companies A and B", () => [root.companyId, companyB], 403],
    ["a key for an unknown company", () => [randomUUID()], 403],
    ["a key for company A", () => [root.companyId], 200],
  ];
  test.each(cases)("a `*` key restricted to A creating %s: %d", async (_name, companyIds, status) => {
    const restricted = await keyWith(["*"], [root.companyId]);
    const before = await snapshot();
    const wanted = companyIds();
    const create = h.sdk(restricted.key).account.apiKeys.create({ name: uniq("sub"), scopes: ["partners:read"], ...(wanted ? { companyIds: wanted } : {}) });
    if (status === 403) {
      await expectApiError(create, 403, "forbidden", "api_key.company_escalation");
      expect(await snapshot()).toEqual(before);
    } else {
      const created = await create;
      expect(created.companyIds).toEqual([root.companyId]);
      expect((await h.db("api_keys").where({ id: created.id }).first("company_ids")).company_ids).toEqual([root.companyId]);
    }
  });

  test("a restricted key cannot create companies (403), nothing written", async () => {
    const restricted = await keyWith(["*"], [root.companyId]);
    const before = await snapshot();
    await expectApiError(
      h.sdk(restricted.key).account.companies.create({ name: "Trečia UAB", code: ltCompanyCode(), countryCode: "LT" }),
      403,
      "forbidden",
      "company.create_restricted_key",
    );
    expect(await snapshot()).toEqual(before);
  });

  test("a key restricted to exactly one company may omit X-Company-Id: partners/create and get act on that company", async () => {
    const restricted = await keyWith(["partners:write"], [root.companyId]);
    const code = uniq("ONE");
    const api = h.sdk(restricted.key);
    const created = await api.partners.create({ name: "Be antraštės", code });
    expect(await h.db("partners").where({ code }).select("company_id", "id")).toEqual([{ company_id: root.companyId, id: created.id }]);

    expect(await api.partners.get({ code })).toEqual(created);

    // Naming its own company explicitly works too.
    expect((await api.partners.get({ code }, { companyId: root.companyId })).id).toBe(created.id);
  });

  test("a key restricted to two companies must send X-Company-Id (400), and then acts on the one named", async () => {
    const two = await keyWith(["partners:write"], [root.companyId, companyB]);
    const before = await snapshot();
    const code = uniq("TWO");
    const api = h.sdk(two.key);
    for (const call of [api.partners.create({ name: "Dvi įmonės", code }), api.partners.get({ code })]) {
      const error = await expectApiError(call, 400, "validation", "request.invalid");
      expect(Object.keys(error.fieldErrors ?? {})).toEqual(["X-Company-Id"]);
      expect(error.fieldErrors?.["X-Company-Id"]?.length).toBeGreaterThan(0);
    }
    expect(await snapshot()).toEqual(before);

    const created = await api.partners.create({ name: "Dvi įmonės", code }, { companyId: companyB });
    expect(await h.db("partners").where({ code }).select("company_id", "id")).toEqual([{ company_id: companyB, id: created.id }]);
  });

  test("an unrestricted key must send X-Company-Id on a company-scoped operation (400)", async () => {
    const before = await snapshot();
    // Operations with a known valid body only: an invalid body is reported before the company is resolved.
    const known = OPS.filter((o) => o.companyScoped && VALID_CALLS[o.operationId]);
    expect(known.length).toBeGreaterThanOrEqual(2);
    for (const op of known) {
      const call = await callOf(op, op.scope);
      const res = await h.post(op.path, call.body, { key: root.apiKey });
      expectError(res, 400, "validation", "request.invalid");
      expect(Object.keys(res.body.error.fieldErrors)).toEqual(["X-Company-Id"]);
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe("malformed X-Company-Id", () => {
  const values = [
    "not-a-uuid",
    "123",
    "00000000000000000000000000000000",
    "0b6c1b5e-3c57-4f4e-9d5a-1c2b3d4e5f6",
    "0b6c1b5e-3c57-4f4e-9d5a-1c2b3d4e5f6a0",
    "{0b6c1b5e-3c57-4f4e-9d5a-1c2b3d4e5f6a}",
  ];
  const cases = OPS.filter((o) => o.companyScoped).flatMap((op) => values.map((v) => [op.operationId, v, op] as const));
  test.each(cases)("%s with X-Company-Id %j: 400 naming X-Company-Id, nothing written", async (_id, value, op) => {
    const call = await callOf(op, op.scope);
    const before = await snapshot();
    const res = await h.post(op.path, call.body, { key: root.apiKey, companyId: value });
    expectError(res, 400, "validation", "request.invalid");
    expect(res.body.error.fieldErrors["X-Company-Id"]?.length).toBeGreaterThan(0);
    // With a valid body (operations this file knows), the header is the only offending field.
    if (VALID_CALLS[op.operationId]) expect(Object.keys(res.body.error.fieldErrors)).toEqual(["X-Company-Id"]);
    expect(await snapshot()).toEqual(before);
  });

  test("also for a key restricted to one company (the header is checked, not ignored)", async () => {
    const restricted = await keyWith(["partners:write"], [root.companyId]);
    const res = await h.post("/v1/partners/create", { name: "Bloga antraštė", code: uniq("BAD") }, { key: restricted.key, companyId: "not-a-uuid" });
    expectError(res, 400, "validation", "request.invalid");
    expect(Object.keys(res.body.error.fieldErrors)).toEqual(["X-Company-Id"]);
  });
});
