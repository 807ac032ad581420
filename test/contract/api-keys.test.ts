// account/api-keys/{create,list,revoke}: the secret is shown once and stored only as a SHA-256 hash; a new key
// works at once; revocation is immediate and idempotent; the request's scopes are checked.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { startHarness, type Harness } from "../support/harness.js";
import { expectError } from "../support/expect.js";
import { UUID, ISO_INSTANT as ISO } from "../support/patterns.js";
import { sleep } from "../support/timing.js";

let h: Harness;
let key: string;
let accountId: string;
let companyId: string;

beforeAll(async () => {
  h = await startHarness();
  ({ apiKey: key, accountId, companyId } = await h.tenant());
});
afterAll(() => h.close());

const CREATE = "/v1/account/api-keys/create";
const LIST = "/v1/account/api-keys/list";
const REVOKE = "/v1/account/api-keys/revoke";
const NO_SUCH_ID = "00000000-0000-4000-8000-000000000000";

async function createKey(body: Record<string, unknown>, apiKey = key) {
  const res = await h.post(CREATE, body, { key: apiKey });
  if (res.status !== 200) throw new Error(`key create failed: ${JSON.stringify(res.body)}`);
  return res.body as {
    id: string;
    name: string;
    scopes: string[];
    key: string;
    companyIds: string[] | null;
    prefix: string;
    createdAt: string;
    revokedAt: null;
  };
}

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
    const res = await h.post(CREATE, { name: "Integracija", scopes: ["partners:read", "sales:write"] }, { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      name: "Integracija",
      scopes: ["partners:read", "sales:write"],
      key: expect.any(String),
      companyIds: null,
      prefix: expect.any(String),
      createdAt: expect.stringMatching(ISO),
      revokedAt: null,
    });
    expect(res.body.key.startsWith(res.body.prefix)).toBe(true);
    expect(res.body.prefix.length).toBeLessThan(res.body.key.length);
    expect(res.body.key.length).toBeGreaterThanOrEqual(40);
  });

  test("the key works immediately, with exactly its scopes", async () => {
    const created = await createKey({ name: "Partneriai", scopes: ["partners:write"] });
    const ok = await h.post("/v1/partners/create", { name: "Naujas", code: "NEWKEY-1" }, { key: created.key, companyId });
    expect(ok.status).toBe(200);
    expect(ok.body.code).toBe("NEWKEY-1");
    // partners:write grants partners:read, and nothing of another module.
    expect((await h.post("/v1/partners/get", { code: "NEWKEY-1" }, { key: created.key, companyId })).status).toBe(200);
    const denied = await h.post("/v1/account/companies/list", {}, { key: created.key });
    expectError(denied, 403, "forbidden");
  });

  test("a key restricted to a company reaches that company without X-Company-Id and may not create companies", async () => {
    const created = await createKey({ name: "Vienai įmonei", scopes: ["*"], companyIds: [companyId] });
    expect(created.companyIds).toEqual([companyId]);
    const res = await h.post("/v1/partners/create", { name: "Be antraštės", code: "RESTRICTED-1" }, { key: created.key });
    expect(res.status).toBe(200);
    expect((await h.db("partners").where({ id: res.body.id }).first()).company_id).toBe(companyId);
    expectError(await h.post("/v1/account/companies/create", { name: "X", code: "RESTR-CO", countryCode: "LT" }, { key: created.key }), 403, "forbidden");
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
    const before = Number((await h.db("api_keys").where({ account_id: accountId }).count<{ count: string }[]>("* as count"))[0].count);
    const res = await h.post(CREATE, body, { key });
    expectError(res, 400, "validation");
    expect(Object.keys(res.body.error.fieldErrors).sort()).toEqual([...fields].sort());
    const after = Number((await h.db("api_keys").where({ account_id: accountId }).count<{ count: string }[]>("* as count"))[0].count);
    expect(after).toBe(before);
  });

  test("a key cannot grant a scope it lacks -> 403", async () => {
    const limited = await createKey({ name: "Ribotas", scopes: ["account:write"] });
    const res = await h.post(CREATE, { name: "Eskalacija", scopes: ["*"] }, { key: limited.key });
    expectError(res, 403, "forbidden");
    expect(await h.db("api_keys").where({ name: "Eskalacija" })).toHaveLength(0);
  });

  test("an unknown company in companyIds -> 404", async () => {
    const res = await h.post(CREATE, { name: "Nežinoma", scopes: ["*"], companyIds: [NO_SUCH_ID] }, { key });
    expectError(res, 404, "not_found");
    expect(await h.db("api_keys").where({ name: "Nežinoma" })).toHaveLength(0);
  });
});

