// account/api-keys/{create,list,revoke}: the secret is shown once and stored only as a SHA-256 hash; a new key
// works at once; revocation is immediate and idempotent; the request's scopes are checked. Every call goes through
// the SDK; a body the contract forbids only through invalid().
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { startHarness, type Harness } from "../support/harness.js";
import { expectApiError, invalid } from "../support/expect.js";
import { UUID, ISO_INSTANT as ISO } from "../support/patterns.js";
import { sleep } from "../support/timing.js";
import type { RequestBody, ResponseData } from "../../sdk/typescript/src/index.js";

type CreateBody = RequestBody<"account_api_keys_create">;
type CreatedKey = ResponseData<"account_api_keys_create">;

let h: Harness;
let key: string;
let accountId: string;
let companyId: string;

beforeAll(async () => {
  h = await startHarness();
  ({ apiKey: key, accountId, companyId } = await h.tenant());
});
afterAll(() => h.close());

const NO_SUCH_ID = "00000000-0000-4000-8000-000000000000";

/** The account-level SDK client of a key (no company). */
const as = (apiKey = key) => h.sdk(apiKey);

const createKey = (body: CreateBody, apiKey = key): Promise<CreatedKey> => as(apiKey).account.apiKeys.create(body);

/** How many keys the account has stored. */
const keyCount = async (account: string) => Number((await h.db("api_keys").where({ account_id: account }).count<{ count: string }[]>("* as count"))[0].count);

/** Every text form of every column of the key's row, to search for the secret. */
async function rowTexts(id: string): Promise<string[]> {
  const row = await h.db("api_keys").where({ id }).first();
  return Object.values(row).flatMap((v) => {
    if (Buffer.isBuffer(v)) return [v.toString("hex"), v.toString("base64"), v.toString("base64url"), v.toString("latin1")];
    return [JSON.stringify(v) ?? "", String(v)];
  });
}

