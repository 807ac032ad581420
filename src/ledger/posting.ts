// The one posting function of the product: manual journal transactions now; invoices, payments, depreciation,
// the migration later. It checks every rule, then writes the transaction and its lines inside the caller's
// transaction. The database checks the same rules again (balance at commit, locked months, postable accounts,
// immutability), so no other code path can break them.
import { randomUUID } from "node:crypto";
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import { placeholderSql, placeholders } from "../db/placeholders.js";
import { plainQuery, preparedQuery } from "../db/prepared.js";
import { SqlParams } from "../db/sql-params.js";
import type { JournalEntriesRow, JournalTransactionsRow } from "../db/rows.js";
import { commitBehindLastStatement, violatedConstraint } from "../db/transaction.js";
import { Decimal, MAX_MONEY, formatDecimal, trimDecimal } from "../shared/decimal.js";
import { ApiError, conflict, type FieldErrors } from "../shared/errors.js";
import { auditInsertSql, auditRecordOf, type AuditNote } from "../account/index.js";
import { EVENT_VERSION, OUTBOX_JOBS, emitEvent, outboxCtes } from "../events/index.js";

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

/**
 * What a posting is checked against: the accounts among those its lines name that exist, with whether they take
 * postings; the partners among those named that exist; whether its month is locked. A caller that read it already
 * (with more than the lines name, never less) passes it to checkPosting.
 */
export interface PostingContext {
  accounts: [string, boolean][];
  partners: string[];
  locked: boolean;
}