describe("list", () => {
  let listKey: string;
  let listAccount: string;
  let first: Awaited<ReturnType<typeof createKey>>;
  let second: Awaited<ReturnType<typeof createKey>>;

  beforeAll(async () => {
    ({ apiKey: listKey, accountId: listAccount } = await h.bootstrap("Key list account"));
    first = await createKey({ name: "Pirmas raktas", scopes: ["ledger:read"] }, listKey);
    await new Promise((r) => setTimeout(r, 5));
    second = await createKey({ name: "Antras raktas", scopes: ["sales:write", "purchases:read"] }, listKey);
    const revoked = await h.post(REVOKE, { id: first.id }, { key: listKey });
    expect(revoked.status).toBe(200);
  });

  test("lists the account's keys, newest first, without the secret or its hash", async () => {
    const res = await h.post(LIST, {}, { key: listKey });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(3); // the bootstrap key and the two created here
    expect(res.body.rows.map((r: { id: string }) => r.id).slice(0, 2)).toEqual([second.id, first.id]);
    const storedHashes = (await h.db("api_keys").where({ account_id: listAccount }).select("secret_hash")).map((r: { secret_hash: Buffer }) => r.secret_hash);
    const text = JSON.stringify(res.body);
    for (const hash of storedHashes) {
      for (const form of [hash.toString("hex"), hash.toString("base64"), hash.toString("base64url")]) expect(text).not.toContain(form);
    }
    for (const secret of [first.key, second.key, listKey]) expect(text).not.toContain(secret.slice(12));
    for (const row of res.body.rows) {
      expect(Object.keys(row).sort()).toEqual(["companyIds", "createdAt", "id", "name", "prefix", "revokedAt", "scopes"]);
    }
  });

  test("includes revoked keys with revokedAt, and active ones with revokedAt null", async () => {
    const res = await h.post(LIST, { filter: [{ field: "id", op: "in", value: [first.id, second.id] }] }, { key: listKey });
    const byId = new Map(res.body.rows.map((r: { id: string }) => [r.id, r]));
    const { key: _k1, ...firstListed } = first;
    const { key: _k2, ...secondListed } = second;
    expect(byId.get(second.id)).toEqual(secondListed);
    expect(byId.get(first.id)).toEqual({ ...firstListed, revokedAt: expect.stringMatching(ISO) });
  });

  test("another account's keys are not listed", async () => {
    const res = await h.post(LIST, { pageSize: 500 }, { key });
    const ids = res.body.rows.map((r: { id: string }) => r.id);
    expect(ids).not.toContain(first.id);
    expect(ids).not.toContain(second.id);
    const rows = await h.db("api_keys").where({ account_id: accountId }).pluck("id");
    expect(ids.sort()).toEqual([...rows].sort());
  });

  test("can filter by name and sort by name", async () => {
    const res = await h.post(LIST, { filter: [{ field: "name", op: "contains", value: "raktas" }], sort: [{ field: "name" }] }, { key: listKey });
    expect(res.body.rows.map((r: { name: string }) => r.name)).toEqual(["Antras raktas", "Pirmas raktas"]);
    expect(res.body.total).toBe(2);
  });
});

