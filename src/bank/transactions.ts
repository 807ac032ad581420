// Bank transactions: stored once each (constraint bank_transactions_dedupe_key: the bank's reference, else a
// fingerprint of what the entry says), listed through the shared list engine, ignored when they need no booking.
// A row counts as a duplicate only of what it is (issue 22): a bank's reference that names two transactions — twice in
// one statement or JSON import, or for another amount or booking date than the one stored or read before — is
// refused (422 `bank.transaction_reference_conflict`), so a statement's balance holds over what is stored.
import { createHash } from "node:crypto";
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import { preparedQuery } from "../db/prepared.js";
import type { BankAllocationsRow, BankTransactionsRow } from "../db/rows.js";
import { Decimal, formatDecimal } from "../shared/decimal.js";
import { ApiError, conflict, notFound } from "../shared/errors.js";
import { runList, type ListRequest, type ListSpec } from "../shared/list-engine.js";
import { isKnownCurrency } from "../shared/currencies.js";
import { findBankAccount } from "./accounts.js";

export type BankTransaction = components["schemas"]["Bank.BankTransaction"];
type ImportInput = components["schemas"]["Bank.TransactionImportRequest"];

/**
 * The most characters a transaction's remittance information holds (bank_transactions check, the contract's maxLength):
 * a camt.053 entry's texts together (each Max140Text, as many as the bank writes; a batch's details in one text).
 */
export const MAX_REMITTANCE = 10_000;

/** A transaction as an import reads it, before it is stored. */
export interface TransactionRow {
  bookingDate: string;
  valueDate: string | null;
  /** Signed, 2 decimals. */
  amount: string;
  currency: string;
  counterpartyName: string | null;
  counterpartyIban: string | null;
  remittanceInformation: string | null;
  creditorReference: string | null;
  endToEndId: string | null;
  bankReference: string | null;
  isReversal: boolean;
  /** What was instructed in another currency (camt `AmtDtls/InstdAmt`), signed as `amount`; information only. */
  originalAmount: string | null;
  originalCurrency: string | null;
  /** Where the row's bank reference is in the request (`transactions[2].bankReference`, a camt element's path): what a refusal names. */
  referencePath?: string;
}

/**
 * The key a re-import finds a transaction by: the bank's reference, else a fingerprint of everything the entry says.
 * Two entries alike in everything (two equal card payments on one day) are told apart by their order in the import
 * — the whole file, across its statements, so that identical entries of two statements do not collapse into one —
 * which a re-import of the same file repeats. The original (instructed) amount is no part of the fingerprint: it only
 * describes the booked amount, and keys stored before it was kept stay the same.
 */
export function dedupeKeys(rows: TransactionRow[]): string[] {
  const seen = new Map<string, number>();
  return rows.map((r) => {
    if (r.bankReference) return `ref:${r.bankReference}`;
    const digest = createHash("sha256")
      .update(
        JSON.stringify([
          r.bookingDate,
          r.valueDate,
          new Decimal(r.amount).toFixed(2),
          r.currency,
          r.counterpartyName,
          r.counterpartyIban,
          r.remittanceInformation,
          r.creditorReference,
          r.endToEndId,
          r.isReversal,
        ]),
      )
      .digest("hex")
      .slice(0, 40);
    const n = (seen.get(digest) ?? 0) + 1;
    seen.set(digest, n);
    return `fp:${digest}:${n}`;
  });
}

const referenceConflict = (path: string, row: TransactionRow, other: string, otherAmount: string, otherDate: string, params: Record<string, unknown>) => {
  const problem = `repeats the bank's reference ${row.bankReference} of ${other} (${money(otherAmount)} booked ${otherDate}); this one is ${money(row.amount)} booked ${row.bookingDate}`;
  return new ApiError("unprocessable", `A bank's reference names one transaction: ${path} ${problem}. Nothing was imported.`, {
    key: "bank.transaction_reference_conflict",
    params: { path, bankReference: row.bankReference, amount: money(row.amount), bookingDate: row.bookingDate, ...params },
    fieldErrors: { [path]: [problem] },
  });
};

/**
 * Refuses a bank's reference that names two transactions within one import: twice in one group (a statement, or a JSON
 * import) is never one transaction seen twice; in two statements of one file it is, when amount and booking date
 * agree (a re-sent entry), and the later one counts as a duplicate. Checked before anything is written.
 */
export function refuseRepeatedReferences(rows: TransactionRow[], keys: string[], bankAccountIds: string[], groups: number[]): void {
  const first = new Map<string, number>();
  rows.forEach((row, i) => {
    if (!keys[i].startsWith("ref:")) return;
    const id = `${bankAccountIds[i]} ${keys[i]}`;
    const j = first.get(id);
    if (j === undefined) {
      first.set(id, i);
      return;
    }
    const earlier = rows[j];
    if (groups[i] !== groups[j] && new Decimal(earlier.amount).equals(row.amount) && earlier.bookingDate === row.bookingDate) return;
    throw referenceConflict(row.referencePath ?? "bankReference", row, earlier.referencePath ?? "an earlier row", earlier.amount, earlier.bookingDate, {
      otherPath: earlier.referencePath ?? null,
    });
  });
}

