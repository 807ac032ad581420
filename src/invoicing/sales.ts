// Sales invoices and credit notes: drafts that change freely, then `issue`, which numbers the document from its
// series, snapshots the buyer, converts to EUR and posts through the one posting function — all in the caller's
// transaction, so a failure anywhere (a locked month, a missing rate) leaves no number taken and nothing posted.
// The database keeps an issued document as it was issued (trigger invoice_frozen, migration 20261124000101).
import type { components } from "../../generated/types.js";
import type { CompanyContext } from "../auth/principal.js";
import type { Db } from "../db/connection.js";
import { violatedConstraint } from "../db/transaction.js";
import { Decimal, formatDecimal, trimDecimal } from "../decimal.js";
import { lookupRate } from "../domain/exchange-rates.js";
import { accountsForRules } from "../domain/posting-rules.js";
import { ApiError, conflict, notFound, unprocessable } from "../errors.js";
import { emitEvent } from "../events/emit.js";
import { post, type PostingEntry } from "../ledger/posting.js";
import { runList, type ListRequest, type ListSpec } from "../list/engine.js";
import { convertParts } from "./totals.js";
import {
  allocateDocumentNumber,
  breakdownToApi,
  storedLineInput,
  totalsColumns,
  linesOf,
  livePartners,
  loadPartner,
  partnerSnapshot,
  resolveLines,
  todayInVilnius,
  addDays,
  type DocumentLine,
  type PartnerRow,
} from "./documents.js";

export type SaleInvoice = components["schemas"]["Sales.SaleInvoice"];
type CreateInput = components["schemas"]["Sales.SaleInvoiceCreateRequest"];
type UpdateInput = components["schemas"]["Sales.SaleInvoiceUpdateRequest"];

const LINES = "sale_invoice_lines";
const DEFAULT_PREFIX = { invoice: "SF", credit_note: "KS" } as const;
const money = (v: Decimal | string) => formatDecimal(v, "money");

export function saleInvoiceToApi(row: Record<string, any>, lines: Record<string, any>[], livePartner?: PartnerRow): SaleInvoice {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    number: row.number,
    seriesPrefix: row.series_prefix,
    partnerCode: row.partner_code,
    partner: row.partner_snapshot ?? partnerSnapshot(livePartner!),
    issueDate: row.issue_date,
    dueDate: row.due_date,
    currency: row.currency,
    rate: row.rate === null ? null : { rate: trimDecimal(row.rate), source: row.rate_source, date: row.rate_date },
    creditedInvoiceId: row.credited_invoice_id,
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
      netAmount: money(l.net_amount),
    })),
    issuedAt: row.issued_at === null ? null : new Date(row.issued_at).toISOString(),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

const notDraft = (row: Record<string, any>) =>
  conflict(`The ${row.type === "credit_note" ? "credit note" : "invoice"} ${row.number} is issued; an issued document never changes (a correction is a credit note).`, "sale_invoice.not_draft", {
    id: row.id,
    number: row.number,
    status: row.status,
  });

async function findInvoice(db: Db, companyId: string, id: string, forUpdate = false): Promise<Record<string, any>> {
  const query = db("sale_invoices").where({ company_id: companyId, id }).first();
  const row = await (forUpdate ? query.forUpdate() : query);
  if (!row) throw notFound("The sales invoice", "sale_invoice.not_found", { id });
  return row;
}

async function toApi(db: Db, companyId: string, row: Record<string, any>): Promise<SaleInvoice> {
  const [lines, partners] = await Promise.all([linesOf(db, LINES, companyId, [row.id]), livePartners(db, companyId, [row])]);
  return saleInvoiceToApi(row, lines.get(row.id)!, partners.get(row.partner_code));
}