describe("revoke", () => {
  test("revokes at once: the key gets 401 on its next request", async () => {
    const created = await createKey({ name: "Atšaukiamas", scopes: ["*"] });
    expect((await h.post("/v1/account/companies/list", {}, { key: created.key })).status).toBe(200);
    await sleep(20); // so that revokedAt is strictly after createdAt
    const res = await h.post(REVOKE, { id: created.id }, { key });
    expect(res.status).toBe(200);
    const { key: _secret, ...listed } = created;
    expect(res.body).toEqual({ ...listed, revokedAt: expect.stringMatching(ISO) });
    expect(res.body.key).toBeUndefined();
    expect(Date.parse(res.body.revokedAt)).toBeGreaterThan(Date.parse(created.createdAt));
    expectError(await h.post("/v1/account/companies/list", {}, { key: created.key }), 401, "unauthorized");
    expect((await h.db("api_keys").where({ id: created.id }).first()).revoked_at).not.toBeNull();
  });

  test("revoking twice returns the same revokedAt", async () => {
    const created = await createKey({ name: "Dukart", scopes: ["*"] });
    const once = await h.post(REVOKE, { id: created.id }, { key });
    await new Promise((r) => setTimeout(r, 20));
    const twice = await h.post(REVOKE, { id: created.id }, { key });
    expect(once.status).toBe(200);
    expect(twice.status).toBe(200);
    expect(twice.body).toEqual(once.body);
    expect(twice.body.revokedAt).not.toBeNull();
  });

  test("an unknown id -> 404", async () => {
    const res = await h.post(REVOKE, { id: NO_SUCH_ID }, { key });
    expectError(res, 404, "not_found");
    expect(res.body.error.key).toBe("api_key.not_found");
  });

  test("another account's key -> 404, and it keeps working", async () => {
    const other = await h.bootstrap("Other");
    const res = await h.post(REVOKE, { id: other.keyId }, { key });
    expectError(res, 404, "not_found");
    expect((await h.post("/v1/account/companies/list", {}, { key: other.apiKey })).status).toBe(200);
  });

  test("a key cannot revoke a key whose scopes it does not hold: 403, and the key keeps working", async () => {
    const star = await createKey({ name: "Visagalis", scopes: ["*"] });
    const accountWriter = await createKey({ name: "Paskyrų rašytojas", scopes: ["account:write"] });
    const partnersReader = await createKey({ name: "Partnerių skaitytojas", scopes: ["partners:read"] });
    for (const victim of [star, partnersReader]) {
      const res = await h.post(REVOKE, { id: victim.id }, { key: accountWriter.key });
      expectError(res, 403, "forbidden", "api_key.revoke_escalation");
      expect((await h.db("api_keys").where({ id: victim.id }).first("revoked_at")).revoked_at).toBeNull();
    }
    expect((await h.post("/v1/account/companies/list", {}, { key: star.key })).status).toBe(200);
    // What it could have made, it may revoke.
    const reader = await createKey({ name: "Paskyrų skaitytojas", scopes: ["account:read"] });
    expect((await h.post(REVOKE, { id: reader.id }, { key: accountWriter.key })).status).toBe(200);
    expectError(await h.post(LIST, {}, { key: reader.key }), 401, "unauthorized");
  });

  test("a key can revoke itself; its next request is 401", async () => {
    const created = await createKey({ name: "Savižudis", scopes: ["account:write"] });
    const res = await h.post(REVOKE, { id: created.id }, { key: created.key });
    expect(res.status).toBe(200);
    expect(res.body.revokedAt).toMatch(ISO);
    expectError(await h.post(LIST, {}, { key: created.key }), 401, "unauthorized");
  });
});

describe("idempotent create", () => {
  test("a retry with the same API key replays the new key; the store keeps it only sealed; another key cannot replay it", async () => {
    const owner = await h.bootstrap();
    const body = { name: "CI key", scopes: ["partners:read"] };
    const first = await h.post("/v1/account/api-keys/create", body, { key: owner.apiKey, idempotencyKey: "new-ci-key" });
    expect(first.status).toBe(200);
    const replay = await h.post("/v1/account/api-keys/create", body, { key: owner.apiKey, idempotencyKey: "new-ci-key" });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("x-idempotent-replay")).toBe("true");
    expect(replay.body).toEqual(first.body);
    expect(await h.db("api_keys").where({ account_id: owner.accountId, name: "CI key" })).toHaveLength(1);

    const stored = await h.db("idempotency_keys").where({ account_id: owner.accountId, key: "new-ci-key" }).first();
    const text = JSON.stringify(stored.response_body);
    expect(Object.keys(stored.response_body)).toEqual(["sealed"]);
    expect(text).not.toContain(first.body.key.slice(36));
    expect(text).not.toContain(first.body.id);

    // Idempotency records belong to the key that made them: a second key of the same account sending the same
    // Idempotency-Key and body runs its own request — it never receives the first key's response (nor learns that
    // the Idempotency-Key was used) — and the first key's replay is unchanged.
    const second = await h.post("/v1/account/api-keys/create", { name: "second", scopes: ["*"] }, { key: owner.apiKey });
    const other = await h.post("/v1/account/api-keys/create", body, { key: second.body.key, idempotencyKey: "new-ci-key" });
    expect(other.status).toBe(200);
    expect(other.headers.get("x-idempotent-replay")).toBeNull();
    expect(other.body.id).not.toBe(first.body.id);
    expect(other.body.key).not.toBe(first.body.key);
    expect((await h.db("api_keys").where({ account_id: owner.accountId, name: "CI key" }).pluck("id")).sort()).toEqual([first.body.id, other.body.id].sort());
    const again = await h.post("/v1/account/api-keys/create", body, { key: owner.apiKey, idempotencyKey: "new-ci-key" });
    expect(again.body).toEqual(first.body);
    expect(await h.db("idempotency_keys").where({ account_id: owner.accountId, key: "new-ci-key" }).pluck("key_id")).toEqual(
      expect.arrayContaining([owner.keyId, second.body.id]),
    );
  });
});