// One statement for all the rows, as parallel arrays: no per-row SQL, and the text never changes (it stays prepared).
// Each row names its bank account and statement, so the statements of a multi-currency file — going to two bank
// accounts — are one insert too. A row already stored (its dedupe key in its bank account) is skipped; what was
// inserted is counted per statement (a JSON import's rows have none: one count). The rows skipped for a bank's
// reference stored before with another amount or booking date come back too (row_no, 1-based): the statement's
// snapshot holds the rows stored before it, not those it inserts, so the join finds only those.
const STORE_SQL = `
  with input as (
    select * from unnest($2::uuid[], $3::uuid[], $4::date[], $5::date[], $6::numeric[], $7::text[], $8::text[], $9::text[], $10::text[],
      $11::text[], $12::text[], $13::text[], $14::boolean[], $15::text[], $16::numeric[], $17::text[])
      with ordinality as r(bank_account_id, statement_id, booking_date, value_date, amount, currency, counterparty_name, counterparty_iban,
        remittance_information, creditor_reference, end_to_end_id, bank_reference, is_reversal, dedupe_key, original_amount, original_currency, row_no)
  ),
  inserted as (
    insert into bank_transactions (company_id, bank_account_id, statement_id, booking_date, value_date, amount, currency, counterparty_name,
      counterparty_iban, remittance_information, creditor_reference, end_to_end_id, bank_reference, is_reversal, dedupe_key, original_amount,
      original_currency)
    select $1::uuid, bank_account_id, statement_id, booking_date, value_date, amount, currency, counterparty_name, counterparty_iban,
      remittance_information, creditor_reference, end_to_end_id, bank_reference, is_reversal, dedupe_key, original_amount, original_currency
    from input
    on conflict (company_id, bank_account_id, dedupe_key) do nothing
    returning statement_id
  )
  select statement_id, count(*)::int as imported, null::int as row_no, null::uuid as stored_id, null::text as stored_amount, null::text as stored_date
    from inserted group by statement_id
  union all
  select null::uuid, null::int, i.row_no::int, t.id, t.amount::text, t.booking_date::text
    from input i
    join bank_transactions t on t.company_id = $1 and t.bank_account_id = i.bank_account_id and t.dedupe_key = i.dedupe_key
   where left(i.dedupe_key, 4) = 'ref:' and (t.amount <> i.amount or t.booking_date <> i.booking_date)`;

/** Rows to store: each with its dedupe key, bank account and statement (null for a JSON import). */
export interface RowsToStore {
  rows: TransactionRow[];
  keys: string[];
  bankAccountIds: string[];
  statementIds: (string | null)[];
}

/**
 * Stores the rows not stored yet; returns how many were new, by statement id (`""` for rows without a statement).
 * A row whose bank's reference is stored with another amount or booking date is refused (the caller's transaction
 * rolls back what this statement wrote).
 */
export async function storeRows(trx: Db, companyId: string, { rows, keys, bankAccountIds, statementIds }: RowsToStore): Promise<Map<string, number>> {
  const imported = new Map<string, number>();
  if (!rows.length) return imported;
  const column = <K extends keyof TransactionRow>(name: K) => rows.map((r) => r[name]);
  type Result = {
    statement_id: string | null;
    imported: number | null;
    row_no: number | null;
    stored_id: string | null;
    stored_amount: string | null;
    stored_date: string | null;
  };
  const counts = await preparedQuery<Result>(trx, "bank_store_rows", STORE_SQL, [
    companyId,
    bankAccountIds,
    statementIds,
    column("bookingDate"),
    column("valueDate"),
    column("amount"),
    column("currency"),
    column("counterpartyName"),
    column("counterpartyIban"),
    column("remittanceInformation"),
    column("creditorReference"),
    column("endToEndId"),
    column("bankReference"),
    column("isReversal"),
    keys,
    column("originalAmount"),
    column("originalCurrency"),
  ]);
  const conflicts = counts.filter((c) => c.row_no !== null).sort((a, b) => a.row_no! - b.row_no!);
  if (conflicts.length) {
    const c = conflicts[0];
    const row = rows[c.row_no! - 1];
    throw referenceConflict(row.referencePath ?? "bankReference", row, `transaction ${c.stored_id}`, c.stored_amount!, c.stored_date!, {
      transactionId: c.stored_id,
    });
  }
  for (const c of counts) imported.set(c.statement_id ?? "", c.imported!);
  return imported;
}

