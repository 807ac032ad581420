// The last statement of issuing a sales document (issue 10, throughput): everything that can be checked, computed
// and written without the number is done before it (the draft locked, the totals, the posting checked, the stock
// taken, a credited invoice updated); this one statement then takes the next number of the series (locking its row
// until commit), posts the journal transaction that names it (ledger_post, the one posting function's statement),
// turns the draft into the issued document, links the stock operation, writes the events — with their deliveries and
// jobs, through the outbox's one writer (src/events/emit.ts, outboxCtes) — and the audit record.
// So the series row is held for this statement and the commit only, and every other issue of the series waits
// for no more than that. Gapless as before: a transaction that fails gives its number back (the series row's
// update rolls back with it).
//
// Where the number (and the posting's id, journal number and creation time) belong in what was prepared before
// it existed — the posting's description and reference, the events' data, the audit summary — the prepared text
// carries a placeholder unique to the request, which the statement replaces (JSON-escaped) as it writes.
import { randomBytes } from "node:crypto";
import type { AuditRow } from "../account/index.js";
import type { Db } from "../db/connection.js";
import { preparedQuery } from "../db/prepared.js";
import { violatedConstraint } from "../db/transaction.js";
import type { Decimal } from "../shared/decimal.js";
import { ApiError, conflict } from "../shared/errors.js";
import { EVENT_VERSION, OUTBOX_JOBS, outboxCtes, type PlannedEvent } from "../events/index.js";
import { postArgs, postingFailure, type PostingRequest } from "../ledger/index.js";

/** Placeholders unique to one request: they cannot occur by chance in anything a client wrote. */
export function placeholders() {
  const tag = randomBytes(12).toString("hex");
  return { number: `\u2063N${tag}`, journalId: `\u2063J${tag}`, journalNumber: `\u2063K${tag}`, now: `\u2063T${tag}` };
}
export type Placeholders = ReturnType<typeof placeholders>;

export interface SaleIssueFinish {
  companyId: string;
  documentType: "sale_invoice" | "sale_credit_note";
  prefix: string;
  year: number;
  invoiceId: string;
  /** The posting, whose description, reference and entry descriptions may hold `ph.number`. */
  posting: PostingRequest;
  total: Decimal;
  columns: { partner_snapshot: string; rate: string; rate_source: string; rate_date: string; gross_total_base: string; outstanding: string };
  stockOperationIds: string[];
  /** In emission order; their data may hold every placeholder. */
  events: PlannedEvent[];
  ph: Placeholders;
}

// $1 company, $2 document type, $3 year, $4 prefix, $5 the number's placeholder, $6..$26 ledger_post's parameters
// (description, reference and entry descriptions with the placeholder), $27.. the rest.
const SALE_ISSUE_SQL = `
  with taken as (
    insert into number_series as s (company_id, document_type, prefix, year, next_number) values ($1::uuid, $2::text, $4::text, $3::int, 2)
        on conflict on constraint number_series_identity_key do update set next_number = s.next_number + 1, updated_at = now()
     returning s.id as series_id, s.prefix || '-' || (s.next_number - 1) as number, s.next_number - 1 as sequence
  ), posted as (
    select p.* from taken,
      ledger_post($6::uuid, $7::int, $8::date, replace($9::text, $5::text, taken.number), replace($10::text, $5::text, taken.number), $11::text, $12::text, $13::text, $14::uuid,
                  $15::numeric, $16::text[], $17::text[], $18::uuid, $19::text[], $20::numeric[], $21::numeric[], $22::text[], $23::text[], $24::numeric[], $25::numeric[],
                  array(select replace(d, $5::text, taken.number) from unnest($26::text[]) with ordinality u(d, o) order by o)) p
  ), doc as (
    update sale_invoices i
       set status = 'issued', number = taken.number, series_id = taken.series_id, sequence = taken.sequence,
           partner_snapshot = $28::jsonb, rate = $29::numeric, rate_source = $30::text, rate_date = $31::date, gross_total_base = $32::numeric,
           outstanding = $33::numeric, journal_transaction_id = posted.id, issued_at = now(), updated_at = now()
      from taken, posted
     -- The draft is locked since issuing's read, which found it a draft; and invoice_frozen refuses renumbering an
     -- issued document. No status condition: by the primary key only (an index on status could look like as good a
     -- way to the row to a planner without statistics, and read every draft of the company).
     where i.company_id = $1::uuid and i.id = $27::uuid
     returning i.id
  ), ops as (
    update stock_operations o set journal_transaction_id = posted.id from posted
     where o.company_id = $1::uuid and o.id = any($34::uuid[])
     returning o.id
  ), filled as (
    select taken.number, posted.id as journal_id, posted.number as journal_number,
           substr(to_json(taken.number)::text, 2, length(to_json(taken.number)::text) - 2) as number_json,
           to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as now_iso
      from taken, posted
  ), ${outboxCtes(
    // The events' data with the placeholders filled in, for the outbox's one writer (src/events/emit.ts).
    `select $1::uuid as company_id, e.type as event_type, e.ord,
            replace(replace(replace(replace(e.data, $5::text, f.number_json), $37::text, f.journal_id::text),
                            '"' || $38::text || '"', coalesce(to_json(f.journal_number)::text, 'null')), $39::text, f.now_iso)::jsonb as data
       from filled f, unnest($36::text[], $40::text[]) with ordinality e(type, data, ord)`,
    "$35::text",
  )},
  audit as (
    insert into audit_log (account_id, company_id, key_id, operation, target_ids, summary, request_id)
    select a.account_id, a.company_id, a.key_id, a.operation, a.target_ids, replace(a.summary::text, $5::text, f.number_json)::jsonb, a.request_id
      from filled f, jsonb_populate_record(null::audit_log, $41::jsonb) a
     where $41::jsonb is not null
    returning 1
  )
  select f.number, f.journal_id, f.journal_number, f.now_iso, (select count(*) from doc)::int as documents, ${OUTBOX_JOBS} as jobs
    from filled f`;

