import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import { ApiKeyRecord } from "../db/models.js";
import { forbidden, notFound } from "../shared/errors.js";
import { generateKey } from "../auth/keys.js";
import { companyNotFound, type Principal } from "../auth/principal.js";
import { grantsAll } from "../auth/scopes.js";
import { runList, type ListRequest, type ListSpec } from "../shared/list-engine.js";

type ApiKey = components["schemas"]["Account.ApiKey"];
type ApiKeyCreated = components["schemas"]["Account.ApiKeyCreated"];
type CreateInput = components["schemas"]["Account.ApiKeyCreateRequest"];

export function apiKeyToApi(k: ApiKeyRecord): ApiKey {
  return {
    id: k.id,
    name: k.name,
    scopes: k.scopes,
    companyIds: k.companyIds,
    prefix: k.prefix,
    createdAt: new Date(k.createdAt).toISOString(),
    revokedAt: k.revokedAt ? new Date(k.revokedAt).toISOString() : null,
  };
}

/** Inserts a key for an account; used by `account/api-keys/create` and by the operator CLI's bootstrap. */
export async function insertApiKey(trx: Db, accountId: string, name: string, scopes: string[], companyIds: string[] | null): Promise<ApiKeyCreated> {
  const generated = generateKey();
  const record = await ApiKeyRecord.query(trx)
    .insert({
      id: generated.id,
      accountId,
      name,
      prefix: generated.prefix,
      secretHash: generated.secretHash,
      scopes,
      companyIds,
    })
    .returning("*");
  return { ...apiKeyToApi(record), key: generated.key };
}

export async function createApiKey(trx: Db, principal: Principal, input: CreateInput): Promise<ApiKeyCreated> {
  if (!grantsAll(principal.scopes, input.scopes)) {
    throw forbidden("A key can only grant scopes it holds itself.", "api_key.scope_escalation", { scopes: input.scopes });
  }
  const companyIds = input.companyIds ? [...new Set(input.companyIds.map((id) => id.toLowerCase()))] : null;
  if (principal.companyIds && (!companyIds || companyIds.some((id) => !principal.companyIds!.includes(id)))) {
    throw forbidden("A key restricted to some companies can only create keys restricted to those companies.", "api_key.company_escalation");
  }
  if (companyIds) {
    const found = await trx("companies").where("account_id", principal.accountId).whereIn("id", companyIds).pluck("id");
    const missing = companyIds.find((id) => !found.includes(id));
    if (missing) throw companyNotFound(missing);
  }
  return insertApiKey(trx, principal.accountId, input.name, input.scopes, companyIds);
}

/** Keys the caller may see: all of the account's for an unrestricted key, else those within its companies. */
function visibleKeys(db: Db, principal: Principal) {
  const q = db("api_keys").where("account_id", principal.accountId);
  if (principal.companyIds) q.whereNotNull("company_ids").whereRaw("company_ids <@ ?::uuid[]", [principal.companyIds]);
  return q;
}

export async function revokeApiKey(trx: Db, principal: Principal, id: string): Promise<ApiKey> {
  const row = await visibleKeys(trx, principal).andWhere("id", id).forUpdate().first();
  if (!row) throw notFound("The API key", "api_key.not_found", { id });
  const record = ApiKeyRecord.fromDatabaseJson(row);
  // Revoking follows the rule of creating: a key may only revoke a key it could have made (issue 7, defect 9).
  // Company restrictions are already covered: a restricted key sees only keys within its companies.
  if (!grantsAll(principal.scopes, record.scopes)) {
    throw forbidden("A key can only revoke keys whose scopes it holds itself.", "api_key.revoke_escalation", { id, scopes: record.scopes });
  }
  if (record.revokedAt) return apiKeyToApi(record);
  // Waits for the writes of this key already in flight (api_key_write_guard): once this commits, none commits after.
  await trx.raw("select pg_advisory_xact_lock(7303, hashtext(?))", [id]);
  return apiKeyToApi((await ApiKeyRecord.query(trx).patch({ revokedAt: new Date() }).where("id", id).returning("*").first())!);
}

export const apiKeyListSpec: ListSpec = {
  fields: {
    id: { column: "id", type: "uuid" },
    name: { column: "name", type: "string" },
    prefix: { column: "prefix", type: "string" },
    createdAt: { column: "created_at", type: "timestamp" },
    revokedAt: { column: "revoked_at", type: "timestamp" },
  },
  tieBreaker: "id",
  defaultSort: [{ field: "createdAt", dir: "desc" }],
};

export async function listApiKeys(db: Db, principal: Principal, request: ListRequest) {
  const result = await runList<Record<string, unknown>>(db, () => visibleKeys(db, principal), apiKeyListSpec, request, [
    "id",
    "name",
    "scopes",
    "company_ids",
    "prefix",
    "created_at",
    "revoked_at",
  ]);
  return { ...result, rows: result.rows.map((row) => apiKeyToApi(ApiKeyRecord.fromDatabaseJson(row))) };
}
