// The last statement of issuing a sales document (issue 10, throughput): everything that can be checked, computed
// and written without the number is done before it (the draft locked, the totals, the posting checked, the stock
// taken, a credited invoice updated); this one statement then takes the next number of the series (locking its row
// until commit), posts the journal transaction that names it (ledger_post, the one posting function's statement),
// turns the draft into the issued document, links the stock operation, writes the events — with their deliveries and
// jobs, through the outbox's one writer (src/events/emit.ts, outboxCtes) — and the request's audit record.
// So the series row is held for this statement and the commit only, and every other issue of the series waits
// for no more than that. Gapless as before: a transaction that fails gives its number back (the series row's
// update rolls back with it). What was prepared before the number existed names it through placeholders
// (./placeholders.ts), which this statement fills in as it writes.
import type { components } from "../../generated/types.js";
import { auditInsertSql, type AuditRow } from "../account/index.js";
import type { Db } from "../db/connection.js";
import { preparedQuery } from "../db/prepared.js";
import { SqlParams } from "../db/sql-params.js";
import { violatedConstraint } from "../db/transaction.js";
import type { Decimal } from "../shared/decimal.js";
import { ApiError, conflict } from "../shared/errors.js";
import { EVENT_VERSION, OUTBOX_JOBS, outboxCtes, type PlannedEvent } from "../events/index.js";
import { ledgerPostCall, postingFailure, type PostingRequest } from "../ledger/index.js";
import { placeholderSql, type Filled, type Placeholders } from "../db/placeholders.js";

export interface SaleIssue {
  companyId: string;
  documentType: SaleSeries;
  prefix: string;
  year: number;
  invoiceId: string;
  /** What the issued document's row gets besides its number and its posting. */
  issued: {
    partner_snapshot: components["schemas"]["Invoicing.PartnerSnapshot"];
    rate: string;
    rate_source: string;
    rate_date: string;
    gross_total_base: string;
    outstanding: string;
  };
  /** The posting, checked already (checkPosting, `total`); its description, reference and entry descriptions may hold the number's placeholder. */
  posting: PostingRequest;
  total: Decimal;
  stockOperationIds: string[];
  /** In emission order; their data may hold every placeholder. */
  events: PlannedEvent[];
  /** The request's audit record; its summary may hold the number's placeholder. */
  audit: AuditRow;
  placeholders: Placeholders;
}

/** The numbering statement of `issue`: its text and parameters. */
function saleIssueStatement(issue: SaleIssue): { text: string; values: unknown[] } {
  const p = new SqlParams();
  const company = p.uuid(issue.companyId);
  const fill = placeholderSql(p, issue.placeholders);
  const { issued, audit, events } = issue;
  const text = `
  with taken as (
    -- The series' next number. A series' first document creates it; an existing row is locked by the upsert as by an
    -- update, until commit.
    insert into number_series as s (company_id, document_type, prefix, year, next_number)
    values (${company}, ${p.text(issue.documentType)}, ${p.text(issue.prefix)}, ${p.int(issue.year)}, 2)
        on conflict on constraint number_series_identity_key do update set next_number = s.next_number + 1, updated_at = now()
     returning s.id as series_id, s.prefix || '-' || (s.next_number - 1) as number, s.next_number - 1 as sequence
  ), posted as (
    select p.* from taken, ${ledgerPostCall(p, issue.posting, issue.total, {
      text: (sql) => fill.text(sql, "taken.number"),
      texts: (sql) => fill.texts(sql, "taken.number"),
    })} p
  ), doc as (
    update sale_invoices i
       set status = 'issued', number = taken.number, series_id = taken.series_id, sequence = taken.sequence,
           partner_snapshot = ${p.jsonb(issued.partner_snapshot)}, rate = ${p.numeric(issued.rate)}, rate_source = ${p.text(issued.rate_source)},
           rate_date = ${p.date(issued.rate_date)}, gross_total_base = ${p.numeric(issued.gross_total_base)}, outstanding = ${p.numeric(issued.outstanding)},
           journal_transaction_id = posted.id, issued_at = now(), updated_at = now()
      from taken, posted
     -- The draft is locked since issuing's read, which found it a draft; and invoice_frozen refuses renumbering an
     -- issued document. No status condition: by the primary key only (an index on status could look like as good a
     -- way to the row to a planner without statistics, and read every draft of the company).
     where i.company_id = ${company} and i.id = ${p.uuid(issue.invoiceId)}
     returning i.id
  ), ops as (
    update stock_operations o set journal_transaction_id = posted.id from posted
     where o.company_id = ${company} and o.id = any(${p.uuids(issue.stockOperationIds)})
     returning o.id
  ), ${fill.filledCte("taken.number", { id: "posted.id", number: "posted.number" }, "taken, posted")},
  ${outboxCtes(
    `select ${company} as company_id, e.type as event_type, e.ord, ${fill.json("e.data")} as data
       from filled, unnest(${p.texts(events.map((e) => e.type))}, ${p.texts(events.map((e) => JSON.stringify(e.data)))}) with ordinality e(type, data, ord)`,
    p.text(EVENT_VERSION),
  )},
  audit as (
    ${auditInsertSql(p, audit, { summary: fill.json, from: "filled" })}
  )
  select filled.number, filled.journal_id, filled.journal_number, filled.created_at, (select count(*) from doc)::int as documents, ${OUTBOX_JOBS} as jobs
    from filled`;
  return { text, values: p.values };
}