describe("create", () => {
  test("returns {id, name, scopes, key, companyIds, prefix, createdAt, revokedAt: null}", async () => {
    const created = await createKey({ name: "Integracija", scopes: ["partners:read", "sales:write"] });
    expect(created).toEqual({
      id: expect.stringMatching(UUID),
      name: "Integracija",
      scopes: ["partners:read", "sales:write"],
      key: expect.any(String),
      companyIds: null,
      prefix: expect.any(String),
      createdAt: expect.stringMatching(ISO),
      revokedAt: null,
    });
    expect(created.key.startsWith(created.prefix)).toBe(true);
    expect(created.prefix.length).toBeLessThan(created.key.length);
    expect(created.key.length).toBeGreaterThanOrEqual(40);
    expect(await h.db("api_keys").where({ id: created.id }).first()).toMatchObject({
      account_id: accountId,
      name: "Integracija",
      scopes: ["partners:read", "sales:write"],
      company_ids: null,
      prefix: created.prefix,
      revoked_at: null,
    });
  });

  test("the key works immediately, with exactly its scopes", async () => {
    const created = await createKey({ name: "Partneriai", scopes: ["partners:write"] });
    const api = h.sdk(created.key, companyId);
    const made = await api.partners.create({ name: "Naujas", code: "NEWKEY-1" });
    expect(made.code).toBe("NEWKEY-1");
    expect(await h.db("partners").where({ id: made.id }).first()).toMatchObject({ company_id: companyId, code: "NEWKEY-1" });
    // partners:write grants partners:read, and nothing of another module.
    expect(await api.partners.get({ code: "NEWKEY-1" })).toMatchObject({ id: made.id });
    await expectApiError(as(created.key).account.companies.list(), 403, "forbidden");
  });

  test("a key restricted to a company reaches that company without X-Company-Id and may not create companies", async () => {
    const created = await createKey({ name: "Vienai įmonei", scopes: ["*"], companyIds: [companyId] });
    expect(created.companyIds).toEqual([companyId]);
    const made = await as(created.key).partners.create({ name: "Be antraštės", code: "RESTRICTED-1" });
    expect((await h.db("partners").where({ id: made.id }).first()).company_id).toBe(companyId);
    await expectApiError(as(created.key).account.companies.create({ name: "X", code: "RESTR-CO", countryCode: "LT" }), 403, "forbidden");
    expect(await h.db("companies").where({ code: "RESTR-CO" })).toHaveLength(0);
  });

  test("only a SHA-256 hash of the secret is stored; the key appears in no column", async () => {
    const created = await createKey({ name: "Hash check", scopes: ["account:read"] });
    const row = await h.db("api_keys").where({ id: created.id }).first();
    expect(Buffer.isBuffer(row.secret_hash)).toBe(true);
    expect(row.secret_hash).toHaveLength(32);
    // The key is ak_<id>_<secret>: the hash is of the secret, and neither it nor the whole key is stored.
    const secret = created.key.split("_").slice(2).join("_");
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(row.secret_hash.equals(createHash("sha256").update(secret).digest())).toBe(true);
    const texts = await rowTexts(created.id);
    for (const text of texts) {
      expect(text).not.toContain(created.key);
      expect(text).not.toContain(secret);
    }
    expect(row).toMatchObject({ account_id: accountId, name: "Hash check", scopes: ["account:read"], prefix: created.prefix, revoked_at: null });
  });

  test("two keys never share a secret", async () => {
    const [a, b] = [await createKey({ name: "A", scopes: ["*"] }), await createKey({ name: "B", scopes: ["*"] })];
    expect(a.key).not.toBe(b.key);
    expect(a.id).not.toBe(b.id);
  });

  test.each<{ name: string; body: Record<string, unknown>; fields: string[] }>([
    { name: "duplicate scopes", body: { name: "Dup", scopes: ["partners:read", "partners:read"] }, fields: ["scopes"] },
    { name: "duplicate `*`", body: { name: "Dup", scopes: ["*", "*"] }, fields: ["scopes"] },
    { name: "an unknown module (foo:read)", body: { name: "Bad", scopes: ["foo:read"] }, fields: ["scopes[0]"] },
    { name: "an unknown level (sales:admin)", body: { name: "Bad", scopes: ["partners:read", "sales:admin"] }, fields: ["scopes[1]"] },
    { name: "an upper-case scope", body: { name: "Bad", scopes: ["SALES:READ"] }, fields: ["scopes[0]"] },
    { name: "a scope with a wildcard level", body: { name: "Bad", scopes: ["sales:*"] }, fields: ["scopes[0]"] },
    { name: "no scopes", body: { name: "Bad", scopes: [] }, fields: ["scopes"] },
    { name: "31 scopes", body: { name: "Bad", scopes: Array.from({ length: 31 }, () => "sales:read") }, fields: ["scopes"] },
    { name: "an empty companyIds", body: { name: "Bad", scopes: ["*"], companyIds: [] }, fields: ["companyIds"] },
    { name: "a malformed company id", body: { name: "Bad", scopes: ["*"], companyIds: ["x"] }, fields: ["companyIds[0]"] },
    { name: "a missing name", body: { scopes: ["*"] }, fields: ["name"] },
    { name: "a key sent in the request", body: { name: "Bad", scopes: ["*"], key: "ak_mine" }, fields: ["key"] },
  ])("$name -> 400 naming $fields, and no key is stored", async ({ body, fields }) => {
    const before = await keyCount(accountId);
    const error = await expectApiError(as().account.apiKeys.create(invalid(body)), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {}).sort()).toEqual([...fields].sort());
    expect(await keyCount(accountId)).toBe(before);
  });

  test("a key cannot grant a scope it lacks -> 403", async () => {
    const limited = await createKey({ name: "Ribotas", scopes: ["account:write"] });
    await expectApiError(createKey({ name: "Eskalacija", scopes: ["*"] }, limited.key), 403, "forbidden", "api_key.scope_escalation");
    expect(await h.db("api_keys").where({ name: "Eskalacija" })).toHaveLength(0);
  });

  test("an unknown company in companyIds -> 404", async () => {
    await expectApiError(createKey({ name: "Nežinoma", scopes: ["*"], companyIds: [NO_SUCH_ID] }), 404, "not_found", "company.not_found");
    expect(await h.db("api_keys").where({ name: "Nežinoma" })).toHaveLength(0);
  });
});

