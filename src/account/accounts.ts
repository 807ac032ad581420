// Operator actions on accounts (the admin CLI): bootstrap, billing, per-key rate limits.
import type { Db } from "../db/connection.js";
import { withTransaction } from "../db/transaction.js";
import { formatDecimal, parseDecimal } from "../shared/decimal.js";
import { insertApiKey } from "./api-keys.js";

export async function bootstrapAccount(db: Db, name: string, ownerEmail?: string): Promise<{ accountId: string; apiKey: string; keyId: string }> {
  return withTransaction(db, async (trx) => {
    const [account] = await trx("accounts")
      .insert({ name, owner_email: ownerEmail ?? null })
      .returning("id");
    const key = await insertApiKey(trx, account.id, "bootstrap", ["*"], null);
    return { accountId: account.id as string, apiKey: key.key, keyId: key.id };
  });
}

export interface BillingChange {
  /** YYYY-MM-DD, or null to remove the trial end (no trial limit). */
  trialEndsAt?: string | null;
  /** Prepaid credit as a money decimal string, not negative. */
  credit?: string;
}

export async function setBilling(db: Db, accountId: string, change: BillingChange) {
  return withTransaction(db, async (trx) => {
    const patch: Record<string, unknown> = {};
    if (change.trialEndsAt !== undefined) patch.trial_ends_at = change.trialEndsAt;
    if (change.credit !== undefined) {
      const credit = parseDecimal(change.credit, "money");
      if (credit.isNegative()) throw new Error("--credit must not be negative");
      patch.prepaid_credit = formatDecimal(credit, "money");
    }
    const [row] = await trx("accounts").where({ id: accountId }).update(patch).returning(["id", "trial_ends_at", "prepaid_credit"]);
    if (!row) throw new Error(`no account ${accountId}`);
    return { accountId: row.id as string, trialEndsAt: row.trial_ends_at as string | null, prepaidCredit: row.prepaid_credit as string };
  });
}

/** The account owner's e-mail: the default owner of new webhook subscriptions (who is told when one is paused). */
export async function setOwnerEmail(db: Db, accountId: string, email: string) {
  return withTransaction(db, async (trx) => {
    const [row] = await trx("accounts").where({ id: accountId }).update({ owner_email: email }).returning(["id", "owner_email"]);
    if (!row) throw new Error(`no account ${accountId}`);
    return { accountId: row.id as string, ownerEmail: row.owner_email as string };
  });
}

export async function setKeyLimit(db: Db, keyId: string, perMinute: number | null) {
  return withTransaction(db, async (trx) => {
    const [row] = await trx("api_keys").where({ id: keyId }).update({ rate_limit_per_minute: perMinute }).returning(["id", "rate_limit_per_minute"]);
    if (!row) throw new Error(`no API key ${keyId}`);
    return { keyId: row.id as string, perMinute: row.rate_limit_per_minute as number | null };
  });
}