/** Stores the rows of one bank account that are not stored yet (a JSON import); how many were new, how many duplicates. */
export async function storeTransactions(
  trx: Db,
  companyId: string,
  bankAccountId: string,
  rows: TransactionRow[],
): Promise<{ imported: number; duplicates: number }> {
  const keys = dedupeKeys(rows);
  const bankAccountIds = rows.map(() => bankAccountId);
  refuseRepeatedReferences(
    rows,
    keys,
    bankAccountIds,
    rows.map(() => 0),
  );
  const counts = await storeRows(trx, companyId, { rows, keys, bankAccountIds, statementIds: rows.map(() => null) });
  const imported = counts.get("") ?? 0;
  return { imported, duplicates: rows.length - imported };
}

export async function importTransactions(trx: Db, companyId: string, input: ImportInput) {
  const account = await findBankAccount(trx, companyId, input.bankAccountId, true);
  const invalid: Record<string, string[]> = {};
  input.transactions.forEach((t, i) => {
    if (new Decimal(t.amount).isZero()) invalid[`transactions[${i}].amount`] = ["must not be 0"];
    if ((t.originalAmount === undefined) !== (t.originalCurrency === undefined))
      invalid[`transactions[${i}]`] = ["originalAmount and originalCurrency go together"];
    else if (t.originalAmount !== undefined && new Decimal(t.originalAmount).isZero()) invalid[`transactions[${i}].originalAmount`] = ["must not be 0"];
  });
  if (Object.keys(invalid).length) throw new ApiError("validation", "The transactions are not valid.", { key: "request.invalid", fieldErrors: invalid });
  const unknown = input.transactions.flatMap((t, i) =>
    [["currency", t.currency] as const, ["originalCurrency", t.originalCurrency] as const].flatMap(([field, code]) =>
      code !== undefined && !isKnownCurrency(code) ? [{ path: `transactions[${i}].${field}`, code }] : [],
    ),
  );
  if (unknown.length) {
    throw new ApiError("unprocessable", `${unknown[0].code} is not an ISO 4217 currency code.`, {
      key: "currency.unknown",
      params: { currency: unknown[0].code },
      fieldErrors: Object.fromEntries(unknown.map((u) => [u.path, ["is not an ISO 4217 currency code"]])),
    });
  }
  // A bank account's transactions are booked in its currency: a foreign payment's own amount is `originalAmount`.
  const foreign = input.transactions.flatMap((t, i) => (t.currency !== undefined && t.currency !== account.currency ? [i] : []));
  if (foreign.length) {
    const currency = input.transactions[foreign[0]].currency;
    throw new ApiError(
      "unprocessable",
      `A transaction in ${currency} cannot be booked on the ${account.currency} bank account ${account.iban}; give the ${currency} amount as originalAmount.`,
      {
        key: "bank.transaction_currency_mismatch",
        params: { currency, accountCurrency: account.currency },
        fieldErrors: Object.fromEntries(foreign.map((i) => [`transactions[${i}].currency`, [`must be the bank account's currency, ${account.currency}`]])),
      },
    );
  }
  const rows: TransactionRow[] = input.transactions.map((t, i) => ({
    bookingDate: t.bookingDate,
    valueDate: t.valueDate ?? null,
    amount: new Decimal(t.amount).toFixed(2),
    currency: t.currency ?? account.currency,
    counterpartyName: t.counterpartyName ?? null,
    counterpartyIban: t.counterpartyIban ?? null,
    remittanceInformation: t.remittanceInformation ?? null,
    creditorReference: t.creditorReference ?? null,
    endToEndId: t.endToEndId ?? null,
    bankReference: t.bankReference ?? null,
    isReversal: t.isReversal ?? false,
    originalAmount: t.originalAmount ?? null,
    originalCurrency: t.originalCurrency ?? null,
    referencePath: `transactions[${i}].bankReference`,
  }));
  return storeTransactions(trx, companyId, account.id, rows);
}

const money = (v: string) => formatDecimal(v, "money");
/** An original amount as stored (4 decimals) with the decimals it needs, at least 2: `10.5000` -> `10.50`, `10.125`. */
const foreignAmount = (v: string | null) => (v === null ? null : new Decimal(v).toFixed(Math.max(2, new Decimal(v).decimalPlaces())));