describe("list", () => {
  let listKey: string;
  let listAccount: string;
  let first: CreatedKey;
  let second: CreatedKey;

  beforeAll(async () => {
    ({ apiKey: listKey, accountId: listAccount } = await h.bootstrap("Key list account"));
    first = await createKey({ name: "Pirmas raktas", scopes: ["ledger:read"] }, listKey);
    await new Promise((r) => setTimeout(r, 5));
    second = await createKey({ name: "Antras raktas", scopes: ["sales:write", "purchases:read"] }, listKey);
    expect((await as(listKey).account.apiKeys.revoke({ id: first.id })).revokedAt).toMatch(ISO);
  });

  test("lists the account's keys, newest first, without the secret or its hash", async () => {
    const listed = await as(listKey).account.apiKeys.list();
    expect(listed.total).toBe(3); // the bootstrap key and the two created here
    expect(listed.rows.map((r) => r.id).slice(0, 2)).toEqual([second.id, first.id]);
    const storedHashes = (await h.db("api_keys").where({ account_id: listAccount }).select("secret_hash")).map((r: { secret_hash: Buffer }) => r.secret_hash);
    const text = JSON.stringify(listed);
    for (const hash of storedHashes) {
      for (const form of [hash.toString("hex"), hash.toString("base64"), hash.toString("base64url")]) expect(text).not.toContain(form);
    }
    for (const secret of [first.key, second.key, listKey]) expect(text).not.toContain(secret.slice(12));
    for (const row of listed.rows) {
      expect(Object.keys(row).sort()).toEqual(["companyIds", "createdAt", "id", "name", "prefix", "revokedAt", "scopes"]);
    }
  });

  test("includes revoked keys with revokedAt, and active ones with revokedAt null", async () => {
    const listed = await as(listKey).account.apiKeys.list({ filter: [{ field: "id", op: "in", value: [first.id, second.id] }] });
    expect(listed.total).toBe(2);
    const byId = new Map(listed.rows.map((r) => [r.id, r]));
    const { key: _k1, ...firstListed } = first;
    const { key: _k2, ...secondListed } = second;
    expect(byId.get(second.id)).toEqual(secondListed);
    expect(byId.get(first.id)).toEqual({ ...firstListed, revokedAt: expect.stringMatching(ISO) });
  });

  test("another account's keys are not listed", async () => {
    const ids = (await as().account.apiKeys.list({ pageSize: 500 })).rows.map((r) => r.id);
    expect(ids).not.toContain(first.id);
    expect(ids).not.toContain(second.id);
    const rows = await h.db("api_keys").where({ account_id: accountId }).pluck("id");
    expect(ids.sort()).toEqual([...rows].sort());
  });

  test("can filter by name and sort by name", async () => {
    const listed = await as(listKey).account.apiKeys.list({ filter: [{ field: "name", op: "contains", value: "raktas" }], sort: [{ field: "name" }] });
    expect(listed.rows.map((r) => r.name)).toEqual(["Antras raktas", "Pirmas raktas"]);
    expect(listed.total).toBe(2);
  });
});

