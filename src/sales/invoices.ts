// Sales invoices and credit notes: drafts that change freely, then `issue`, which numbers the document from its
// series, snapshots the buyer, converts to EUR and posts through the one posting function — all in the caller's
// transaction, so a failure anywhere (a locked month, a missing rate) leaves no number taken and nothing posted.
// The database keeps an issued document as it was issued (trigger invoice_frozen, migration 20261124000101).
import type { components } from "../../generated/types.js";
import type { CompanyContext } from "../auth/principal.js";
import type { Db } from "../db/connection.js";
import type { SaleInvoiceLinesRow, SaleInvoicesRow } from "../db/rows.js";
import { Decimal, formatDecimal, trimDecimal } from "../shared/decimal.js";
import { lookupRate } from "../reference/index.js";
import { POSTING_RULES, type PostingRuleName } from "../ledger/index.js";
import { preparedQuery } from "../db/prepared.js";
import { ApiError, conflict, notFound, unprocessable, type FieldErrors } from "../shared/errors.js";
import { refuseReturnsBeyondSold, returnSaleStock, takeSaleStock } from "../inventory/index.js";
import { throwRuleFailures } from "../shared/identifiers.js";
import { checkPosting, plannedTransaction, type PostingRequest } from "../ledger/index.js";
import { auditInsertSql, auditRecordOf, type AuditNote, type AuditRow } from "../account/index.js";
import { commitBehindLastStatement } from "../db/transaction.js";
import { SqlParams } from "../db/sql-params.js";
import { randomUUID } from "node:crypto";
import { finishSaleIssue, prefixInUse, refusePrefixOfOtherType, type SaleIssue } from "./numbering.js";
import { fillIn, placeholders } from "../db/placeholders.js";
import { checkLinesVat, documentById, documentToApi } from "../invoicing/index.js";
import type { ListRequest, ListSpec } from "../shared/list-engine.js";
import { computeTotals, convertParts, type Totals } from "../invoicing/index.js";
import { checkSaleVat, refuseVatOfNonPayer, type Buyer } from "./vat-rules.js";
import {
  breakdownToApi,
  storedLineInput,
  totalsColumns,
  linesOf,
  loadPartner,
  checkPartner,
  partnerSnapshot,
  resolveLines,
  resolveSupplyDate,
  taxPointOf,
  vatPairsOf,
  addDays,
  type DocumentItemRow,
  type DocumentLine,
  type LineInput,
  type PartnerRow,
  type StoredLine,
  listDocuments,
} from "../invoicing/index.js";
import { todayInVilnius } from "../shared/dates.js";

export type SaleInvoice = components["schemas"]["Sales.SaleInvoice"];
type CreateInput = components["schemas"]["Sales.SaleInvoiceCreateRequest"];
type UpdateInput = components["schemas"]["Sales.SaleInvoiceUpdateRequest"];

const LINES = "sale_invoice_lines";
type SaleType = "invoice" | "credit_note" | "debit_note";
const DEFAULT_PREFIX = { invoice: "SF", credit_note: "KS", debit_note: "DS" } as const;
const SERIES = { invoice: "sale_invoice", credit_note: "sale_credit_note", debit_note: "sale_debit_note" } as const;
const TYPE_NAME = { invoice: "invoice", credit_note: "credit note", debit_note: "debit note" } as const;
/** A credit or debit note: it names the invoice it corrects (creditedInvoiceId) and carries that invoice's VAT pairs. */
const isNote = (type: string) => type === "credit_note" || type === "debit_note";
const money = (v: Decimal | string) => formatDecimal(v, "money");

/** A line as stored, without its keys: as statements return lines (LINE_AS_JSON). */
type SaleLine = StoredLine<SaleInvoiceLinesRow>;

