// The first database round trip of every request: finds the presented key (with its account's billing state),
// counts the request against the key's rate-limit window and fetches the company the request names, all in
// one statement. The secret is then compared in constant time in JS; when it does not match, the count is
// moved from the key's window to the client address's (a key id alone must not spend a key's budget).
import type { Db } from "../db/connection.js";
import { preparedQuery } from "../db/prepared.js";
import { bearerToken, parseKey, secretMatches } from "./api-keys.js";
import type { CompanyContext } from "./company.js";
import { hit, type RateLimitState } from "./rate-limit.js";

export interface Principal {
  keyId: string;
  accountId: string;
  scopes: string[];
  /** null: the key reaches every company of the account. */
  companyIds: string[] | null;
  paymentRequired: boolean;
  /** The company named by X-Company-Id (or the key's only company), when it belongs to the key's account. */
  company: CompanyContext | null;
}

export interface GateResult {
  /** undefined for a missing, malformed, unknown or revoked key (answered 401 after rate limiting). */
  principal: Principal | undefined;
  rateLimit: RateLimitState;
}

interface GateRow {
  id: string;
  account_id: string;
  scopes: string[];
  company_ids: string[] | null;
  secret_hash: Buffer;
  revoked_at: Date | null;
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

const GATE_SQL = `
  with k as (
    select k.id, k.account_id, k.scopes, k.company_ids, k.secret_hash, k.revoked_at, k.rate_limit_per_minute,
           (a.trial_ends_at is not null and a.trial_ends_at < current_date and a.prepaid_credit <= 0) as payment_required
      from api_keys k join accounts a on a.id = k.account_id
     where k.id = $1
  ), c as (
    select c.id as company_id, c.country_code, c.base_currency, c.invoice_currency
      from companies c join k on c.account_id = k.account_id
     where c.id = coalesce($2::uuid, case when cardinality(k.company_ids) = 1 then k.company_ids[1] end)
  ), rl as (
    insert into rate_limit_counters as r (bucket, window_start, count)
    select 'key:' || k.id, date_trunc('minute', now()), 1 from k
    on conflict (bucket, window_start) do update set count = r.count + 1
    returning r.count, ceil(extract(epoch from r.window_start + interval '1 minute' - now())) as reset
  )
  select k.*, c.*, rl.count, rl.reset from k cross join rl left join c on true`;

export async function gate(db: Db, request: { authorization?: string; companyHeader?: string; clientAddress: string }, defaultLimit: number): Promise<GateResult> {
  const token = bearerToken(request.authorization);
  const parsed = token ? parseKey(token) : undefined;
  let row: GateRow | undefined;
  if (parsed) {
    const companyId = request.companyHeader && UUID.test(request.companyHeader) ? request.companyHeader.toLowerCase() : null;
    row = (await preparedQuery<GateRow & Record<string, unknown>>(db, "gate", GATE_SQL, [parsed.id, companyId]))[0];
  }
  const valid = parsed !== undefined && secretMatches(parsed.secret, row?.secret_hash) && row !== undefined;
  if (!valid || !row) {
    if (row) await db.raw(`update rate_limit_counters set count = count - 1 where bucket = ? and window_start = date_trunc('minute', now())`, [`key:${row.id}`]);
    return { principal: undefined, rateLimit: await hit(db, `ip:${request.clientAddress}`, defaultLimit) };
  }
  const limit = row.rate_limit_per_minute ?? defaultLimit;
  const rateLimit: RateLimitState = {
    limit,
    remaining: Math.max(0, limit - row.count),
    reset: Math.max(1, Number(row.reset)),
    exceeded: row.count > limit,
  };
  if (row.revoked_at) return { principal: undefined, rateLimit };
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
