// The one posting function of the product: manual journal transactions now; invoices, payments, depreciation,
// the migration later. It checks every rule, then writes the transaction and its lines inside the caller's
// transaction. The database checks the same rules again (balance at commit, locked months, postable accounts,
// immutability), so no other code path can break them.
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import { preparedQuery } from "../db/prepared.js";
import { violatedConstraint } from "../db/transaction.js";
import { Decimal, MAX_MONEY, formatDecimal, trimDecimal } from "../decimal.js";
import { ApiError, conflict, type FieldErrors } from "../errors.js";
import { emitEvent } from "../events/emit.js";

export type JournalTransaction = components["schemas"]["Ledger.JournalTransaction"];
export type JournalDocumentType = JournalTransaction["documentType"];

export interface PostingEntry {
  accountCode: string;
  debit?: string;
  credit?: string;
  partnerCode?: string;
  currency?: string;
  currencyAmount?: string;
  rate?: string;
  description?: string;
}

export interface PostingRequest {
  companyId: string;
  date: string;
  description?: string | null;
  reference?: string | null;
  documentType: JournalDocumentType;
  source?: { type: string; id: string } | null;
  reversesId?: string | null;
  entries: PostingEntry[];
  createdByKeyId?: string | null;
  /**
   * How a line's EUR amount must match its currency amount at its rate: `exact` (default; a manual posting) is
   * the half-up rounding of currencyAmount / rate; `within_a_cent` lets a document's lines differ from it by one
   * cent, so that a document converted part by part (src/invoicing/totals.ts, convertParts) still balances.
   */
  conversion?: "exact" | "within_a_cent";
}

const isZero = (v: string) => new Decimal(v).isZero();

/** Shape rules a schema cannot say: exactly one positive side; the currency triple complete. 400 when broken. */
function checkShape(entries: PostingEntry[]): void {
  const errors: FieldErrors = {};
  const fail = (path: string, message: string) => (errors[path] ??= []).push(message);
  if (entries.length < 2) fail("entries", "needs at least two lines");
  entries.forEach((e, i) => {
    if ((e.debit === undefined) === (e.credit === undefined)) fail(`entries[${i}]`, "needs exactly one of debit and credit");
    if (e.debit !== undefined && isZero(e.debit)) fail(`entries[${i}].debit`, "must be above 0");
    if (e.credit !== undefined && isZero(e.credit)) fail(`entries[${i}].credit`, "must be above 0");
    const triple = [e.currency, e.currencyAmount, e.rate].filter((v) => v !== undefined).length;
    if (triple !== 0 && triple !== 3) fail(`entries[${i}]`, "currency, currencyAmount and rate go together: send all three or none");
    if (e.currencyAmount !== undefined && isZero(e.currencyAmount)) fail(`entries[${i}].currencyAmount`, "must be above 0");
    if (e.rate !== undefined && isZero(e.rate)) fail(`entries[${i}].rate`, "must be above 0");
  });
  if (Object.keys(errors).length) throw new ApiError("validation", "The journal lines are not valid.", { key: "journal.invalid_lines", fieldErrors: errors });
}

/** The accounts, partners and period the lines name, in one round trip. */
async function loadContext(trx: Db, req: PostingRequest, accountCodes: string[], partnerCodes: string[]) {
  const rows = await preparedQuery<{ accounts: [string, boolean][]; partners: string[]; locked: boolean }>(
    trx,
    "posting_context",
    // The function ledger_posting_context (migration 20261123000004).
    "select * from ledger_posting_context($1::uuid, $2::text[], $3::text[], $4::date)",
    [req.companyId, accountCodes, partnerCodes, req.date],
  );
  return rows[0];
}

/** Business rules against the company's data: 409 for a locked month, 422 naming the lines otherwise. */
async function checkRules(trx: Db, req: PostingRequest, accountCodes: string[], partnerCodes: string[]): Promise<{ total: Decimal }> {
  const errors: FieldErrors = {};
  const fail = (path: string, message: string) => (errors[path] ??= []).push(message);
  const context = await loadContext(trx, req, accountCodes, partnerCodes);
  if (context.locked) throw periodLocked(req.date.slice(0, 7));
  const postable = new Map(context.accounts);
  const partners = context.partners;
  let debits = new Decimal(0);
  let credits = new Decimal(0);
  req.entries.forEach((e, i) => {
    if (!postable.has(e.accountCode)) fail(`entries[${i}].accountCode`, `account ${e.accountCode} does not exist`);
    else if (!postable.get(e.accountCode)) fail(`entries[${i}].accountCode`, `account ${e.accountCode} is not postable`);
    if (e.partnerCode && !partners.includes(e.partnerCode)) fail(`entries[${i}].partnerCode`, `partner ${e.partnerCode} does not exist`);
    const amount = new Decimal(e.debit ?? e.credit!);
    if (e.debit !== undefined) debits = debits.plus(amount);
    else credits = credits.plus(amount);
    if (e.currencyAmount !== undefined && e.rate !== undefined) {
      const converted = new Decimal(e.currencyAmount).dividedBy(e.rate).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
      const tolerance = req.conversion === "within_a_cent" ? "0.01" : "0";
      if (converted.minus(amount).abs().greaterThan(tolerance)) fail(`entries[${i}]`, `${e.currencyAmount} ${e.currency} at ${e.rate} per EUR is ${converted.toFixed(2)} EUR, not ${amount.toFixed(2)}`);
    }
  });
  if (Object.keys(errors).length) {
    throw new ApiError("unprocessable", "Some journal lines cannot be posted.", { key: "journal.lines_rejected", fieldErrors: errors });
  }
  if (!debits.equals(credits)) {
    throw new ApiError("unprocessable", `Debits (${debits.toFixed(2)}) do not equal credits (${credits.toFixed(2)}).`, {
      key: "journal.unbalanced",
      params: { debit: debits.toFixed(2), credit: credits.toFixed(2) },
    });
  }
  if (debits.greaterThan(MAX_MONEY)) {
    throw new ApiError("unprocessable", `The transaction's total ${debits.toFixed(2)} exceeds ${MAX_MONEY}, the largest amount one transaction may carry.`, {
      key: "journal.total_too_large",
      params: { total: debits.toFixed(2), max: MAX_MONEY },
    });
  }
  return { total: debits };
}