export function saleInvoiceToApi(row: SaleInvoicesRow, lines: SaleLine[], livePartner?: PartnerRow): SaleInvoice {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    number: row.number,
    seriesPrefix: row.series_prefix,
    partnerCode: row.partner_code,
    partner: (row.partner_snapshot as SaleInvoice["partner"] | null) ?? partnerSnapshot(livePartner!),
    issueDate: row.issue_date,
    supplyDate: row.supply_date ?? row.issue_date,
    dueDate: row.due_date,
    currency: row.currency,
    // Set together, when the document is issued or registered.
    rate: row.rate === null ? null : { rate: trimDecimal(row.rate), source: row.rate_source!, date: row.rate_date! },
    creditedInvoiceId: row.credited_invoice_id,
    triangular: row.triangular,
    notes: row.notes,
    netTotal: money(row.net_total),
    vatTotal: money(row.vat_total),
    grossTotal: money(row.gross_total),
    grossTotalEur: row.gross_total_base === null ? null : money(row.gross_total_base),
    vatBreakdown: breakdownToApi(row.vat_breakdown),
    paidAmount: money(row.paid_amount),
    creditedAmount: money(row.credited_amount),
    outstanding: money(row.outstanding),
    journalTransactionId: row.journal_transaction_id,
    annulledAt: row.annulled_at === null ? null : new Date(row.annulled_at).toISOString(),
    annulmentTransactionId: row.annulment_transaction_id,
    // The e-mail state is the sends' (withSendState); a draft or a document just written has none.
    sentAt: null,
    lastSendStatus: null,
    lines: lines.map((l) => ({
      lineNo: l.line_no,
      itemCode: l.item_code,
      description: l.description,
      quantity: trimDecimal(l.quantity),
      unit: l.unit,
      unitPriceExclVat: trimDecimal(l.unit_price),
      discountPercent: formatDecimal(l.discount_percent, "percent"),
      vatRatePercent: formatDecimal(l.vat_rate_percent, "percent"),
      vatClassifier: l.vat_classifier,
      revenueAccountCode: l.revenue_account_code,
      warehouseCode: l.warehouse_code ?? null,
      lotNumber: l.lot_number ?? null,
      serials: l.serials ?? null,
      returnToStock: Boolean(l.return_to_stock),
      netAmount: money(l.net_amount),
    })),
    issuedAt: row.issued_at === null ? null : new Date(row.issued_at).toISOString(),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

const notDraft = (row: Pick<SaleInvoicesRow, "id" | "type" | "number" | "status">) =>
  conflict(
    `The ${TYPE_NAME[row.type as SaleType]} ${row.number} is issued; an issued document never changes (a correction is a credit or debit note).`,
    "sale_invoice.not_draft",
    {
      id: row.id,
      number: row.number,
      status: row.status,
    },
  );

const findInvoice = (db: Db, companyId: string, id: string, forUpdate = false) =>
  documentById(db, "sale_invoices", companyId, id, forUpdate, () => notFound("The sales invoice", "sale_invoice.not_found", { id }));

const toApi = (db: Db, companyId: string, row: SaleInvoicesRow): Promise<SaleInvoice> => documentToApi(db, LINES, companyId, row, saleInvoiceToApi);

/** The invoice a credit or debit note corrects: issued (not annulled), an invoice, same partner and currency. */
async function creditTarget(
  db: Db,
  companyId: string,
  id: string,
  partnerCode: string,
  currency: string | undefined,
  forUpdate = false,
): Promise<SaleInvoicesRow> {
  const target = await documentById(db, "sale_invoices", companyId, id, forUpdate, () => notFound("The credited invoice", "sale_invoice.not_found", { id }));
  const problem =
    target.type !== "invoice"
      ? `is a ${TYPE_NAME[target.type as SaleType]}; correct the invoice itself`
      : target.status === "draft"
        ? "is a draft; only an issued invoice can be credited or debited"
        : target.status === "annulled"
          ? "is annulled; an annulled invoice is corrected by nothing"
          : target.partner_code !== partnerCode
            ? `belongs to partner ${target.partner_code}, not ${partnerCode}`
            : currency !== undefined && target.currency !== currency
              ? `is in ${target.currency}, not ${currency}`
              : undefined;
  if (problem) {
    throw unprocessable(`The invoice ${target.number ?? id} ${problem}.`, "sale_invoice.credit_target_invalid", { creditedInvoiceId: id });
  }
  return target;
}

// Inserts a draft's lines, whatever their number, into the draft named by the SQL `draft.company` and `draft.invoice`
// (read `from` another CTE): each column one array parameter (serials, an array per line, as JSON), in line order.
function insertLinesSql(p: SqlParams, draft: { company: string; invoice: string; from?: string }, lines: DocumentLine[]): string {
  const column = <T>(pick: (l: DocumentLine) => T) => lines.map(pick);
  const columns = {
    item_code: p.texts(column((l) => l.itemCode)),
    description: p.texts(column((l) => l.description)),
    quantity: p.numerics(column((l) => l.quantity)),
    unit: p.texts(column((l) => l.unit)),
    unit_price: p.numerics(column((l) => l.unitPrice)),
    discount_percent: p.numerics(column((l) => l.discountPercent)),
    vat_rate_percent: p.numerics(column((l) => l.vatRatePercent)),
    vat_classifier: p.texts(column((l) => l.vatClassifier)),
    account_code: p.texts(column((l) => l.accountCode)),
    warehouse_code: p.texts(column((l) => l.warehouseCode)),
    lot_number: p.texts(column((l) => l.lotNumber)),
    serials: `array(select jsonb_array_elements(${p.jsonb(column((l) => l.serials))}))`,
    return_to_stock: p.booleans(column((l) => l.returnToStock)),
    net_amount: p.numerics(column((l) => l.netAmount.toFixed(2))),
  };
  return `
    insert into sale_invoice_lines (company_id, invoice_id, line_no, item_code, description, quantity, unit, unit_price, discount_percent, vat_rate_percent,
                                    vat_classifier, revenue_account_code, warehouse_code, lot_number, serials, return_to_stock, net_amount)
    select ${draft.company}, ${draft.invoice}, l.line_no, l.item_code, l.description, l.quantity, l.unit, l.unit_price, l.discount_percent, l.vat_rate_percent,
           l.vat_classifier, l.account_code, l.warehouse_code, l.lot_number,
           case when jsonb_typeof(l.serials) = 'array' then array(select x.v from jsonb_array_elements_text(l.serials) with ordinality x(v, o) order by x.o) end,
           l.return_to_stock, l.net_amount
      from ${draft.from ? `${draft.from}, ` : ""}unnest(${Object.values(columns).join(", ")})
             with ordinality l(${Object.keys(columns).join(", ")}, line_no)
    returning *`;
}

// A stored line (alias l) as JSON, amounts as text (a JSON number is a JS float): how statements return lines.
const LINE_AS_JSON = `json_build_object('line_no', l.line_no, 'item_code', l.item_code, 'description', l.description, 'quantity', l.quantity::text,
                   'unit', l.unit, 'unit_price', l.unit_price::text, 'discount_percent', l.discount_percent::text, 'vat_rate_percent', l.vat_rate_percent::text,
                   'vat_classifier', l.vat_classifier, 'revenue_account_code', l.revenue_account_code, 'warehouse_code', l.warehouse_code,
                   'lot_number', l.lot_number, 'serials', l.serials, 'return_to_stock', l.return_to_stock, 'net_amount', l.net_amount::text)`;

/** Writes a draft's lines (replacing the ones it had, unless it is new) and returns the stored rows in order. */
async function writeLines(trx: Db, companyId: string, invoiceId: string, lines: DocumentLine[], replace: boolean): Promise<SaleInvoiceLinesRow[]> {
  if (replace) await trx("sale_invoice_lines").where({ company_id: companyId, invoice_id: invoiceId }).delete();
  const p = new SqlParams();
  const text = insertLinesSql(p, { company: p.uuid(companyId), invoice: p.uuid(invoiceId) }, lines);
  const rows = await preparedQuery<SaleInvoiceLinesRow>(trx, "sale_invoice_lines_insert", text, p.values);
  return rows.sort((a, b) => a.line_no - b.line_no);
}

/**
 * A draft's lines as resolveLines checks them at the tax point; for a credit or debit note, against the corrected
 * invoice's rate and classifier pairs, and a credit note's returns against what that invoice took out of stock. Then
 * the sale's own VAT rules (./vat-rules.ts): the company's VAT status, the buyer, the triangular flag.
 */
async function resolveSaleLines(
  trx: Db,
  company: CompanyContext,
  doc: { type: SaleType; buyer: Buyer; companyVatCode: string | null; triangular: boolean },
  inputs: LineInput[],
  taxPointDate: string,
  currency: string,
  target?: SaleInvoicesRow,
  items?: DocumentItemRow[],
) {
  const withoutVat = doc.companyVatCode === null;
  if (withoutVat) refuseVatOfNonPayer(inputs);
  const creditedPairs = target ? await vatPairsOf(trx, LINES, company.id, target.id) : undefined;
  // Only a credit note's line brings goods back (which ones: refuseReturnsBeyondSold, against the invoice's stock).
  const notReturnable = doc.type === "credit_note" ? -1 : inputs.findIndex((l) => l.returnToStock);
  if (notReturnable >= 0) {
    throw new ApiError("unprocessable", "Only a credit note's line brings goods back into stock (returnToStock).", {
      key: "sale_invoice.return_invalid",
      fieldErrors: { [`lines[${notReturnable}].returnToStock`]: ["only on a credit note"] },
    });
  }
  const resolved = await resolveLines(
    trx,
    company,
    "sales",
    inputs,
    { taxPointDate, document: "sale", creditNote: target !== undefined, creditedPairs, withoutVat },
    currency,
    items,
  );
  checkSaleVat(
    { companyVatCode: doc.companyVatCode, companyCountry: company.countryCode, buyer: doc.buyer, note: target !== undefined, triangular: doc.triangular },
    resolved.lines,
  );
  if (target && doc.type === "credit_note") {
    const returns = resolved.lines.flatMap((l, index) =>
      l.returnToStock ? [{ index, itemCode: l.itemCode!, quantity: l.quantity, warehouseCode: l.warehouseCode }] : [],
    );
    await refuseReturnsBeyondSold(trx, company.id, target.id, returns);
  }
  return resolved;
}

type SeriesType = (typeof SERIES)[SaleType];
/** The series of the other sales document types (a prefix numbers one type only). */
const otherSeries = (type: SaleType): SeriesType[] => Object.values(SERIES).filter((s) => s !== SERIES[type]);

/**
 * A note's triangular flag: its invoice's (a correction of a triangular supply is one too); another one sent is 422
 * `sale_invoice.triangular_invalid`. Undefined for an invoice.
 */
function noteTriangular(target: SaleInvoicesRow | undefined, sent: boolean | undefined): boolean | undefined {
  if (!target) return undefined;
  if (sent !== undefined && sent !== target.triangular) {
    throw new ApiError("unprocessable", `triangular: a credit or debit note takes its invoice's (${target.triangular}).`, {
      key: "sale_invoice.triangular_invalid",
      fieldErrors: { triangular: [`must be ${target.triangular}, the corrected invoice's`] },
    });
  }
  return target.triangular;
}

/** The company's VAT code; null: it is not a VAT payer (issue 24, item 8). */
async function companyVatCodeOf(db: Db, companyId: string): Promise<string | null> {
  const row: { vat_code: string | null } | undefined = await db("companies").where("id", companyId).first("vat_code");
  return row?.vat_code ?? null;
}

/** The totals columns of a sale: a company that is not a VAT payer has no VAT breakdown (its lines carry no classifier). */
function saleTotalsColumns(totals: Totals, companyVatCode: string | null) {
  const columns = totalsColumns(totals);
  return companyVatCode === null ? { ...columns, vat_breakdown: "[]" } : columns;
}

function dueDateProblem(issueDate: string, dueDate: string): void {
  if (dueDate < issueDate) {
    throw unprocessable(`The due date ${dueDate} is before the issue date ${issueDate}.`, "sale_invoice.due_before_issue", { issueDate, dueDate });
  }
}

// What writing a new draft reads, in one round trip: its partner and the items its lines name (both FOR KEY SHARE,
// as loadPartner and resolveLines read them: deleted or recoded meanwhile is seen gone, or waits; items in code
// order, numbers as text), which other sales document type numbers from the prefix (refusePrefixOfOtherType), and the
// company's VAT code (none: not a VAT payer).
const DRAFT_READ_SQL = `
  select (select to_jsonb(p) from (select * from partners where company_id = $1::uuid and code = $2::text for key share) p) as partner,
         (select min(document_type) from number_series where company_id = $1::uuid and document_type = any($3::text[]) and prefix = $4::text) as other_type_prefix,
         (select vat_code from companies where id = $1::uuid) as company_vat_code,
         (select coalesce(jsonb_agg(to_jsonb(c) || jsonb_build_object('vat_rate_percent', c.vat_rate_percent::text, 'sale_price_excl_vat', c.sale_price_excl_vat::text,
                                                                      'purchase_price_excl_vat', c.purchase_price_excl_vat::text) order by c.code), '[]')
            from (select * from catalog_items where company_id = $1::uuid and code = any($5::text[]) order by code for key share) c) as items`;

// A new draft, its lines and the request's audit record: one statement, the request's last, with COMMIT right behind
// it. Returns the draft's row and its lines as stored (numbers as text: a JSON number is a JS float).
function draftWriteStatement(draft: Record<string, string | null>, lines: DocumentLine[], audit: AuditRow) {
  const p = new SqlParams();
  const text = `
  with inv as (
    insert into sale_invoices (company_id, id, type, series_prefix, partner_code, issue_date, supply_date, due_date, currency, notes, credited_invoice_id,
                               triangular, net_total, vat_total, gross_total, vat_breakdown)
    values (${p.uuid(draft.company_id)}, ${p.uuid(draft.id)}, ${p.text(draft.type)}, ${p.text(draft.series_prefix)}, ${p.text(draft.partner_code)},
            ${p.date(draft.issue_date)}, ${p.date(draft.supply_date)}, ${p.date(draft.due_date)}, ${p.text(draft.currency)}, ${p.text(draft.notes)},
            ${p.uuid(draft.credited_invoice_id)}, ${p.text(draft.triangular)}::boolean, ${p.numeric(draft.net_total)}, ${p.numeric(draft.vat_total)}, ${p.numeric(draft.gross_total)},
            ${p.jsonbText(draft.vat_breakdown)})
    returning *
  ), lines as (${insertLinesSql(p, { company: "inv.company_id", invoice: "inv.id", from: "inv" }, lines)}
  ), audit as (
    ${auditInsertSql(p, audit)}
  )
  select inv.*, (select coalesce(json_agg(${LINE_AS_JSON} order by l.line_no), '[]') from lines l) as written_lines
    from inv`;
  return { text, values: p.values };
}

/**
 * Creates a draft. The draft, its lines and the request's audit record are written by one statement, the
 * transaction's last, with COMMIT right behind it.
 */
export async function createSaleInvoice(trx: Db, company: CompanyContext, input: CreateInput, audit: AuditNote): Promise<SaleInvoice> {
  const type = input.type ?? "invoice";
  if (isNote(type) !== (input.creditedInvoiceId !== undefined)) {
    throw unprocessable(
      isNote(type)
        ? `A ${TYPE_NAME[type]} names the invoice it corrects (creditedInvoiceId).`
        : "Only a credit or debit note names the invoice it corrects (creditedInvoiceId).",
      "sale_invoice.credit_target_invalid",
      {},
    );
  }
  const seriesPrefix = input.seriesPrefix ?? DEFAULT_PREFIX[type];
  const itemCodes = [...new Set(input.lines.flatMap((l) => (l.itemCode ? [l.itemCode] : [])))];
  const [read] = await preparedQuery<{
    partner: PartnerRow | null;
    other_type_prefix: string | null;
    items: DocumentItemRow[];
    company_vat_code: string | null;
  }>(trx, "sale_draft_read", DRAFT_READ_SQL, [company.id, input.partnerCode, otherSeries(type), seriesPrefix, itemCodes]);
  const partner = checkPartner(read.partner, input.partnerCode, "customer");
  const target = input.creditedInvoiceId ? await creditTarget(trx, company.id, input.creditedInvoiceId, input.partnerCode, input.currency) : undefined;
  const issueDate = input.issueDate ?? todayInVilnius();
  const dueDate = input.dueDate ?? addDays(issueDate, partner.payment_term_days);
  dueDateProblem(issueDate, dueDate);
  const currency = input.currency ?? target?.currency ?? company.invoiceCurrency;
  if (read.other_type_prefix) throw prefixInUse(SERIES[type], seriesPrefix, read.other_type_prefix as SeriesType);
  const supplyDate = resolveSupplyDate("sales", input.supplyDate, null, issueDate, target && taxPointOf(target));
  const triangular = noteTriangular(target, input.triangular) ?? input.triangular ?? false;
  const resolved = await resolveSaleLines(
    trx,
    company,
    { type, buyer: partner, companyVatCode: read.company_vat_code, triangular },
    input.lines,
    supplyDate ?? issueDate,
    currency,
    target,
    read.items,
  );
  const id = randomUUID();
  const draft = {
    company_id: company.id,
    id,
    type,
    series_prefix: seriesPrefix,
    partner_code: input.partnerCode,
    issue_date: issueDate,
    supply_date: supplyDate,
    due_date: dueDate,
    currency,
    notes: input.notes ?? null,
    credited_invoice_id: target?.id ?? null,
    triangular: String(triangular),
    ...saleTotalsColumns(resolved.totals, read.company_vat_code),
  };
  const { text, values } = draftWriteStatement(draft, resolved.lines, auditRecordOf(audit, { targetIds: [id] }));
  const [row] = await commitBehindLastStatement(trx, () =>
    preparedQuery<SaleInvoicesRow & { written_lines: SaleLine[] }>(trx, "sale_draft_write", text, values),
  );
  const { written_lines, ...written } = row;
  // The response is built from what was written: no read back.
  return saleInvoiceToApi(written, written_lines, partner);
}

export async function getSaleInvoice(db: Db, companyId: string, id: string): Promise<SaleInvoice> {
  const [invoice] = await withSendState(db, companyId, [await toApi(db, companyId, await findInvoice(db, companyId, id))]);
  return invoice;
}

/**
 * Documents with their e-mail state (`sales/invoices/send`, table sale_invoice_sends): `sentAt`, the latest time the
 * SMTP server accepted one of their e-mails, and `lastSendStatus`, the status of their latest send. Read from the
 * sends in one statement for the documents given (only an issued document is ever sent).
 */
export async function withSendState(db: Db, companyId: string, invoices: SaleInvoice[]): Promise<SaleInvoice[]> {
  const issued = invoices.filter((i) => i.status !== "draft").map((i) => i.id);
  if (!issued.length) return invoices;
  const { rows } = (await db.raw(
    `select invoice_id, (array_agg(status order by created_at desc, id desc))[1] as last_status, max(sent_at) as sent_at
       from sale_invoice_sends where company_id = ? and invoice_id = any(?::uuid[]) group by invoice_id`,
    [companyId, issued],
  )) as { rows: { invoice_id: string; last_status: SaleInvoice["lastSendStatus"]; sent_at: Date | null }[] };
  const state = new Map(rows.map((r) => [r.invoice_id, r]));
  return invoices.map((i) => {
    const s = state.get(i.id);
    return s ? { ...i, sentAt: s.sent_at ? s.sent_at.toISOString() : null, lastSendStatus: s.last_status } : i;
  });
}

export async function updateSaleInvoice(trx: Db, company: CompanyContext, input: UpdateInput): Promise<SaleInvoice> {
  const current = await findInvoice(trx, company.id, input.id, true);
  if (current.status !== "draft") throw notDraft(current);
  const partnerCode = input.partnerCode ?? current.partner_code;
  const partner = await loadPartner(trx, company.id, partnerCode, "customer");
  const target = current.credited_invoice_id
    ? await creditTarget(trx, company.id, current.credited_invoice_id, partnerCode, input.currency ?? current.currency)
    : undefined;
  const issueDate = input.issueDate ?? current.issue_date;
  const dueDate = input.dueDate ?? current.due_date;
  dueDateProblem(issueDate, dueDate);
  const currency = input.currency ?? current.currency;
  const type = current.type as SaleType;
  if (input.seriesPrefix !== undefined) await refusePrefixOfOtherType(trx, company.id, SERIES[type], input.seriesPrefix);
  const supplyDate = resolveSupplyDate("sales", input.supplyDate, current.supply_date, issueDate, target && taxPointOf(target));
  const triangular = noteTriangular(target, input.triangular) ?? input.triangular ?? current.triangular;
  const companyVatCode = await companyVatCodeOf(trx, company.id);
  const changes: Record<string, unknown> = {
    partner_code: partnerCode,
    issue_date: issueDate,
    supply_date: supplyDate,
    due_date: dueDate,
    currency,
    series_prefix: input.seriesPrefix ?? current.series_prefix,
    triangular,
    ...(input.notes !== undefined ? { notes: input.notes } : {}),
  };
  // Lines are checked again whenever what they are checked against changes: the VAT at the tax point, the currency.
  const lineInputs = input.lines ?? (await linesOf(trx, LINES, company.id, [current.id])).get(current.id)!.map(storedLineInput);
  const resolved = await resolveSaleLines(
    trx,
    company,
    { type, buyer: partner, companyVatCode, triangular },
    lineInputs,
    supplyDate ?? issueDate,
    currency,
    target,
  );
  const [row] = await trx<SaleInvoicesRow>("sale_invoices")
    .where({ company_id: company.id, id: current.id })
    .update({ ...changes, ...saleTotalsColumns(resolved.totals, companyVatCode), updated_at: trx.fn.now() })
    .returning("*");
  return saleInvoiceToApi(row, await writeLines(trx, company.id, row.id, resolved.lines, true), partner);
}

export async function deleteSaleInvoice(trx: Db, companyId: string, id: string): Promise<SaleInvoice> {
  const current = await findInvoice(trx, companyId, id, true);
  if (current.status !== "draft") throw notDraft(current);
  const result = await toApi(trx, companyId, current);
  await trx("sale_invoices").where({ company_id: companyId, id }).delete();
  return result;
}

// What issuing reads, in one round trip: the draft (locked), its lines, its partner, the posting rules it needs, the
// lines' items (to check them again, and for stock), the company's warehouses, and whether the series the document
// would start (the first of its prefix and year) would repeat the numbers of the other sales document type's series
// of that prefix (drafts of both written before either was issued); and what its posting is checked against, so that
// checkPosting reads nothing more. Amounts leave as text (a JSON number is a JS float).
// It also sets the rest of the transaction to generic plans (`plan_cache_mode`, transaction-local): the numbering
// statement, prepared once per connection, was planned anew at every call (a custom plan: 0.6 ms of the server's time
// on PostgreSQL 15, kept because the generic plan's estimates for its arrays' rows are higher) though its generic plan
// runs as fast; the other statements after this one are lookups by key (the posting context, the stock functions'
// own statements) whose generic plans are the custom ones. Statements sent unnamed (DATABASE_POOLING=transaction)
// are planned at every call whatever this says.
const ISSUE_RULES: PostingRuleName[] = ["sales.revenue", "sales.receivable", "sales.vatPayable", "inventory.costOfSales", "inventory.stock"];
interface IssueRead extends SaleInvoicesRow {
  read_lines: SaleLine[];
  read_partner: Omit<PartnerRow, "is_supplier">;
  /** The company's account of each posting rule it set, by rule. */
  read_rules: Partial<Record<PostingRuleName, string>>;
  read_items: Record<string, { type: "product" | "service"; active: boolean }>;
  read_warehouses: { id: string; code: string; is_default: boolean }[];
  /** The other document type's series that numbers from the prefix, when this document would start its own. */
  read_prefix_in_use: SeriesType | null;
  read_company_vat_code: string | null;
  read_accounts: [string, boolean][];
  read_locked: boolean;
  read_plan_mode: string;
}
const ISSUE_READ_SQL = `
  select i.*,
         (select coalesce(json_agg(${LINE_AS_JSON} order by l.line_no), '[]')
            from sale_invoice_lines l where l.company_id = i.company_id and l.invoice_id = i.id) as read_lines,
         (select json_build_object('code', p.code, 'name', p.name, 'vat_code', p.vat_code, 'registration_code', p.registration_code, 'country_code', p.country_code,
                   'address', p.address, 'is_private_person', p.is_private_person, 'is_customer', p.is_customer, 'payment_term_days', p.payment_term_days)
            from partners p where p.company_id = i.company_id and p.code = i.partner_code) as read_partner,
         (select coalesce(json_object_agg(r.rule, r.account_code), '{}') from posting_rules r where r.company_id = i.company_id and r.rule = any($3::text[])) as read_rules,
         (select coalesce(json_object_agg(c.code, json_build_object('type', c.type, 'active', c.active)), '{}') from catalog_items c
           where c.company_id = i.company_id
             and c.code in (select l.item_code from sale_invoice_lines l where l.company_id = i.company_id and l.invoice_id = i.id)) as read_items,
         (select coalesce(json_agg(json_build_object('id', w.id, 'code', w.code, 'is_default', w.is_default)), '[]') from warehouses w where w.company_id = i.company_id) as read_warehouses,
         (select min(o.document_type) from number_series o
           where o.company_id = i.company_id and o.prefix = i.series_prefix and o.document_type in ('sale_invoice', 'sale_credit_note', 'sale_debit_note')
             and o.document_type <> 'sale_' || i.type
             and not exists (select 1 from number_series ns where ns.company_id = i.company_id and ns.prefix = i.series_prefix
                                and ns.year = extract(year from i.issue_date)::int and ns.document_type = 'sale_' || i.type)) as read_prefix_in_use,
         (select c.vat_code from companies c where c.id = i.company_id) as read_company_vat_code,
         -- What the posting is checked against (src/ledger/posting.ts, PostingContext): every account it may name (the
         -- rules' accounts, their defaults, the lines' own) and whether the issue date's month is locked.
         (select coalesce(json_agg(json_build_array(a.code, a.is_postable)), '[]') from ledger_accounts a
           where a.company_id = i.company_id
             and (a.code = any($4::text[])
                  or a.code in (select r.account_code from posting_rules r where r.company_id = i.company_id and r.rule = any($3::text[]))
                  or a.code in (select l.revenue_account_code from sale_invoice_lines l where l.company_id = i.company_id and l.invoice_id = i.id))) as read_accounts,
         ledger_month_locked(i.company_id, i.issue_date) as read_locked,
         set_config('plan_cache_mode', 'force_generic_plan', true) as read_plan_mode
    from sale_invoices i
   where i.company_id = $1::uuid and i.id = $2::uuid
     for update of i`;

/**
 * Issues a draft. Order matters for concurrency: the draft row is locked first (a second `issue` of the same
 * draft waits, then finds it issued: 409), then a credited invoice; everything is checked and written that can be
 * without the number, and the series row is taken last, by the one statement that numbers, posts and announces
 * the document and writes the request's audit record (`audit`: src/sales/numbering.ts). That statement is the
 * transaction's last, with COMMIT right behind it: numbers stay consecutive, a rollback gives the number back, and
 * the series is locked for that statement and the commit only.
 */
export async function issueSaleInvoice(trx: Db, company: CompanyContext, keyId: string, id: string, audit: AuditNote): Promise<SaleInvoice> {
  const [read] = await preparedQuery<IssueRead>(trx, "sale_issue_read", ISSUE_READ_SQL, [
    company.id,
    id,
    ISSUE_RULES,
    ISSUE_RULES.map((r) => POSTING_RULES[r].defaultAccountCode),
  ]);
  if (!read) throw notFound("The sales invoice", "sale_invoice.not_found", { id });
  const {
    read_lines,
    read_partner: livePartner,
    read_rules: rules,
    read_items: items,
    read_warehouses: warehouses,
    read_prefix_in_use,
    read_company_vat_code,
    read_accounts,
    read_locked,
    read_plan_mode: _,
    ...draft
  } = read;
  const lines = read_lines;
  if (draft.status !== "draft") throw notDraft(draft);
  const type = draft.type as SaleType;
  if (read_prefix_in_use) throw prefixInUse(SERIES[type], draft.series_prefix, read_prefix_in_use);
  const ruleAccount = (name: PostingRuleName): string => rules[name] ?? POSTING_RULES[name].defaultAccountCode;
  const isCredit = type === "credit_note";
  const gross = new Decimal(draft.gross_total);
  // A credit or debit note names the invoice it corrects (check sale_invoices_credit_note_target).
  const target = isNote(type) ? await creditTarget(trx, company.id, draft.credited_invoice_id!, draft.partner_code, draft.currency, true) : undefined;
  if (target && isCredit) {
    const credited = new Decimal(target.credited_amount).plus(gross);
    if (credited.greaterThan(target.gross_total)) {
      throw unprocessable(
        `Crediting ${money(gross)} ${draft.currency} would credit ${money(credited)} of the invoice ${target.number}, whose gross is ${money(target.gross_total)}.`,
        "sale_invoice.credit_exceeds_gross",
        { creditedInvoiceId: target.id, grossTotal: money(target.gross_total), creditedAmount: money(target.credited_amount), requested: money(gross) },
      );
    }
  }
  // The partner is a customer still (the foreign key keeps it from disappearing under the draft).
  if (!livePartner.is_customer) {
    throw unprocessable(`The partner ${draft.partner_code} is not marked as a customer (isCustomer: false).`, "sale_invoice.partner_not_customer", {
      partnerCode: draft.partner_code,
    });
  }
  const partner = livePartner as PartnerRow;
  // The lines were resolved when the draft was written (create, update) against its tax point and currency, which
  // only an update changes; what may have changed since is checked again: its items (deactivated meanwhile), the
  // VAT classifiers (against the reference data and, for a credit note, the credited invoice's pairs). The posting
  // function checks the accounts once more (a header account, a deleted one: 422 sale_invoice.posting_rejected),
  // and taking or returning stock checks the goods.
  await checkLinesAtIssue(trx, company, { draft, companyVatCode: read_company_vat_code, buyer: partner }, lines, items, target);
  const totals = computeTotals(
    lines.map((l) => ({
      quantity: l.quantity,
      unitPrice: l.unit_price,
      discountPercent: l.discount_percent,
      vatRatePercent: l.vat_rate_percent,
      vatClassifier: l.vat_classifier ?? "",
    })),
  );
  const quote = await lookupRate(trx, company.id, draft.currency, draft.issue_date);

  // Credit the revenue per account and the VAT per rate; the receivable is their sum, all converted together.
  const revenueByAccount = new Map<string, Decimal>();
  const [revenueDefault, receivable, vatPayable] = [ruleAccount("sales.revenue"), ruleAccount("sales.receivable"), ruleAccount("sales.vatPayable")];
  lines.forEach((l, i) => {
    const account: string = l.revenue_account_code ?? revenueDefault;
    revenueByAccount.set(account, (revenueByAccount.get(account) ?? new Decimal(0)).plus(totals.lineNets[i]));
  });
  const parts: { accountCode: string; amount: Decimal; description: string }[] = [
    ...[...revenueByAccount.entries()].map(([accountCode, amount]) => ({ accountCode, amount, description: "Revenue" })),
    ...[...totals.vatByRate.entries()].map(([rate, amount]) => ({ accountCode: vatPayable, amount, description: `Output VAT ${trimDecimal(rate)}%` })),
  ];
  const rate = new Decimal(quote.rate);
  const converted = convertParts(
    parts.map((p) => p.amount),
    rate,
  );
  if (converted.total.isZero()) {
    throw unprocessable(`The ${TYPE_NAME[type]} totals 0.00 EUR; there is nothing to issue.`, "sale_invoice.nothing_to_post", { id });
  }

  const foreign = draft.currency !== "EUR";
  const currencyOf = (amount: Decimal) => (foreign ? { currency: draft.currency, currencyAmount: amount.toFixed(2), rate: quote.rate } : {});
  // An invoice (and a debit note) debits the receivable and credits revenue and VAT; a credit note the opposite.
  const [toSide, fromSide] = isCredit ? (["credit", "debit"] as const) : (["debit", "credit"] as const);
  // Goods leave stock FIFO (or come back, on a credit note's return lines) before the number is taken; their cost
  // joins the posting (src/inventory/invoices.ts).
  const stockAccounts: [string, string] = [ruleAccount("inventory.costOfSales"), ruleAccount("inventory.stock")];
  // A debit note corrects an amount: no goods move.
  const stock =
    type === "debit_note"
      ? undefined
      : isCredit
        ? await returnSaleStock(
            trx,
            company.id,
            keyId,
            { id: draft.id, issue_date: draft.issue_date, credited_invoice_id: draft.credited_invoice_id! },
            lines.filter((l) => l.return_to_stock) as Parameters<typeof returnSaleStock>[4],
            { warehouses, accounts: stockAccounts },
          )
        : await takeSaleStock(trx, company.id, keyId, { id: draft.id, issue_date: draft.issue_date }, lines, {
            products: Object.keys(items).filter((code) => items[code].type === "product"),
            warehouses,
            accounts: stockAccounts,
          });
  const posting = (documentNumber: string): PostingRequest => ({
    companyId: company.id,
    date: draft.issue_date,
    description: `Sales ${TYPE_NAME[type]} ${documentNumber}, ${partner.name}`,
    reference: documentNumber,
    documentType: "sale_invoice",
    source: { type: SERIES[type], id },
    entries: [
      {
        accountCode: receivable,
        [toSide]: converted.total.toFixed(2),
        partnerCode: draft.partner_code,
        ...currencyOf(new Decimal(draft.gross_total)),
        description: documentNumber,
      },
      ...parts.flatMap((p, i) =>
        converted.parts[i].isZero() || p.amount.isZero()
          ? []
          : [{ accountCode: p.accountCode, [fromSide]: converted.parts[i].toFixed(2), ...currencyOf(p.amount), description: p.description }],
      ),
      ...(stock?.entries ?? []),
    ],
    createdByKeyId: keyId,
    conversion: "within_a_cent",
  });
  // The posting is checked before the number is taken: the series row stays locked from then until commit, and every
  // other issue of the series waits for it, so only the writes happen while it is held.
  // A posting rule pointing at an account that no longer exists or takes no postings is the company's setup.
  const rejected = (error: unknown) => {
    if (error instanceof ApiError && error.key === "journal.lines_rejected") {
      throw new ApiError("unprocessable", `The document cannot be posted: ${error.message} Check the posting rules (ledger/posting-rules/list).`, {
        key: "sale_invoice.posting_rejected",
        params: { id },
        fieldErrors: error.fieldErrors,
      });
    }
    throw error;
  };
  const ph = placeholders();
  const request = posting(ph.number);
  const checked = await checkPosting(trx, request, { accounts: read_accounts, partners: [draft.partner_code], locked: read_locked }).catch(rejected);

  // A credit note lowers what is left to pay on its invoice; what the buyer had paid beyond that is owed back.
  // (The credited invoice is locked since creditTarget; this is written before the number is taken.)
  let outstanding = isCredit ? new Decimal(0) : gross;
  if (target && isCredit) {
    const before = new Decimal(target.outstanding);
    const applied = Decimal.min(before, gross);
    outstanding = gross.minus(applied);
    const left = before.minus(applied);
    const paidInFull = new Decimal(target.paid_amount).equals(target.gross_total);
    await trx("sale_invoices")
      .where({ company_id: company.id, id: target.id })
      .update({
        credited_amount: new Decimal(target.credited_amount).plus(gross).toFixed(2),
        outstanding: left.toFixed(2),
        status: left.isZero() && !paidInFull ? "credited" : target.status,
        updated_at: trx.fn.now(),
      });
  }
  // The document as it will be once numbered: placeholders where the number, the posting's id and the time go.
  const snapshot = partnerSnapshot(partner);
  const columns = {
    rate: quote.rate,
    rate_source: quote.source,
    rate_date: quote.date,
    gross_total_base: converted.total.toFixed(2),
    outstanding: outstanding.toFixed(2),
  };
  const issued = saleInvoiceToApi(
    {
      ...draft,
      ...columns,
      partner_snapshot: snapshot,
      status: "issued",
      number: ph.number,
      journal_transaction_id: ph.journalId,
      issued_at: null,
      updated_at: draft.updated_at,
    },
    lines,
  );
  issued.issuedAt = ph.createdAt;
  issued.updatedAt = ph.createdAt;
  const stockLink = stock?.plannedLink(ph.journalId);
  const summary = { number: ph.number, type: issued.type, grossTotal: issued.grossTotal, currency: issued.currency };
  const issue: SaleIssue = {
    companyId: company.id,
    documentType: SERIES[type],
    prefix: draft.series_prefix,
    year: Number(String(draft.issue_date).slice(0, 4)),
    invoiceId: id,
    issued: { ...columns, partner_snapshot: snapshot },
    posting: request,
    total: checked.total,
    stockOperationIds: stockLink ? [stockLink.operationId] : [],
    events: [
      {
        type: "journal_transaction.posted",
        data: plannedTransaction(request, checked, { id: ph.journalId, number: ph.journalNumber, createdAt: ph.createdAt }),
      },
      ...(stockLink ? [{ type: "inventory.stock_moved" as const, data: stockLink.event }] : []),
      { type: isCredit ? "sale_invoice.credited" : "sale_invoice.issued", data: issued },
    ],
    audit: auditRecordOf(audit, { targetIds: [id], summary }),
    placeholders: ph,
  };
  // The transaction's last statement, with COMMIT right behind it: the series row it locks is free as soon as the
  // server has committed (src/db/transaction.ts).
  return fillIn(issued, ph, await commitBehindLastStatement(trx, () => finishSaleIssue(trx, issue)));
}

/**
 * What issuing checks again of a draft's lines (src/invoicing/vat.ts, the catalog): each item exists and is active
 * still, each rate and classifier is valid at the tax point and fits a sale, and a credit note carries only its
 * invoice's pairs. 422 as at create, naming the line's field.
 */
async function checkLinesAtIssue(
  db: Db,
  company: CompanyContext,
  { draft, companyVatCode, buyer }: { draft: SaleInvoicesRow; companyVatCode: string | null; buyer: Buyer },
  lines: SaleLine[],
  items: Record<string, { active: boolean }>,
  target?: SaleInvoicesRow,
) {
  const errors: FieldErrors = {};
  const keys: Record<string, string> = {};
  const fail = (path: string, key: string, message: string) => {
    (errors[path] ??= []).push(message);
    keys[path] ??= key;
  };
  lines.forEach((l, i) => {
    if (l.item_code === null) return;
    const item = items[l.item_code];
    if (!item) fail(`lines[${i}].itemCode`, "sale_invoice.item_unknown", `item ${l.item_code} does not exist`);
    else if (!item.active) fail(`lines[${i}].itemCode`, "sale_invoice.item_inactive", `item ${l.item_code} is not active any more`);
  });
  throwRuleFailures(errors, keys, "sale_invoice.invalid_lines");
  const vatLines = lines.map((l) => ({ vatRatePercent: l.vat_rate_percent, vatClassifier: l.vat_classifier }));
  // A company that is not a VAT payer (or no longer one) charges no VAT; checkSaleVat refuses a line that does.
  if (companyVatCode !== null) {
    const creditedPairs = target ? await vatPairsOf(db, LINES, company.id, target.id) : undefined;
    const vat = await checkLinesVat(
      db,
      { countryCode: company.countryCode, date: taxPointOf(draft), document: "sale", prefix: "sale_invoice", creditedPairs },
      vatLines,
    );
    for (const p of vat.problems) fail(`lines[${p.index}].${p.field}`, p.key, p.message);
    throwRuleFailures(errors, keys, "sale_invoice.invalid_lines");
  }
  checkSaleVat(
    { companyVatCode, companyCountry: company.countryCode, buyer, note: target !== undefined, triangular: draft.triangular },
    vatLines.map((l) => ({ vatRatePercent: l.vatRatePercent, vatClassifier: l.vatClassifier })),
  );
}

const OVERDUE = `(status in ('issued', 'partially_paid') and outstanding > 0 and due_date < (now() at time zone 'Europe/Vilnius')::date)`;

const listSpec: ListSpec = {
  fields: {
    id: { column: "id", type: "uuid", sort: false },
    number: { column: "number", type: "string" },
    type: { column: "type", type: "string" },
    status: { column: "status", type: "string" },
    partnerCode: { column: "partner_code", type: "string" },
    seriesPrefix: { column: "series_prefix", type: "string" },
    currency: { column: "currency", type: "string" },
    issueDate: { column: "issue_date", type: "date" },
    supplyDate: { column: "coalesce(supply_date, issue_date)", type: "date" },
    dueDate: { column: "due_date", type: "date" },
    netTotal: { column: "net_total", type: "decimal", total: true },
    vatTotal: { column: "vat_total", type: "decimal", total: true },
    grossTotal: { column: "gross_total", type: "decimal", total: true },
    outstanding: { column: "outstanding", type: "decimal", total: true },
    overdue: { column: OVERDUE, type: "boolean", sort: false },
    triangular: { column: "triangular", type: "boolean", sort: false },
    createdAt: { column: "created_at", type: "timestamp" },
  },
  tieBreaker: "id",
  defaultSort: [
    { field: "issueDate", dir: "desc" },
    { field: "createdAt", dir: "desc" },
  ],
};

export async function listSaleInvoices(db: Db, companyId: string, request: ListRequest) {
  const result = await listDocuments(db, companyId, { documents: "sale_invoices", lines: "sale_invoice_lines" }, listSpec, request, saleInvoiceToApi);
  return { ...result, rows: await withSendState(db, companyId, result.rows) };
}
