// The first database round trip of every request, one statement whatever the key (the function api_gate): it finds
// the presented key (with its account's billing state) only when the secret matches and the key is not revoked,
// fetches the company the request names, and counts the request — against the key when it is valid, else against the client address.
// The secret is verified before the key's counter is touched, so a key id alone (ids are not secret: they appear
// in lists, audit records, `createdByKeyId`) can never spend a key's budget, and an unknown id, a known id with a
// wrong secret and a revoked key take the same path (issue 7, defect 2).
//
// The comparison is of SHA-256 digests inside PostgreSQL. It is not constant-time, and need not be: what it could
// leak is how many leading bytes of the digest of a guess match the stored digest, which says nothing usable about
// a 256-bit secret (finding a secret with a given digest prefix is a preimage search).
import type { Db } from "../db/connection.js";
import { preparedQuery } from "../db/prepared.js";
import { bearerToken, hashSecret, parseKey } from "../auth/keys.js";
import type { Principal } from "../auth/principal.js";
import type { RateLimitState } from "./rate-limit.js";

export interface GateResult {
  /** undefined for a missing, malformed, unknown or revoked key, or a wrong secret (answered 401 after rate limiting). */
  principal: Principal | undefined;
  rateLimit: RateLimitState;
}

interface GateRow {
  id: string | null;
  account_id: string;
  scopes: string[];
  company_ids: string[] | null;
  rate_limit_per_minute: number | null;
  payment_required: boolean;
  company_id: string | null;
  country_code: string | null;
  base_currency: string | null;
  invoice_currency: string | null;
  count: number;
  reset: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// The statement itself is the function api_gate (migration 20261123000003): its plan is cached per server
// connection, also through a transaction-pooling PgBouncer.
const GATE_SQL = "select * from api_gate($1::uuid, $2::uuid, $3::bytea, $4::text)";

export async function gate(
  db: Db,
  request: { authorization?: string; companyHeader?: string; clientAddress: string },
  defaultLimit: number,
): Promise<GateResult> {
  const token = bearerToken(request.authorization);
  const parsed = token ? parseKey(token) : undefined;
  const companyId = request.companyHeader && UUID.test(request.companyHeader) ? request.companyHeader.toLowerCase() : null;
  // A malformed or missing key still runs the statement (with no id), so every request costs one round trip.
  const secretHash = hashSecret(parsed?.secret ?? "");
  const [row] = await preparedQuery<GateRow & Record<string, unknown>>(db, "gate", GATE_SQL, [
    parsed?.id ?? null,
    companyId,
    secretHash,
    request.clientAddress,
  ]);
  const limit = row.id ? (row.rate_limit_per_minute ?? defaultLimit) : defaultLimit;
  const rateLimit: RateLimitState = {
    limit,
    remaining: Math.max(0, limit - row.count),
    reset: Math.max(1, Number(row.reset)),
    exceeded: row.count > limit,
  };
  if (!row.id) return { principal: undefined, rateLimit };
  return {
    rateLimit,
    principal: {
      keyId: row.id,
      accountId: row.account_id,
      scopes: row.scopes,
      companyIds: row.company_ids,
      paymentRequired: row.payment_required,
      company: row.company_id
        ? { id: row.company_id, countryCode: row.country_code!, baseCurrency: row.base_currency!, invoiceCurrency: row.invoice_currency! }
        : null,
    },
  };
}