/**
 * Runs the numbering statement of `issue` and returns what the placeholders stand for. One statement whatever
 * happens (a series' first document creates it, and the upsert takes the row's lock either way), so that it can be
 * the transaction's last with COMMIT right behind it (src/db/transaction.ts, commitBehindLastStatement).
 */
export async function finishSaleIssue(trx: Db, issue: SaleIssue): Promise<Filled> {
  const { text, values } = saleIssueStatement(issue);
  const rows = await preparedQuery<{ number: string; journal_id: string; journal_number: string | null; created_at: string; documents: number }>(
    trx,
    "sale_issue_finish",
    text,
    values,
  ).catch((error) => {
    const constraint = violatedConstraint(error)?.constraint;
    if (constraint === "sale_invoices_sequence_key") throw conflict("The number was taken concurrently; retry.", "sale_invoice.number_taken");
    // Another sales document of the year shows this number already (a series of the other document type with
    // the same prefix, created before the prefix rule or by the migration import): never two documents alike.
    if (constraint === "sale_invoices_number_key") {
      throw conflict(
        `Another sales document of ${issue.year} already shows the number this one would take; give it another series prefix.`,
        "sale_invoice.number_taken",
        {
          prefix: issue.prefix,
          year: issue.year,
        },
      );
    }
    throw postingFailure(error, issue.posting);
  });
  const [row] = rows;
  // The upsert always yields the series, and the draft was locked by this transaction (a draft still): cannot happen.
  if (rows.length !== 1 || row.documents !== 1)
    throw new Error(`sale invoice ${issue.invoiceId} was not numbered as a draft of series ${issue.prefix} ${issue.year}`);
  return { number: row.number, journalId: row.journal_id, journalNumber: row.journal_number, createdAt: row.created_at };
}

/** The series of the sales document types: invoices, credit notes, debit notes (issue 24). */
export type SaleSeries = "sale_invoice" | "sale_credit_note" | "sale_debit_note";
const SALE_SERIES: readonly SaleSeries[] = ["sale_invoice", "sale_credit_note", "sale_debit_note"];
const TYPE_NAME = { sale_invoice: "invoices", sale_credit_note: "credit notes", sale_debit_note: "debit notes" } as const;

/**
 * 422 `sale_invoice.prefix_in_use` when a series of another sales document type (invoices, credit notes, debit
 * notes) uses `prefix` in any year: a credit note numbered `SF-1` beside invoice `SF-1` would be two documents showing
 * one number.
 */
export async function refusePrefixOfOtherType(db: Db, companyId: string, documentType: SaleSeries, prefix: string): Promise<void> {
  const [used] = await preparedQuery<{ document_type: SaleSeries }>(
    db,
    "series_prefix_in_use_of",
    "select document_type from number_series where company_id = $1::uuid and document_type = any($2::text[]) and prefix = $3::text limit 1",
    [companyId, SALE_SERIES.filter((s) => s !== documentType), prefix],
  );
  if (used) throw prefixInUse(documentType, prefix, used.document_type);
}

/** The 422 of refusePrefixOfOtherType, for a caller that found the other type's series itself (`other`; default the first other). */
export function prefixInUse(documentType: SaleSeries, prefix: string, other: SaleSeries = SALE_SERIES.find((s) => s !== documentType)!): ApiError {
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