/** The credited invoice of a credit note: issued, an invoice, same partner and currency. */
async function creditTarget(db: Db, companyId: string, id: string, partnerCode: string, currency: string | undefined, forUpdate = false) {
  const query = db("sale_invoices").where({ company_id: companyId, id }).first();
  const target = await (forUpdate ? query.forUpdate() : query);
  if (!target) throw notFound("The credited invoice", "sale_invoice.not_found", { id });
  const problem =
    target.type !== "invoice"
      ? "is a credit note; credit the invoice itself"
      : target.status === "draft"
        ? "is a draft; only an issued invoice can be credited"
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

async function writeLines(trx: Db, companyId: string, invoiceId: string, lines: DocumentLine[]): Promise<void> {
  await trx("sale_invoice_lines").where({ company_id: companyId, invoice_id: invoiceId }).delete();
  await trx("sale_invoice_lines").insert(
    lines.map((l, i) => ({
      company_id: companyId,
      invoice_id: invoiceId,
      line_no: i + 1,
      item_code: l.itemCode,
      description: l.description,
      quantity: l.quantity,
      unit: l.unit,
      unit_price: l.unitPrice,
      discount_percent: l.discountPercent,
      vat_rate_percent: l.vatRatePercent,
      vat_classifier: l.vatClassifier,
      revenue_account_code: l.accountCode,
      net_amount: l.netAmount.toFixed(2),
    })),
  );
}

function dueDateProblem(issueDate: string, dueDate: string): void {
  if (dueDate < issueDate) {
    throw unprocessable(`The due date ${dueDate} is before the issue date ${issueDate}.`, "sale_invoice.due_before_issue", { issueDate, dueDate });
  }
}

export async function createSaleInvoice(trx: Db, company: CompanyContext, input: CreateInput): Promise<SaleInvoice> {
  const type = input.type ?? "invoice";
  if ((type === "credit_note") !== (input.creditedInvoiceId !== undefined)) {
    throw unprocessable(
      type === "credit_note" ? "A credit note names the invoice it credits (creditedInvoiceId)." : "Only a credit note names a credited invoice.",
      "sale_invoice.credit_target_invalid",
      {},
    );
  }
  const partner = await loadPartner(trx, company.id, input.partnerCode, "customer");
  const target = input.creditedInvoiceId ? await creditTarget(trx, company.id, input.creditedInvoiceId, input.partnerCode, input.currency) : undefined;
  const issueDate = input.issueDate ?? todayInVilnius();
  const dueDate = input.dueDate ?? addDays(issueDate, partner.payment_term_days);
  dueDateProblem(issueDate, dueDate);
  const currency = input.currency ?? target?.currency ?? company.invoiceCurrency;
  const resolved = await resolveLines(trx, company, "sales", input.lines, issueDate, currency);
  const [row] = await trx("sale_invoices")
    .insert({
      company_id: company.id,
      type,
      series_prefix: input.seriesPrefix ?? DEFAULT_PREFIX[type],
      partner_code: input.partnerCode,
      issue_date: issueDate,
      due_date: dueDate,
      currency,
      notes: input.notes ?? null,
      credited_invoice_id: target?.id ?? null,
      ...totalsColumns(resolved.totals),
    })
    .returning("*");
  await writeLines(trx, company.id, row.id, resolved.lines);
  return toApi(trx, company.id, row);
}

export async function getSaleInvoice(db: Db, companyId: string, id: string): Promise<SaleInvoice> {
  return toApi(db, companyId, await findInvoice(db, companyId, id));
}

export async function updateSaleInvoice(trx: Db, company: CompanyContext, input: UpdateInput): Promise<SaleInvoice> {
  const current = await findInvoice(trx, company.id, input.id, true);
  if (current.status !== "draft") throw notDraft(current);
  const partnerCode = input.partnerCode ?? current.partner_code;
  if (input.partnerCode !== undefined) await loadPartner(trx, company.id, partnerCode, "customer");
  if (current.credited_invoice_id && (input.partnerCode !== undefined || input.currency !== undefined)) {
    await creditTarget(trx, company.id, current.credited_invoice_id, partnerCode, input.currency ?? current.currency);
  }
  const issueDate = input.issueDate ?? current.issue_date;
  const dueDate = input.dueDate ?? current.due_date;
  dueDateProblem(issueDate, dueDate);
  const currency = input.currency ?? current.currency;
  const changes: Record<string, unknown> = {
    partner_code: partnerCode,
    issue_date: issueDate,
    due_date: dueDate,
    currency,
    series_prefix: input.seriesPrefix ?? current.series_prefix,
    ...(input.notes !== undefined ? { notes: input.notes } : {}),
  };
  // Lines are checked again whenever what they are checked against changes: the VAT at the issue date, the currency.
  const lineInputs = input.lines ?? (await linesOf(trx, LINES, company.id, [current.id])).get(current.id)!.map(storedLineInput);
  const resolved = await resolveLines(trx, company, "sales", lineInputs, issueDate, currency);
  const [row] = await trx("sale_invoices")
    .where({ company_id: company.id, id: current.id })
    .update({ ...changes, ...totalsColumns(resolved.totals), updated_at: trx.fn.now() })
    .returning("*");
  await writeLines(trx, company.id, row.id, resolved.lines);
  return toApi(trx, company.id, row);
}

export async function deleteSaleInvoice(trx: Db, companyId: string, id: string): Promise<SaleInvoice> {
  const current = await findInvoice(trx, companyId, id, true);
  if (current.status !== "draft") throw notDraft(current);
  const result = await toApi(trx, companyId, current);
  await trx("sale_invoices").where({ company_id: companyId, id }).delete();
  return result;
}

/**
 * Issues a draft. Order matters for concurrency: the draft row is locked first (a second `issue` of the same
 * draft waits, then finds it issued: 409), then a credited invoice, then the series row (held until commit, so
 * numbers are consecutive and a rollback gives the number back).
 */
export async function issueSaleInvoice(trx: Db, company: CompanyContext, keyId: string, id: string): Promise<SaleInvoice> {
  const draft = await findInvoice(trx, company.id, id, true);
  if (draft.status !== "draft") throw notDraft(draft);
  const isCredit = draft.type === "credit_note";
  const gross = new Decimal(draft.gross_total);
  const target = isCredit ? await creditTarget(trx, company.id, draft.credited_invoice_id, draft.partner_code, draft.currency, true) : undefined;
  if (target) {
    const credited = new Decimal(target.credited_amount).plus(gross);
    if (credited.greaterThan(target.gross_total)) {
      throw unprocessable(
        `Crediting ${money(gross)} ${draft.currency} would credit ${money(credited)} of the invoice ${target.number}, whose gross is ${money(target.gross_total)}.`,
        "sale_invoice.credit_exceeds_gross",
        { creditedInvoiceId: target.id, grossTotal: money(target.gross_total), creditedAmount: money(target.credited_amount), requested: money(gross) },
      );
    }
  }
  const partner = await loadPartner(trx, company.id, draft.partner_code, "customer");
  const lines = (await linesOf(trx, LINES, company.id, [id])).get(id)!;
  // The VAT and accounts are checked again at issue: a rate valid when the draft was written may not be now.
  const resolved = await resolveLines(trx, company, "sales", lines.map(storedLineInput), draft.issue_date, draft.currency);
  const quote = await lookupRate(trx, company.id, draft.currency, draft.issue_date);

  // Credit the revenue per account and the VAT per rate; the receivable is their sum, all converted together.
  const revenueByAccount = new Map<string, Decimal>();
  const [revenueDefault, receivable, vatPayable] = await accountsForRules(trx, company.id, ["sales.revenue", "sales.receivable", "sales.vatPayable"]);
  resolved.lines.forEach((l) => {
    const account = l.accountCode ?? revenueDefault;
    revenueByAccount.set(account, (revenueByAccount.get(account) ?? new Decimal(0)).plus(l.netAmount));
  });
  const parts: { accountCode: string; amount: Decimal; description: string }[] = [
    ...[...revenueByAccount.entries()].map(([accountCode, amount]) => ({ accountCode, amount, description: "Revenue" })),
    ...[...resolved.totals.vatByRate.entries()].map(([rate, amount]) => ({ accountCode: vatPayable, amount, description: `Output VAT ${trimDecimal(rate)}%` })),
  ];
  const rate = new Decimal(quote.rate);
  const converted = convertParts(
    parts.map((p) => p.amount),
    rate,
  );
  if (converted.total.isZero()) {
    throw unprocessable(`The ${isCredit ? "credit note" : "invoice"} totals 0.00 EUR; there is nothing to issue.`, "sale_invoice.nothing_to_post", { id });
  }

  const number = await allocateDocumentNumber(trx, company.id, isCredit ? "sale_credit_note" : "sale_invoice", draft.series_prefix, draft.issue_date);
  const foreign = draft.currency !== "EUR";
  const currencyOf = (amount: Decimal) => (foreign ? { currency: draft.currency, currencyAmount: amount.toFixed(2), rate: quote.rate } : {});
  // An invoice debits the receivable and credits revenue and VAT; a credit note the opposite.
  const [toSide, fromSide] = isCredit ? (["credit", "debit"] as const) : (["debit", "credit"] as const);
  const entries: PostingEntry[] = [
    { accountCode: receivable, [toSide]: converted.total.toFixed(2), partnerCode: draft.partner_code, ...currencyOf(new Decimal(draft.gross_total)), description: number.number },
    ...parts.flatMap((p, i) =>
      converted.parts[i].isZero() || p.amount.isZero() ? [] : [{ accountCode: p.accountCode, [fromSide]: converted.parts[i].toFixed(2), ...currencyOf(p.amount), description: p.description }],
    ),
  ];
  let transaction;
  try {
    transaction = await post(trx, {
      companyId: company.id,
      date: draft.issue_date,
      description: `${isCredit ? "Sales credit note" : "Sales invoice"} ${number.number}, ${partner.name}`,
      reference: number.number,
      documentType: "sale_invoice",
      source: { type: isCredit ? "sale_credit_note" : "sale_invoice", id },
      entries,
      createdByKeyId: keyId,
      conversion: "within_a_cent",
    });
  } catch (error) {
    // A posting rule pointing at an account that no longer exists or takes no postings is the company's setup.
    if (error instanceof ApiError && error.key === "journal.lines_rejected") {
      throw new ApiError("unprocessable", `The document cannot be posted: ${error.message} Check the posting rules (ledger/posting-rules/list).`, {
        key: "sale_invoice.posting_rejected",
        params: { id },
        fieldErrors: error.fieldErrors,
      });
    }
    throw error;
  }

  // A credit note lowers what is left to pay on its invoice; what the buyer had paid beyond that is owed back.
  let outstanding = isCredit ? new Decimal(0) : gross;
  if (target) {
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
  const [row] = await trx("sale_invoices")
    .where({ company_id: company.id, id })
    .update({
      status: "issued",
      number: number.number,
      series_id: number.seriesId,
      sequence: number.sequence,
      partner_snapshot: JSON.stringify(partnerSnapshot(partner)),
      rate: quote.rate,
      rate_source: quote.source,
      rate_date: quote.date,
      gross_total_base: converted.total.toFixed(2),
      outstanding: outstanding.toFixed(2),
      journal_transaction_id: transaction.id,
      issued_at: trx.fn.now(),
      updated_at: trx.fn.now(),
    })
    .returning("*")
    .catch((error) => {
      if (violatedConstraint(error)?.constraint === "sale_invoices_sequence_key") throw conflict("The number was taken concurrently; retry.", "sale_invoice.number_taken");
      throw error;
    });
  const issued = saleInvoiceToApi(row, lines);
  await emitEvent(trx, company.id, isCredit ? "sale_invoice.credited" : "sale_invoice.issued", issued);
  return issued;
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
    dueDate: { column: "due_date", type: "date" },
    netTotal: { column: "net_total", type: "decimal", total: true },
    vatTotal: { column: "vat_total", type: "decimal", total: true },
    grossTotal: { column: "gross_total", type: "decimal", total: true },
    outstanding: { column: "outstanding", type: "decimal", total: true },
    overdue: { column: OVERDUE, type: "boolean", sort: false },
    createdAt: { column: "created_at", type: "timestamp" },
  },
  tieBreaker: "id",
  defaultSort: [
    { field: "issueDate", dir: "desc" },
    { field: "createdAt", dir: "desc" },
  ],
};

export async function listSaleInvoices(db: Db, companyId: string, request: ListRequest) {
  const result = await runList<Record<string, any>>(db, () => db("sale_invoices").where("company_id", companyId), listSpec, request, ["*"]);
  const [lines, partners] = await Promise.all([
    linesOf(
      db,
      LINES,
      companyId,
      result.rows.map((r) => r.id),
    ),
    livePartners(db, companyId, result.rows),
  ]);
  const rows = result.rows.map((r) => saleInvoiceToApi(r, lines.get(r.id)!, partners.get(r.partner_code)));
  const totals = result.totals && Object.fromEntries(Object.entries(result.totals).map(([k, v]) => [k, money(v)]));
  return { ...result, rows, ...(totals ? { totals } : {}) };
}
