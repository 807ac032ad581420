import type { Db } from "../db/connection.js";
import { bearerToken, parseKey, secretMatches } from "./api-keys.js";

export interface Principal {
  keyId: string;
  accountId: string;
  scopes: string[];
  /** null: the key reaches every company of the account. */
  companyIds: string[] | null;
  rateLimitPerMinute: number | null;
  paymentRequired: boolean;
}

interface KeyRow {
  id: string;
  account_id: string;
  scopes: string[];
  company_ids: string[] | null;
  secret_hash: Buffer;
  revoked_at: Date | null;
  rate_limit_per_minute: number | null;
  payment_required: boolean;
}

/**
 * Resolves the request's API key. Returns undefined for a missing, malformed, unknown or revoked key; the
 * caller answers 401 (after rate limiting by client address).
 */
export async function authenticate(db: Db, authorization: string | undefined): Promise<Principal | undefined> {
  const token = bearerToken(authorization);
  const parsed = token ? parseKey(token) : undefined;
  if (!parsed) return undefined;
  const { rows } = await db.raw<{ rows: KeyRow[] }>(
    `select k.id, k.account_id, k.scopes, k.company_ids, k.secret_hash, k.revoked_at, k.rate_limit_per_minute,
            (a.trial_ends_at is not null and a.trial_ends_at < current_date and a.prepaid_credit <= 0) as payment_required
       from api_keys k join accounts a on a.id = k.account_id
      where k.id = ?`,
    [parsed.id],
  );
  const row = rows[0];
  if (!secretMatches(parsed.secret, row?.secret_hash) || !row || row.revoked_at) return undefined;
  return {
    keyId: row.id,
    accountId: row.account_id,
    scopes: row.scopes,
    companyIds: row.company_ids,
    rateLimitPerMinute: row.rate_limit_per_minute,
    paymentRequired: row.payment_required,
  };
}