export function transactionToApi(row: TransactionWithMatch, allocations: BankAllocationsRow[] = []): BankTransaction {
  return {
    id: row.id,
    bankAccountId: row.bank_account_id,
    statementId: row.statement_id,
    bookingDate: row.booking_date,
    valueDate: row.value_date,
    amount: money(row.amount),
    currency: row.currency,
    counterpartyName: row.counterparty_name,
    counterpartyIban: row.counterparty_iban,
    remittanceInformation: row.remittance_information,
    creditorReference: row.creditor_reference,
    endToEndId: row.end_to_end_id,
    bankReference: row.bank_reference,
    isReversal: row.is_reversal,
    originalAmount: foreignAmount(row.original_amount),
    originalCurrency: row.original_currency,
    status: row.status,
    ignoredReason: row.ignored_reason,
    journalTransactionId: row.journal_transaction_id,
    allocations: allocations.map((a) => ({
      saleInvoiceId: a.sale_invoice_id,
      purchaseInvoiceId: a.purchase_invoice_id,
      accountCode: a.account_code,
      amount: money(a.amount),
      amountEur: money(a.base_amount),
    })),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** A row of WITH_MATCH. */
type TransactionWithMatch = BankTransactionsRow & { match_id: string | null; journal_transaction_id: string | null };

// A transaction with the journal transaction of its live match (if any).
const WITH_MATCH = `(select t.*, m.id as match_id, m.journal_transaction_id
    from bank_transactions t
    left join bank_matches m on m.company_id = t.company_id and m.transaction_id = t.id and m.unmatched_at is null) as t`;

/** The allocations of the live matches of these transactions, by transaction. */
async function allocationsOf(db: Db, companyId: string, matchIds: string[]): Promise<Map<string, BankAllocationsRow[]>> {
  const byMatch = new Map<string, BankAllocationsRow[]>();
  if (!matchIds.length) return byMatch;
  const rows = await db<BankAllocationsRow>("bank_allocations").where("company_id", companyId).whereIn("match_id", matchIds).orderBy(["match_id", "line_no"]);
  for (const r of rows) byMatch.set(r.match_id, [...(byMatch.get(r.match_id) ?? []), r]);
  return byMatch;
}

export async function findTransaction(db: Db, companyId: string, id: string, forUpdate = false): Promise<BankTransactionsRow> {
  const query = db<BankTransactionsRow>("bank_transactions").where({ company_id: companyId, id }).first();
  const row = await (forUpdate ? query.forUpdate() : query);
  if (!row) throw notFound("The bank transaction", "bank_transaction.not_found", { id });
  return row;
}

export async function getTransaction(db: Db, companyId: string, id: string): Promise<BankTransaction> {
  const row: TransactionWithMatch | undefined = await db.from(db.raw(WITH_MATCH)).where({ "t.company_id": companyId, "t.id": id }).first();
  if (!row) throw notFound("The bank transaction", "bank_transaction.not_found", { id });
  if (!row.match_id) return transactionToApi(row);
  const allocations = await allocationsOf(db, companyId, [row.match_id]);
  return transactionToApi(row, allocations.get(row.match_id) ?? []);
}

export async function ignoreTransaction(trx: Db, companyId: string, input: { id: string; reason?: string }): Promise<BankTransaction> {
  const row = await findTransaction(trx, companyId, input.id, true);
  if (row.status === "matched") throw conflict("The transaction is matched; unmatch it first.", "bank_transaction.already_matched", { id: row.id });
  await trx("bank_transactions")
    .where({ company_id: companyId, id: row.id })
    .update({ status: "ignored", ignored_reason: input.reason ?? null, updated_at: trx.fn.now() });
  return getTransaction(trx, companyId, row.id);
}

const listSpec: ListSpec = {
  fields: {
    id: { column: "id", type: "uuid", sort: false },
    bankAccountId: { column: "bank_account_id", type: "uuid", sort: false },
    status: { column: "status", type: "string" },
    bookingDate: { column: "booking_date", type: "date" },
    valueDate: { column: "value_date", type: "date" },
    amount: { column: "amount", type: "decimal", total: true },
    currency: { column: "currency", type: "string", sort: false },
    counterpartyName: { column: "counterparty_name", type: "string" },
    counterpartyIban: { column: "counterparty_iban", type: "string", sort: false },
    remittanceInformation: { column: "remittance_information", type: "string", sort: false },
    bankReference: { column: "bank_reference", type: "string", sort: false },
    isReversal: { column: "is_reversal", type: "boolean", sort: false },
    createdAt: { column: "created_at", type: "timestamp" },
  },
  tieBreaker: "id",
  defaultSort: [
    { field: "bookingDate", dir: "desc" },
    { field: "createdAt", dir: "desc" },
  ],
};

export async function listTransactions(db: Db, companyId: string, request: ListRequest) {
  const result = await runList<TransactionWithMatch>(db, () => db.from(db.raw(WITH_MATCH)).where("t.company_id", companyId), listSpec, request, ["t.*"]);
  const allocations = await allocationsOf(
    db,
    companyId,
    result.rows.flatMap((r) => (r.match_id ? [r.match_id] : [])),
  );
  return { ...result, rows: result.rows.map((r) => transactionToApi(r, (r.match_id && allocations.get(r.match_id)) || [])) };
}