export interface Finished {
  number: string;
  journalId: string;
  journalNumber: string | null;
  nowIso: string;
}

/**
 * Runs the last statement and returns what the placeholders stand for. One statement whatever happens (a series'
 * first document creates it, and the upsert takes the row's lock either way), so that it can be the transaction's
 * last with COMMIT right behind it (src/db/transaction.ts, commitBehindLastStatement).
 */
export async function finishSaleIssue(trx: Db, f: SaleIssueFinish, audit: AuditRow | null): Promise<Finished> {
  const args = [
    f.companyId,
    f.documentType,
    f.year,
    f.prefix,
    f.ph.number,
    ...postArgs(f.posting, f.total),
    f.invoiceId,
    f.columns.partner_snapshot,
    f.columns.rate,
    f.columns.rate_source,
    f.columns.rate_date,
    f.columns.gross_total_base,
    f.columns.outstanding,
    f.stockOperationIds,
    EVENT_VERSION,
    f.events.map((e) => e.type),
    f.ph.journalId,
    f.ph.journalNumber,
    f.ph.now,
    f.events.map((e) => JSON.stringify(e.data)),
    audit ? JSON.stringify(audit) : null,
  ];
  const rows = await preparedQuery<{ number: string; journal_id: string; journal_number: string | null; now_iso: string; documents: number }>(
    trx,
    "sale_issue_finish",
    SALE_ISSUE_SQL,
    args,
  ).catch((error) => {
    const constraint = violatedConstraint(error)?.constraint;
    if (constraint === "sale_invoices_sequence_key") throw conflict("The number was taken concurrently; retry.", "sale_invoice.number_taken");
    // Another sales document of the year shows this number already (a series of the other document type with
    // the same prefix, created before the prefix rule or by the migration import): never two documents alike.
    if (constraint === "sale_invoices_number_key") {
      throw conflict(
        `Another sales document of ${f.year} already shows the number this one would take; give it another series prefix.`,
        "sale_invoice.number_taken",
        {
          prefix: f.prefix,
          year: f.year,
        },
      );
    }
    throw postingFailure(error, f.posting);
  });
  const [row] = rows;
  // The upsert always yields the series, and the draft was locked by this transaction (a draft still): cannot happen.
  if (rows.length !== 1 || row.documents !== 1) throw new Error(`sale invoice ${f.invoiceId} was not numbered as a draft of series ${f.prefix} ${f.year}`);
  return { number: row.number, journalId: row.journal_id, journalNumber: row.journal_number, nowIso: row.now_iso };
}

const OTHER_TYPE = { sale_invoice: "sale_credit_note", sale_credit_note: "sale_invoice" } as const;
const TYPE_NAME = { sale_invoice: "invoices", sale_credit_note: "credit notes" } as const;

/**
 * 422 `sale_invoice.prefix_in_use` when a series of the other sales document type (invoices vs credit notes) uses
 * `prefix` in any year: a credit note numbered `SF-1` beside invoice `SF-1` would be two documents showing one number.
 */
export async function refusePrefixOfOtherType(db: Db, companyId: string, documentType: "sale_invoice" | "sale_credit_note", prefix: string): Promise<void> {
  const used = await preparedQuery(
    db,
    "series_prefix_in_use",
    "select 1 from number_series where company_id = $1::uuid and document_type = $2::text and prefix = $3::text limit 1",
    [companyId, OTHER_TYPE[documentType], prefix],
  );
  if (used.length) throw prefixInUse(documentType, prefix);
}

/** The 422 of refusePrefixOfOtherType, for a caller that found the other type's series itself. */
export function prefixInUse(documentType: "sale_invoice" | "sale_credit_note", prefix: string): ApiError {
  const other = OTHER_TYPE[documentType];
  return new ApiError(
    "unprocessable",
    `The prefix ${prefix} numbers the company's ${TYPE_NAME[other]} already; ${TYPE_NAME[documentType]} need a prefix of their own.`,
    {
      key: "sale_invoice.prefix_in_use",
      params: { seriesPrefix: prefix },
      fieldErrors: { seriesPrefix: [`numbers the company's ${TYPE_NAME[other]}; choose another prefix`] },
    },
  );
}

/** Replaces the placeholders in every string of `value` (the response built before the number existed), in place. */
export function fillIn<T>(value: T, ph: Placeholders, done: Finished): T {
  const fill = (s: string) =>
    s.includes("\u2063")
      ? s
          .split(ph.number)
          .join(done.number)
          .split(ph.journalId)
          .join(done.journalId)
          .split(ph.now)
          .join(done.nowIso)
          .split(ph.journalNumber)
          .join(done.journalNumber ?? "")
      : s;
  const walk = (v: any): any => {
    if (typeof v === "string") return fill(v);
    if (Array.isArray(v)) {
      v.forEach((x, i) => (v[i] = walk(x)));
      return v;
    }
    if (v && typeof v === "object") {
      for (const k of Object.keys(v)) v[k] = v[k] === ph.journalNumber ? done.journalNumber : walk(v[k]);
      return v;
    }
    return v;
  };
  return walk(value);
}