/** The accounts, partners and period the lines name, in one round trip. */
async function loadContext(trx: Db, req: PostingRequest, accountCodes: string[], partnerCodes: string[]): Promise<PostingContext> {
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
async function checkRules(
  trx: Db,
  req: PostingRequest,
  accountCodes: string[],
  partnerCodes: string[],
  preloaded?: PostingContext,
): Promise<{ total: Decimal }> {
  const errors: FieldErrors = {};
  const fail = (path: string, message: string) => (errors[path] ??= []).push(message);
  const context = preloaded ?? (await loadContext(trx, req, accountCodes, partnerCodes));
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
      if (converted.minus(amount).abs().greaterThan(tolerance))
        fail(`entries[${i}]`, `${e.currencyAmount} ${e.currency} at ${e.rate} per EUR is ${converted.toFixed(2)} EUR, not ${amount.toFixed(2)}`);
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

export const periodLocked = (month: string) => conflict(`The period ${month} is locked; nothing can be posted into it.`, "period.locked", { month });

/** A journal line as the API shows it (a journal_entries row, or ledger_post's JSON of one: the same names and types). */
export type EntryFields = Pick<
  JournalEntriesRow,
  "line_no" | "account_code" | "debit" | "credit" | "partner_code" | "currency" | "currency_amount" | "rate" | "description"
>;

/** A journal transaction's header as the API shows it (a journal_transactions row, or what ledger_post returns). */
export type HeaderFields = Pick<
  JournalTransactionsRow,
  | "id"
  | "number"
  | "date"
  | "description"
  | "reference"
  | "document_type"
  | "source_type"
  | "source_id"
  | "reverses_id"
  | "total"
  | "created_by_key_id"
  | "created_at"
>;

export function entryToApi(row: EntryFields): JournalTransaction["entries"][number] {
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

export function transactionToApi(header: HeaderFields, entries: EntryFields[], reversedById: string | null): JournalTransaction {
  return {
    id: header.id,
    number: header.number,
    date: header.date,
    description: header.description,
    reference: header.reference,
    documentType: header.document_type,
    // Both or neither in every writer; journal_transactions has no check tying them (stock_operations has one).
    source: header.source_type && header.source_id ? { type: header.source_type, id: header.source_id } : null,
    reversesId: header.reverses_id,
    reversedById,
    total: formatDecimal(header.total, "money"),
    entries: entries.map(entryToApi),
    createdByKeyId: header.created_by_key_id,
    createdAt: header.created_at.toISOString(),
  };
}

// The statement is the function ledger_post (migration 20261123000004): number, header and lines in one round trip,
// its plan cached per server connection (also through a transaction-pooling PgBouncer).
const POST_SQL = `select * from ledger_post($1::uuid, $2::int, $3::date, $4::text, $5::text, $6::text, $7::text, $8::text, $9::uuid,
  $10::numeric, $11::text[], $12::text[], $13::uuid, $14::text[], $15::numeric[], $16::numeric[], $17::text[], $18::text[],
  $19::numeric[], $20::numeric[], $21::text[])`;

/** What checkPosting found: the request it checked (its amounts and accounts) and its total. */
export interface CheckedPosting {
  readonly fingerprint: string;
  readonly total: Decimal;
}

// What a check depends on: the date and, per line, the account, the amounts and the partner (not the descriptions).
const fingerprintOf = (req: PostingRequest) =>
  JSON.stringify([req.companyId, req.date, req.entries.map((e) => [e.accountCode, e.debit, e.credit, e.partnerCode, e.currency, e.currencyAmount, e.rate])]);

/**
 * Checks a posting without writing it, for a caller that must post while holding a lock (a document's number
 * series): it checks first, takes the lock, then posts with `post(trx, req, checked)`, which skips the checks that
 * were done (the database still has the last word on locks and accounts). The descriptions may change in between
 * (they name the number taken); the amounts, accounts, partners and date may not.
 */
export async function checkPosting(trx: Db, req: PostingRequest, context?: PostingContext): Promise<CheckedPosting> {
  checkShape(req.entries);
  const accountCodes = [...new Set(req.entries.map((e) => e.accountCode))];
  const partnerCodes = [...new Set(req.entries.flatMap((e) => (e.partnerCode ? [e.partnerCode] : [])))];
  const { total } = await checkRules(trx, req, accountCodes, partnerCodes, context);
  return { fingerprint: fingerprintOf(req), total };
}

/** The parameters of POST_SQL (the function ledger_post) for a request, in order ($1..$21). */
function postArgs(req: PostingRequest, total: Decimal): unknown[] {
  const accountCodes = [...new Set(req.entries.map((e) => e.accountCode))];
  const partnerCodes = [...new Set(req.entries.flatMap((e) => (e.partnerCode ? [e.partnerCode] : [])))];
  return [
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
  ];
}

/**
 * The transaction a checked request will post, as the API (and its `journal_transaction.posted` event) shows it,
 * before it exists: `pending` stands where its id, number and creation time go (src/sales/numbering.ts writes
 * a document's posting in the statement that numbers it, and fills these in there).
 */
export function plannedTransaction(
  req: PostingRequest,
  checked: CheckedPosting,
  pending: { id: string; number: string; createdAt: string },
): JournalTransaction {
  if (checked.fingerprint !== fingerprintOf(req)) throw new Error("plannedTransaction: the request differs from the one checked");
  const money = (v: string | undefined) => (v === undefined || isZero(v) ? null : formatDecimal(v, "money"));
  return {
    id: pending.id,
    number: pending.number,
    date: req.date,
    description: req.description ?? null,
    reference: req.reference ?? null,
    documentType: req.documentType,
    source: req.source ? { type: req.source.type, id: req.source.id } : null,
    reversesId: req.reversesId ?? null,
    reversedById: null,
    total: formatDecimal(checked.total, "money"),
    entries: req.entries.map((e, i) => ({
      lineNo: i + 1,
      accountCode: e.accountCode,
      debit: money(e.debit),
      credit: money(e.credit),
      partnerCode: e.partnerCode ?? null,
      currency: e.currency ?? null,
      currencyAmount: e.currencyAmount === undefined ? null : formatDecimal(e.currencyAmount, "money"),
      rate: e.rate === undefined ? null : trimDecimal(e.rate),
      description: e.description ?? null,
    })),
    createdByKeyId: req.createdByKeyId ?? null,
    createdAt: pending.createdAt,
  };
}

/** A constraint the database enforced at posting time (a lock or a chart change after the checks) as the API error. */
export function postingFailure(error: unknown, req: Pick<PostingRequest, "date" | "reversesId">): unknown {
  switch (violatedConstraint(error)?.constraint) {
    case "ledger_period_locked":
      return periodLocked(req.date.slice(0, 7));
    case "journal_entries_postable_account":
    case "journal_entries_account_fkey":
    case "journal_entries_partner_fkey":
      return new ApiError("unprocessable", "An account or partner of the lines changed while posting; retry.", { key: "journal.lines_rejected" });
    case "journal_transactions_reversed_once":
      return conflict("The transaction is reversed already.", "journal.already_reversed", { id: req.reversesId });
  }
  return error;
}

/** Posts one journal transaction inside `trx` and returns it. */
export async function post(trx: Db, req: PostingRequest, checked?: CheckedPosting): Promise<JournalTransaction> {
  checkShape(req.entries);
  const accountCodes = [...new Set(req.entries.map((e) => e.accountCode))];
  const partnerCodes = [...new Set(req.entries.flatMap((e) => (e.partnerCode ? [e.partnerCode] : [])))];
  if (checked && checked.fingerprint !== fingerprintOf(req)) throw new Error("post: the request differs from the one checked");
  const { total } = checked ?? (await checkRules(trx, req, accountCodes, partnerCodes));
  try {
    // Number, header and lines in one statement. The number is taken first (gapless: the series row stays locked
    // until commit); the lines travel as parallel arrays, so the statement text never changes and stays prepared.
    const [{ entries, ...header }] = await preparedQuery<HeaderFields & { entries: EntryFields[] }>(trx, "journal_post", POST_SQL, postArgs(req, total));
    const posted = transactionToApi(header, entries, null);
    // Every posting of every module is announced here, in its own transaction (issue 9).
    await emitEvent(trx, req.companyId, "journal_transaction.posted", posted);
    return posted;
  } catch (error) {
    // A lock or a change of the chart that committed after the checks above: the database has the last word.
    throw postingFailure(error, req);
  }
}

// ledger_post's parameters (src/db/functions/ledger_post.sql), in the order of postArgs' values: a statement that
// calls it among its own writes names each (PostgreSQL's named notation, `name => value`), so that a reader need not
// count, and PostgreSQL refuses a name the function does not have.
const LEDGER_POST_PARAMS = [
  ["p_company_id", "uuid"],
  ["p_year", "int"],
  ["p_date", "date"],
  ["p_description", "text"],
  ["p_reference", "text"],
  ["p_document_type", "text"],
  ["p_source_type", "text"],
  ["p_source_id", "text"],
  ["p_reverses_id", "uuid"],
  ["p_total", "numeric"],
  ["p_account_codes", "text[]"],
  ["p_partner_codes", "text[]"],
  ["p_created_by_key_id", "uuid"],
  ["l_accounts", "text[]"],
  ["l_debits", "numeric[]"],
  ["l_credits", "numeric[]"],
  ["l_partners", "text[]"],
  ["l_currencies", "text[]"],
  ["l_currency_amounts", "numeric[]"],
  ["l_rates", "numeric[]"],
  ["l_descriptions", "text[]"],
] as const;

/**
 * The call of ledger_post for a checked request (`total` from checkPosting), its values as parameters of `p`, for a
 * statement that posts among its own writes (a sales document's numbering, postLast). `texts` may rewrite the SQL
 * of the posting's texts — the description and reference (`text`), the lines' descriptions (`texts`, text[]) — to fill
 * in what they name before it exists (src/db/placeholders.ts).
 */
export function ledgerPostCall(
  p: SqlParams,
  req: PostingRequest,
  total: Decimal,
  texts?: { text: (sql: string) => string; texts: (sql: string) => string },
): string {
  const values = postArgs(req, total);
  if (values.length !== LEDGER_POST_PARAMS.length) throw new Error(`ledger_post takes ${LEDGER_POST_PARAMS.length} parameters; postArgs gave ${values.length}`);
  const args = LEDGER_POST_PARAMS.map(([name, type], i) => {
    const value = p.typed(values[i], type);
    const filled = !texts
      ? value
      : name === "p_description" || name === "p_reference"
        ? texts.text(value)
        : name === "l_descriptions"
          ? texts.texts(value)
          : value;
    return `${name} => ${filled}`;
  });
  return `ledger_post(${args.join(", ")})`;
}

/**
 * Posts one journal transaction as the database transaction's last statement (issue 26, the write path): the checks
 * run first (checkPosting, one round trip); then one statement takes the number (the journal series' row stays locked
 * until commit), writes the header and lines (ledger_post), its `journal_transaction.posted` event through the
 * outbox's one writer, and the request's audit record (`audit`: the pipeline then writes none), with COMMIT right
 * behind it (commitBehindLastStatement). So the series row is held for that statement and the commit only, not for
 * three round trips and the turns of this process's event loop between them — what every other numbered posting of
 * the company waits for. The event's data is the transaction as the API shows it, planned before it exists
 * (plannedTransaction) with placeholders for its id, number and creation time that the statement fills in; the
 * answer is read back from what ledger_post wrote. Nothing may run in the transaction after it.
 */
export async function postLast(trx: Db, req: PostingRequest, audit: AuditNote): Promise<JournalTransaction> {
  const checked = await checkPosting(trx, req);
  const ph = placeholders();
  const planned = plannedTransaction(req, checked, { id: ph.journalId, number: ph.journalNumber, createdAt: ph.createdAt });
  // What the pipeline's record would say of the answer (auditRow's defaults): its id, and its number (none without a
  // journal series: stripped), date and document type.
  const record = auditRecordOf(audit, { targetIds: [], summary: { number: ph.journalNumber, date: req.date, documentType: req.documentType } });
  const p = new SqlParams();
  const fill = placeholderSql(p, ph);
  const text = `
  with posted as (
    select t.* from ${ledgerPostCall(p, req, checked.total)} t
  ), ${fill.filledCte("coalesce(posted.number, '')", { id: "posted.id", number: "posted.number" }, "posted")},
  ${outboxCtes(
    `select posted.company_id, ${p.text("journal_transaction.posted")} as event_type, ${fill.json(p.jsonbText(JSON.stringify(planned)))} as data, 1 as ord
       from posted, filled`,
    p.text(EVENT_VERSION),
  )},
  audit as (
    ${auditInsertSql(p, record, { summary: (json) => `jsonb_strip_nulls(${fill.json(json)})`, targetIds: "array[filled.journal_id::text]", from: "filled" })}
  )
  select posted.*, ${OUTBOX_JOBS} as jobs from posted`;
  try {
    const [{ entries, jobs: _jobs, ...header }] = await commitBehindLastStatement(trx, () =>
      preparedQuery<HeaderFields & { entries: EntryFields[]; jobs: number }>(trx, "journal_post_last", text, p.values),
    );
    return transactionToApi(header, entries, null);
  } catch (error) {
    throw postingFailure(error, req);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Many postings at once (the migration of historical books, issue 13: 60,000 transactions in one request). The same
// rules as checkPosting — each transaction has at least two lines, one positive side per line, postable accounts,
// debits = credits, a total within MAX_MONEY, open months — checked in memory against context loaded with a few set
// queries, every failure collected with its path instead of the first one thrown. postBatch then writes numbers,
// headers and lines with three set-based statements; the ledger's triggers check every row again (postable
// accounts, locked months, and the balance of every transaction at commit).
// ---------------------------------------------------------------------------------------------------------------

/** The accounts a batch may post to (code -> postable), and the locked months (`YYYY-MM`) of the company. */
export interface BatchPostingContext {
  accounts: ReadonlyMap<string, boolean>;
  lockedMonths: ReadonlySet<string>;
}

/**
 * Checks each posting of a batch without writing; `fail(path, message)` receives every problem, the path relative to
 * the posting (`entries[1].accountCode`, `entries`). Returns the locked months the postings touch (a 409 for the
 * caller) and each posting's total (undefined when the posting failed).
 */
export function checkPostingBatch(
  postings: readonly Pick<PostingRequest, "date" | "entries">[],
  context: BatchPostingContext,
  fail: (index: number, path: string, message: string) => void,
): { lockedMonths: string[]; totals: (Decimal | undefined)[] } {
  const locked = new Set<string>();
  const totals = postings.map((p, index) => {
    let ok = true;
    const problem = (path: string, message: string) => ((ok = false), fail(index, path, message));
    if (context.lockedMonths.has(p.date.slice(0, 7))) locked.add(p.date.slice(0, 7));
    if (p.entries.length < 2) problem("entries", "needs at least two lines");
    let debits = new Decimal(0);
    let credits = new Decimal(0);
    p.entries.forEach((e, i) => {
      if ((e.debit === undefined) === (e.credit === undefined)) problem(`entries[${i}]`, "needs exactly one of debit and credit");
      else if (isZero(e.debit ?? e.credit!)) problem(`entries[${i}].${e.debit !== undefined ? "debit" : "credit"}`, "must be above 0");
      else if (e.debit !== undefined) debits = debits.plus(e.debit);
      else credits = credits.plus(e.credit!);
      const postable = context.accounts.get(e.accountCode);
      if (postable === undefined) problem(`entries[${i}].accountCode`, `account ${e.accountCode} does not exist`);
      else if (!postable) problem(`entries[${i}].accountCode`, `account ${e.accountCode} is not postable`);
    });
    if (ok && !debits.equals(credits)) problem("entries", `does not balance: debits ${debits.toFixed(2)}, credits ${credits.toFixed(2)}`);
    if (ok && debits.greaterThan(MAX_MONEY))
      problem("entries", `total ${debits.toFixed(2)} exceeds ${MAX_MONEY}, the largest amount one transaction may carry`);
    return ok ? debits : undefined;
  });
  return { lockedMonths: [...locked].sort(), totals };
}

/** One posting of a batch, checked by checkPostingBatch (no partners, currencies or line descriptions). */
export interface BatchPosting {
  date: string;
  description?: string | null;
  reference?: string | null;
  entries: { accountCode: string; debit?: string; credit?: string }[];
  total: Decimal;
}

/**
 * Writes checked postings of one document type inside `trx` with set-based statements and returns their ids (in the
 * order given). Numbers come from the company's journal series of each year, when it has one, taken in date order
 * (the series row stays locked until commit, as for a single posting). No per-transaction event: the caller
 * announces the batch.
 */
export async function postBatch(
  trx: Db,
  companyId: string,
  documentType: JournalDocumentType,
  postings: readonly BatchPosting[],
  createdByKeyId: string | null,
): Promise<string[]> {
  if (!postings.length) return [];
  const ids = postings.map(() => randomUUID());
  const numbers: (string | null)[] = postings.map(() => null);
  const order = postings.map((_, i) => i).sort((a, b) => (postings[a].date < postings[b].date ? -1 : postings[a].date > postings[b].date ? 1 : a - b));
  const byYear = new Map<number, number[]>();
  for (const i of order) {
    const year = Number(postings[i].date.slice(0, 4));
    if (!byYear.has(year)) byYear.set(year, []);
    byYear.get(year)!.push(i);
  }
  for (const [year, indexes] of byYear) {
    const rows = await plainQuery<{ prefix: string; first: string }>(
      trx,
      `update number_series s set next_number = s.next_number + $1, updated_at = now()
         from (select id from number_series where company_id = $2 and document_type = 'journal' and year = $3
                order by created_at, id limit 1 for update) target
        where s.company_id = $2 and s.id = target.id
        returning s.prefix, s.next_number - $1 as first`,
      [indexes.length, companyId, year],
    );
    if (rows[0]) indexes.forEach((i, k) => (numbers[i] = `${rows[0].prefix}-${Number(rows[0].first) + k}`));
  }
  const lines = postings.flatMap((p, i) => p.entries.map((e, j) => ({ id: ids[i], lineNo: j + 1, date: p.date, ...e })));
  try {
    await plainQuery(
      trx,
      `insert into journal_transactions (company_id, id, number, date, description, reference, document_type, total, account_codes, created_by_key_id)
       select $1::uuid, t.id, t.number, t.date, t.description, t.reference, $2, t.total, string_to_array(t.accounts, ' '), $3::uuid
         from unnest($4::uuid[], $5::text[], $6::date[], $7::text[], $8::text[], $9::numeric[], $10::text[]) as t(id, number, date, description, reference, total, accounts)`,
      [
        companyId,
        documentType,
        createdByKeyId,
        ids,
        numbers,
        postings.map((p) => p.date),
        postings.map((p) => p.description ?? null),
        postings.map((p) => p.reference ?? null),
        postings.map((p) => p.total.toFixed(2)),
        postings.map((p) => [...new Set(p.entries.map((e) => e.accountCode))].join(" ")),
      ],
    );
    // The lines' checks — the foreign keys' lookups of their headers and accounts, the statement-level entry check —
    // run on plans this connection may have cached while the journal was small (the opening balances a moment ago,
    // or any earlier request on a pooled connection); such a plan can look each header up through the (company,
    // date) index and scan a company's whole journal per line (82 s for 180,000 lines on PostgreSQL 15). DISCARD
    // PLANS drops them (no lock, no session state that outlives it), so they are planned again for the journal as it
    // now is. ANALYZE would do it too, but holds a lock on the shared tables until commit.
    await trx.raw("discard plans");
    await plainQuery(
      trx,
      `insert into journal_entries (company_id, transaction_id, line_no, date, account_code, debit, credit)
       select $1::uuid, l.id, l.line_no, l.date, l.account_code, l.debit, l.credit
         from unnest($2::uuid[], $3::int[], $4::date[], $5::text[], $6::numeric[], $7::numeric[]) as l(id, line_no, date, account_code, debit, credit)`,
      [
        companyId,
        lines.map((l) => l.id),
        lines.map((l) => l.lineNo),
        lines.map((l) => l.date),
        lines.map((l) => l.accountCode),
        lines.map((l) => l.debit ?? "0"),
        lines.map((l) => l.credit ?? "0"),
      ],
    );
  } catch (error) {
    switch (violatedConstraint(error)?.constraint) {
      case "ledger_period_locked":
        throw conflict("A month of the postings was locked while posting; retry.", "period.locked");
      case "journal_entries_postable_account":
      case "journal_entries_account_fkey":
        throw new ApiError("unprocessable", "An account of the lines changed while posting; retry.", { key: "journal.lines_rejected" });
    }
    throw error;
  }
  return ids;
}