export const periodLocked = (month: string) =>
  conflict(`The period ${month} is locked; nothing can be posted into it.`, "period.locked", { month });

export function entryToApi(row: Record<string, any>): JournalTransaction["entries"][number] {
  return {
    lineNo: row.line_no,
    accountCode: row.account_code,
    debit: isZero(row.debit) ? null : formatDecimal(row.debit, "money"),
    credit: isZero(row.credit) ? null : formatDecimal(row.credit, "money"),
    partnerCode: row.partner_code,
    currency: row.currency,
    currencyAmount: row.currency_amount === null ? null : formatDecimal(row.currency_amount, "money"),
    rate: row.rate === null ? null : trimDecimal(row.rate),
    description: row.description,
  };
}

export function transactionToApi(header: Record<string, any>, entries: Record<string, any>[], reversedById: string | null): JournalTransaction {
  return {
    id: header.id,
    number: header.number,
    date: header.date,
    description: header.description,
    reference: header.reference,
    documentType: header.document_type,
    source: header.source_type ? { type: header.source_type, id: header.source_id } : null,
    reversesId: header.reverses_id,
    reversedById,
    total: formatDecimal(header.total, "money"),
    entries: entries.map(entryToApi),
    createdByKeyId: header.created_by_key_id,
    createdAt: new Date(header.created_at).toISOString(),
  };
}

// The statement is the function ledger_post (migration 20261123000004): number, header and lines in one round trip,
// its plan cached per server connection (also through a transaction-pooling PgBouncer).
const POST_SQL = `select * from ledger_post($1::uuid, $2::int, $3::date, $4::text, $5::text, $6::text, $7::text, $8::text, $9::uuid,
  $10::numeric, $11::text[], $12::text[], $13::uuid, $14::text[], $15::numeric[], $16::numeric[], $17::text[], $18::text[],
  $19::numeric[], $20::numeric[], $21::text[])`;

/** Posts one journal transaction inside `trx` and returns it. */
export async function post(trx: Db, req: PostingRequest): Promise<JournalTransaction> {
  checkShape(req.entries);
  const accountCodes = [...new Set(req.entries.map((e) => e.accountCode))];
  const partnerCodes = [...new Set(req.entries.flatMap((e) => (e.partnerCode ? [e.partnerCode] : [])))];
  const { total } = await checkRules(trx, req, accountCodes, partnerCodes);
  try {
    // Number, header and lines in one statement. The number is taken first (gapless: the series row stays locked
    // until commit); the lines travel as parallel arrays, so the statement text never changes and stays prepared.
    const [{ entries, ...header }] = await preparedQuery<{ entries: Record<string, any>[] }>(trx, "journal_post", POST_SQL, [
      req.companyId,
      Number(req.date.slice(0, 4)),
      req.date,
      req.description ?? null,
      req.reference ?? null,
      req.documentType,
      req.source?.type ?? null,
      req.source?.id ?? null,
      req.reversesId ?? null,
      total.toFixed(2),
      accountCodes,
      partnerCodes,
      req.createdByKeyId ?? null,
      req.entries.map((e) => e.accountCode),
      req.entries.map((e) => e.debit ?? "0"),
      req.entries.map((e) => e.credit ?? "0"),
      req.entries.map((e) => e.partnerCode ?? null),
      req.entries.map((e) => e.currency ?? null),
      req.entries.map((e) => e.currencyAmount ?? null),
      req.entries.map((e) => e.rate ?? null),
      req.entries.map((e) => e.description ?? null),
    ]);
    const posted = transactionToApi(header, entries, null);
    // Every posting of every module is announced here, in its own transaction (issue 9).
    await emitEvent(trx, req.companyId, "journal_transaction.posted", posted);
    return posted;
  } catch (error) {
    // A lock or a change of the chart that committed after the checks above: the database has the last word.
    switch (violatedConstraint(error)?.constraint) {
      case "ledger_period_locked":
        throw periodLocked(req.date.slice(0, 7));
      case "journal_entries_postable_account":
      case "journal_entries_account_fkey":
      case "journal_entries_partner_fkey":
        throw new ApiError("unprocessable", "An account or partner of the lines changed while posting; retry.", { key: "journal.lines_rejected" });
      case "journal_transactions_reversed_once":
        throw conflict("The transaction is reversed already.", "journal.already_reversed", { id: req.reversesId });
    }
    throw error;
  }
}