describe("revoke", () => {
  test("revokes at once: the key gets 401 on its next request", async () => {
    const created = await createKey({ name: "Atšaukiamas", scopes: ["*"] });
    expect((await as(created.key).account.companies.list()).rows.map((c) => c.id)).toContain(companyId);
    await sleep(20); // so that revokedAt is strictly after createdAt
    const revoked = await as().account.apiKeys.revoke({ id: created.id });
    const { key: _secret, ...listed } = created;
    expect(revoked).toEqual({ ...listed, revokedAt: expect.stringMatching(ISO) });
    expect("key" in revoked).toBe(false);
    expect(Date.parse(revoked.revokedAt ?? "")).toBeGreaterThan(Date.parse(created.createdAt));
    await expectApiError(as(created.key).account.companies.list(), 401, "unauthorized");
    const row = await h.db("api_keys").where({ id: created.id }).first();
    expect(row.revoked_at?.toISOString()).toBe(revoked.revokedAt);
  });

  test("revoking twice returns the same revokedAt", async () => {
    const created = await createKey({ name: "Dukart", scopes: ["*"] });
    const once = await as().account.apiKeys.revoke({ id: created.id });
    await sleep(20);
    const twice = await as().account.apiKeys.revoke({ id: created.id });
    expect(twice).toEqual(once);
    expect(twice.revokedAt).toMatch(ISO);
    expect((await h.db("api_keys").where({ id: created.id }).first()).revoked_at?.toISOString()).toBe(once.revokedAt);
  });

  test("an unknown id -> 404", async () => {
    await expectApiError(as().account.apiKeys.revoke({ id: NO_SUCH_ID }), 404, "not_found", "api_key.not_found");
  });

  test("another account's key -> 404, and it keeps working", async () => {
    const other = await h.bootstrap("Other");
    await expectApiError(as().account.apiKeys.revoke({ id: other.keyId }), 404, "not_found", "api_key.not_found");
    expect((await h.db("api_keys").where({ id: other.keyId }).first()).revoked_at).toBeNull();
    expect((await as(other.apiKey).account.companies.list()).total).toBe(0);
  });

  test("a key cannot revoke a key whose scopes it does not hold: 403, and the key keeps working", async () => {
    const star = await createKey({ name: "Visagalis", scopes: ["*"] });
    const accountWriter = await createKey({ name: "Paskyrų rašytojas", scopes: ["account:write"] });
    const partnersReader = await createKey({ name: "Partnerių skaitytojas", scopes: ["partners:read"] });
    for (const victim of [star, partnersReader]) {
      await expectApiError(as(accountWriter.key).account.apiKeys.revoke({ id: victim.id }), 403, "forbidden", "api_key.revoke_escalation");
      expect((await h.db("api_keys").where({ id: victim.id }).first("revoked_at")).revoked_at).toBeNull();
    }
    expect((await as(star.key).account.companies.list()).rows.map((c) => c.id)).toContain(companyId);
    // What it could have made, it may revoke.
    const reader = await createKey({ name: "Paskyrų skaitytojas", scopes: ["account:read"] });
    expect((await as(accountWriter.key).account.apiKeys.revoke({ id: reader.id })).revokedAt).toMatch(ISO);
    expect((await h.db("api_keys").where({ id: reader.id }).first("revoked_at")).revoked_at).not.toBeNull();
    await expectApiError(as(reader.key).account.apiKeys.list(), 401, "unauthorized");
  });

  test("a key can revoke itself; its next request is 401", async () => {
    const created = await createKey({ name: "Savižudis", scopes: ["account:write"] });
    const revoked = await as(created.key).account.apiKeys.revoke({ id: created.id });
    expect(revoked.revokedAt).toMatch(ISO);
    expect((await h.db("api_keys").where({ id: created.id }).first("revoked_at")).revoked_at?.toISOString()).toBe(revoked.revokedAt);
    await expectApiError(as(created.key).account.apiKeys.list(), 401, "unauthorized");
  });
});

describe("idempotent create", () => {
  test("a retry with the same API key replays the new key; the store keeps it only sealed; another key cannot replay it", async () => {
    const owner = await h.bootstrap();
    const body: CreateBody = { name: "CI key", scopes: ["partners:read"] };
    const create = (apiKey: string, b: CreateBody, idempotencyKey?: string) =>
      as(apiKey).account.apiKeys.create.withResponse(b, idempotencyKey === undefined ? {} : { idempotencyKey });
    const first = await create(owner.apiKey, body, "new-ci-key");
    expect(first.response.headers.get("x-idempotent-replay")).toBeNull();
    const replay = await create(owner.apiKey, body, "new-ci-key");
    expect(replay.response.headers.get("x-idempotent-replay")).toBe("true");
    expect(replay.data).toEqual(first.data);
    expect(await h.db("api_keys").where({ account_id: owner.accountId, name: "CI key" })).toHaveLength(1);

    const stored = await h.db("idempotency_keys").where({ account_id: owner.accountId, key: "new-ci-key" }).first();
    const text = JSON.stringify(stored.response_body);
    expect(Object.keys(stored.response_body)).toEqual(["sealed"]);
    expect(text).not.toContain(first.data.key.slice(36));
    expect(text).not.toContain(first.data.id);

    // Idempotency records belong to the key that made them: a second key of the same account sending the same
    // Idempotency-Key and body runs its own request — it never receives the first key's response (nor learns that
    // the Idempotency-Key was used) — and the first key's replay is unchanged.
    const second = (await create(owner.apiKey, { name: "second", scopes: ["*"] })).data;
    const other = await create(second.key, body, "new-ci-key");
    expect(other.response.headers.get("x-idempotent-replay")).toBeNull();
    expect(other.data.id).not.toBe(first.data.id);
    expect(other.data.key).not.toBe(first.data.key);
    expect((await h.db("api_keys").where({ account_id: owner.accountId, name: "CI key" }).pluck("id")).sort()).toEqual([first.data.id, other.data.id].sort());
    const again = await create(owner.apiKey, body, "new-ci-key");
    expect(again.response.headers.get("x-idempotent-replay")).toBe("true");
    expect(again.data).toEqual(first.data);
    expect((await h.db("idempotency_keys").where({ account_id: owner.accountId, key: "new-ci-key" }).pluck("key_id")).sort()).toEqual(
      [owner.keyId, second.id].sort(),
    );
  });
});
