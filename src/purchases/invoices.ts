// Purchase invoices and credit notes: the supplier's documents as the company records them. `register` posts a
// draft through the one posting function in the caller's transaction: the cost per account, deductible input VAT,
// the payable; a reverse-charge document also self-assesses the VAT (input and output), so the payable is the net.
// Non-deductible VAT goes to the `purchases.vatNonDeductible` rule's account (an expense, or an asset account for a
// company that capitalises it); reverse-charge VAT to the `purchases.reverseChargeVat*` rules' accounts.
import type { components } from "../../generated/types.js";
import type { CompanyContext } from "../auth/principal.js";
import type { Db } from "../db/connection.js";
import type { PurchaseInvoiceLinesRow, PurchaseInvoicesRow } from "../db/rows.js";
import { uniqueViolation } from "../db/transaction.js";
import { Decimal, formatDecimal, trimDecimal } from "../shared/decimal.js";
import { lookupRate } from "../reference/index.js";
import { accountsForRules } from "../ledger/index.js";
import { EU_MEMBER_STATES, classifierRows, standardRate } from "../reference/index.js";
import { ApiError, conflict, notFound, unprocessable } from "../shared/errors.js";
import { emitEvent } from "../events/index.js";
import { receivePurchaseStock } from "../inventory/index.js";
import { post, type PostingEntry } from "../ledger/index.js";
import type { ListRequest, ListSpec } from "../shared/list-engine.js";
import {
  addDays,
  breakdownToApi,
  linesOf,
  loadPartner,
  partnerSnapshot,
  resolveLines,
  resolveSupplyDate,
  storedLineInput,
  taxPointOf,
  vatPairsOf,
  totalsColumns,
  type DocumentLine,
  type LineInput,
  type PartnerRow,
  type StoredLine,
  listDocuments,
  documentById,
  documentToApi,
} from "../invoicing/index.js";
import { convertParts, type Totals } from "../invoicing/index.js";
import { splitByWeights } from "../shared/weights.js";

export type PurchaseInvoice = components["schemas"]["Purchases.PurchaseInvoice"];
type CreateInput = components["schemas"]["Purchases.PurchaseInvoiceCreateRequest"];
type UpdateInput = components["schemas"]["Purchases.PurchaseInvoiceUpdateRequest"];
type VatTreatment = PurchaseInvoice["vatTreatment"];
type CustomsInput = components["schemas"]["Purchases.CustomsDeclarationInput"];

const LINES = "purchase_invoice_lines";
const money = (v: Decimal | string) => formatDecimal(v, "money");
/** Whether the supplier charged the VAT on the document (only `standard`); otherwise the document's VAT is 0. */
const charged = (t: VatTreatment) => (t === "standard" ? "charged" : "none");

export function purchaseInvoiceToApi(row: PurchaseInvoicesRow, lines: StoredLine<PurchaseInvoiceLinesRow>[], livePartner?: PartnerRow): PurchaseInvoice {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    documentNumber: row.document_number,
    partnerCode: row.partner_code,
    partner: (row.partner_snapshot as PurchaseInvoice["partner"] | null) ?? partnerSnapshot(livePartner!),
    documentDate: row.document_date,
    accountingDate: row.accounting_date,
    supplyDate: row.supply_date ?? row.document_date,
    dueDate: row.due_date,
    currency: row.currency,
    vatTreatment: row.vat_treatment,
    // Set together, when the document is issued or registered.
    rate: row.rate === null ? null : { rate: trimDecimal(row.rate), source: row.rate_source!, date: row.rate_date! },
    creditedInvoiceId: row.credited_invoice_id,
    customs:
      row.customs_vat === null
        ? null
        : {
            declarationNumber: row.customs_declaration_number,
            declarationDate: row.customs_declaration_date,
            vatAmount: money(row.customs_vat),
            customsValue: row.customs_value === null ? null : money(row.customs_value),
          },
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
      expenseAccountCode: l.expense_account_code,
      warehouseCode: l.warehouse_code ?? null,
      lotNumber: l.lot_number ?? null,
      serials: l.serials ?? null,
      vatDeductible: l.vat_deductible,
      netAmount: money(l.net_amount),
    })),
    registeredAt: row.registered_at === null ? null : new Date(row.registered_at).toISOString(),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

const notDraft = (row: Pick<PurchaseInvoicesRow, "id" | "document_number" | "status">) =>
  conflict(
    `The purchase document ${row.document_number} is registered; a registered document never changes (a correction is a credit note).`,
    "purchase_invoice.not_draft",
    {
      id: row.id,
      documentNumber: row.document_number,
      status: row.status,
    },
  );

const numberTaken = (partnerCode: string, documentNumber: string) =>
  conflict(`The document ${documentNumber} of ${partnerCode} is recorded already.`, "purchase_invoice.document_number_taken", { partnerCode, documentNumber });

const findDocument = (db: Db, companyId: string, id: string, forUpdate = false) =>
  documentById(db, "purchase_invoices", companyId, id, forUpdate, () => notFound("The purchase invoice", "purchase_invoice.not_found", { id }));

const toApi = (db: Db, companyId: string, row: PurchaseInvoicesRow): Promise<PurchaseInvoice> => documentToApi(db, LINES, companyId, row, purchaseInvoiceToApi);

/** The invoice a credit or debit note corrects: registered, an invoice, same partner, currency and VAT treatment. */
async function creditTarget(
  db: Db,
  companyId: string,
  id: string,
  partnerCode: string,
  currency: string | undefined,
  treatment: VatTreatment | undefined,
  forUpdate = false,
): Promise<PurchaseInvoicesRow> {
  const target = await documentById(db, "purchase_invoices", companyId, id, forUpdate, () =>
    notFound("The credited invoice", "purchase_invoice.not_found", { id }),
  );
  const problem =
    target.type !== "invoice"
      ? `is a ${target.type.replace("_", " ")}; correct the invoice itself`
      : target.status === "draft"
        ? "is a draft; only a registered invoice can be credited"
        : target.partner_code !== partnerCode
          ? `belongs to partner ${target.partner_code}, not ${partnerCode}`
          : currency !== undefined && target.currency !== currency
            ? `is in ${target.currency}, not ${currency}`
            : treatment !== undefined && target.vat_treatment !== treatment
              ? `has VAT treatment ${target.vat_treatment}, not ${treatment}: a credit note corrects it as it was`
              : undefined;
  if (problem) throw unprocessable(`The invoice ${target.document_number} ${problem}.`, "purchase_invoice.credit_target_invalid", { creditedInvoiceId: id });
  return target;
}

/** The supplier's country: the partner's, else its VAT code's prefix (Greece's EL is GR). */
const supplierCountry = (p: PartnerRow): string | null =>
  p.country_code ?? (p.vat_code ? (p.vat_code.slice(0, 2) === "EL" ? "GR" : p.vat_code.slice(0, 2)) : null);

/**
 * A purchase document's lines at its tax point. Import and exempt documents carry no VAT: their lines default to 0%
 * and may not say otherwise. A reverse-charge document self-assesses at the company's standard rate on the tax
 * point date: its lines default to it and may not say otherwise, and carry reverse-charge classifiers (by default
 * the one the supplier's country and the item's type name). A credit note carries its invoice's pairs only.
 */
async function resolvePurchaseLines(
  db: Db,
  company: CompanyContext,
  inputs: LineInput[],
  doc: { taxPointDate: string; currency: string; treatment: VatTreatment; partner: PartnerRow; target?: PurchaseInvoicesRow },
) {
  const { taxPointDate, currency, treatment } = doc;
  // A line received into stock debits the stock account, so it names no expense account.
  const both = inputs.flatMap((l, i) => (l.warehouseCode !== undefined && l.expenseAccountCode !== undefined ? [i] : []));
  if (both.length) {
    throw new ApiError(
      "unprocessable",
      `Line ${both[0] + 1} is received into stock, which posts to the inventory.stock account: leave out expenseAccountCode.`,
      {
        key: "purchase_invoice.warehouse_and_account",
        fieldErrors: Object.fromEntries(
          both.map((i) => [`lines[${i}].warehouseCode`, ["a line received into stock posts to the inventory.stock account: leave out expenseAccountCode"]]),
        ),
      },
    );
  }
  const noVat = treatment === "import" || treatment === "exempt";
  const bad = noVat ? inputs.findIndex((l) => l.vatRatePercent !== undefined && !new Decimal(l.vatRatePercent).isZero()) : -1;
  if (bad >= 0) {
    throw new ApiError("unprocessable", `A document of VAT treatment ${treatment} carries no VAT; line ${bad + 1} has ${inputs[bad].vatRatePercent}%.`, {
      key: "purchase_invoice.vat_not_applicable",
      params: { vatTreatment: treatment },
      fieldErrors: { [`lines[${bad}].vatRatePercent`]: [`must be 0 on a ${treatment} document`] },
    });
  }
  let lines = noVat ? inputs.map((l) => ({ ...l, vatRatePercent: l.vatRatePercent ?? "0" })) : inputs;
  if (treatment === "reverse_charge") {
    // A triangular-trade line (PVM42, kind `triangular`): the intermediary's acquisition from an EU VAT payer, on
    // which it self-assesses nothing (Directive 2006/112/EC Art. 141, 197): 0% by default, its classifier's rate is
    // checked as any other's; only from a VAT payer of another EU state.
    const triangularCodes = new Set((await classifierRows(db, company.countryCode)).filter((r) => r.kind === "triangular").map((r) => r.code));
    const triangular = (l: LineInput) => l.vatClassifier !== undefined && triangularCodes.has(l.vatClassifier);
    const country = supplierCountry(doc.partner);
    const notEuPayer = !doc.partner.vat_code || !country || country === company.countryCode || !EU_MEMBER_STATES.has(country);
    const misplaced = notEuPayer ? inputs.findIndex(triangular) : -1;
    if (misplaced >= 0) {
      throw new ApiError(
        "unprocessable",
        `${inputs[misplaced].vatClassifier} is an acquisition for triangular trade from a VAT payer of another EU state; ${doc.partner.code} is not one.`,
        {
          key: "purchase_invoice.triangular_supplier_invalid",
          params: { partnerCode: doc.partner.code, vatCode: doc.partner.vat_code, countryCode: country },
          fieldErrors: {
            [`lines[${misplaced}].vatClassifier`]: [
              `needs a supplier with the VAT code of another EU state (${doc.partner.code} has ${doc.partner.vat_code ?? "none"}, country ${country ?? "unknown"})`,
            ],
          },
        },
      );
    }
    const standard = await standardRate(db, taxPointDate, company.countryCode);
    const other =
      standard === undefined
        ? -1
        : inputs.findIndex((l) => !triangular(l) && l.vatRatePercent !== undefined && !new Decimal(l.vatRatePercent).equals(standard));
    if (other >= 0) {
      throw new ApiError(
        "unprocessable",
        `A reverse-charge purchase self-assesses VAT at the standard rate ${standard}% of ${taxPointDate}; line ${other + 1} has ${inputs[other].vatRatePercent}%.`,
        {
          key: "purchase_invoice.reverse_charge_rate",
          params: { standardRatePercent: standard, taxPointDate },
          fieldErrors: { [`lines[${other}].vatRatePercent`]: [`must be ${standard}, the standard rate on ${taxPointDate}, or left out`] },
        },
      );
    }
    if (standard !== undefined) lines = inputs.map((l) => ({ ...l, vatRatePercent: l.vatRatePercent ?? (triangular(l) ? "0" : standard) }));
  }
  const creditedPairs = doc.target ? await vatPairsOf(db, LINES, company.id, doc.target.id) : undefined;
  const resolved = await resolveLines(
    db,
    company,
    "purchases",
    lines,
    { taxPointDate, document: `purchase_${treatment}`, supplierCountry: supplierCountry(doc.partner), creditedPairs, creditNote: doc.target !== undefined },
    currency,
  );
  return resolved;
}

async function writeLines(trx: Db, companyId: string, invoiceId: string, lines: DocumentLine[]): Promise<void> {
  await trx(LINES).where({ company_id: companyId, invoice_id: invoiceId }).delete();
  await trx(LINES).insert(
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
      expense_account_code: l.accountCode,
      warehouse_code: l.warehouseCode,
      lot_number: l.lotNumber,
      serials: l.serials,
      vat_deductible: l.vatDeductible,
      net_amount: l.netAmount.toFixed(2),
    })),
  );
}

function checkDates(documentDate: string, dueDate: string): void {
  if (dueDate < documentDate) {
    throw unprocessable(`The due date ${dueDate} is before the document date ${documentDate}.`, "purchase_invoice.due_before_document", {
      documentDate,
      dueDate,
    });
  }
}

/**
 * The accounting date a draft stores: the one sent, else (left out) the one kept unless it followed the old document
 * date, else the document date. Never before the document date (422 `purchase_invoice.accounting_date_invalid`), and
 * in a month still open (422 `period.locked`, the ledger's key of a locked month, here naming the field: the draft
 * could never be registered there). Both name `accountingDate`.
 */
async function resolveAccountingDate(
  db: Db,
  companyId: string,
  sent: string | null | undefined,
  documentDate: string,
  kept?: { accountingDate: string; documentDate: string },
): Promise<string> {
  const date = sent ?? (sent === undefined && kept && kept.accountingDate !== kept.documentDate ? kept.accountingDate : documentDate);
  if (date < documentDate) {
    throw new ApiError("unprocessable", `The accounting date ${date} is before the document date ${documentDate}.`, {
      key: "purchase_invoice.accounting_date_invalid",
      params: { documentDate, accountingDate: date },
      fieldErrors: { accountingDate: [`${date} is before the document date ${documentDate}: a document is accounted for on or after its date`] },
    });
  }
  const [{ locked }] = (await db.raw("select ledger_month_locked(?::uuid, ?::date) as locked", [companyId, date])).rows as { locked: boolean }[];
  if (locked) {
    const month = date.slice(0, 7);
    throw new ApiError("unprocessable", `The period ${month} is locked; the document cannot be accounted for on ${date}.`, {
      key: "period.locked",
      params: { month, accountingDate: date },
      fieldErrors: { accountingDate: [`${month} is locked: account for the document in an open month`] },
    });
  }
  return date;
}

/** The customs columns of a row as the request that would store them again. */
const storedCustoms = (row: PurchaseInvoicesRow): CustomsInput | undefined =>
  row.customs_vat === null
    ? undefined
    : {
        declarationNumber: row.customs_declaration_number ?? undefined,
        declarationDate: row.customs_declaration_date ?? undefined,
        vatAmount: row.customs_vat,
        customsValue: row.customs_value ?? undefined,
      };

/**
 * The customs columns of an `import` invoice (FR0600 boxes 26 and 27): the VAT paid to customs, with the customs
 * declaration's number and date when there is VAT (the document that gives the right to deduct it, PVM įstatymas
 * Art. 64(2)), dated no later than the accounting date, amounts not negative. 422 naming the field.
 */
function customsColumns(customs: CustomsInput | undefined | null, doc: { type: string; treatment: VatTreatment; accountingDate: string }) {
  const none = { customs_declaration_number: null, customs_declaration_date: null, customs_vat: null, customs_value: null };
  if (!customs) return none;
  const refuse = (key: string, field: string, why: string, params: Record<string, unknown> = {}) =>
    new ApiError("unprocessable", `customs: ${why}.`, { key, params, fieldErrors: { [field]: [why] } });
  if (doc.treatment !== "import" || doc.type !== "invoice") {
    throw refuse(
      "purchase_invoice.customs_not_applicable",
      "customs",
      doc.type !== "invoice"
        ? `a ${doc.type.replace("_", " ")} carries no customs declaration: only an import invoice does`
        : `a ${doc.treatment} document carries no customs declaration: only an import invoice (vatTreatment import) does`,
      { vatTreatment: doc.treatment, type: doc.type },
    );
  }
  const vat = new Decimal(customs.vatAmount ?? "0");
  for (const [field, value] of [
    ["vatAmount", vat],
    ["customsValue", customs.customsValue === undefined ? undefined : new Decimal(customs.customsValue)],
  ] as const) {
    if (value?.isNegative()) throw refuse("purchase_invoice.customs_amount_invalid", `customs.${field}`, `must not be negative (${value.toFixed(2)})`);
  }
  if (!vat.isZero()) {
    const missing = (["declarationNumber", "declarationDate"] as const).find((f) => customs[f] === undefined);
    if (missing)
      throw refuse(
        "purchase_invoice.customs_incomplete",
        `customs.${missing}`,
        "is required with customs VAT: the customs declaration is what the VAT is deducted by",
      );
  }
  if (customs.declarationDate !== undefined && customs.declarationDate > doc.accountingDate) {
    throw refuse(
      "purchase_invoice.customs_date_invalid",
      "customs.declarationDate",
      `${customs.declarationDate} is after the accounting date ${doc.accountingDate}: the VAT is accounted for once the declaration exists`,
      { accountingDate: doc.accountingDate },
    );
  }
  return {
    customs_declaration_number: customs.declarationNumber ?? null,
    customs_declaration_date: customs.declarationDate ?? null,
    customs_vat: vat.toFixed(2),
    customs_value: customs.customsValue === undefined ? null : new Decimal(customs.customsValue).toFixed(2),
  };
}

/** Inserts or updates, turning the supplier-number uniqueness into 409. */
async function mapNumberTaken<T>(partnerCode: string, documentNumber: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (uniqueViolation(error) === "purchase_invoices_document_number_key") throw numberTaken(partnerCode, documentNumber);
    throw error;
  }
}

export async function createPurchaseInvoice(trx: Db, company: CompanyContext, input: CreateInput): Promise<PurchaseInvoice> {
  const type = input.type ?? "invoice";
  if ((type !== "invoice") !== (input.creditedInvoiceId !== undefined)) {
    throw unprocessable(
      type !== "invoice"
        ? `A ${type.replace("_", " ")} names the invoice it corrects (creditedInvoiceId).`
        : "Only a credit or debit note names the invoice it corrects.",
      "purchase_invoice.credit_target_invalid",
      {},
    );
  }
  const partner = await loadPartner(trx, company.id, input.partnerCode, "supplier");
  const target = input.creditedInvoiceId
    ? await creditTarget(trx, company.id, input.creditedInvoiceId, input.partnerCode, input.currency, input.vatTreatment)
    : undefined;
  const dueDate = input.dueDate ?? addDays(input.documentDate, partner.payment_term_days);
  checkDates(input.documentDate, dueDate);
  const accountingDate = await resolveAccountingDate(trx, company.id, input.accountingDate, input.documentDate);
  const customs = customsColumns(input.customs, { type, treatment: input.vatTreatment ?? target?.vat_treatment ?? "standard", accountingDate });
  const currency = input.currency ?? target?.currency ?? company.invoiceCurrency;
  const treatment: VatTreatment = input.vatTreatment ?? target?.vat_treatment ?? "standard";
  const supplyDate = resolveSupplyDate("purchases", input.supplyDate, null, input.documentDate, target && taxPointOf(target));
  const resolved = await resolvePurchaseLines(trx, company, input.lines, {
    taxPointDate: supplyDate ?? input.documentDate,
    currency,
    treatment,
    partner,
    target,
  });
  const [row] = await mapNumberTaken(input.partnerCode, input.documentNumber, () =>
    trx<PurchaseInvoicesRow>("purchase_invoices")
      .insert({
        company_id: company.id,
        type,
        partner_code: input.partnerCode,
        document_number: input.documentNumber,
        document_date: input.documentDate,
        accounting_date: accountingDate,
        supply_date: supplyDate,
        due_date: dueDate,
        currency,
        vat_treatment: treatment,
        notes: input.notes ?? null,
        credited_invoice_id: target?.id ?? null,
        ...customs,
        ...totalsColumns(resolved.totals, charged(treatment)),
      })
      .returning("*"),
  );
  await writeLines(trx, company.id, row.id, resolved.lines);
  return toApi(trx, company.id, row);
}

export async function getPurchaseInvoice(db: Db, companyId: string, id: string): Promise<PurchaseInvoice> {
  return toApi(db, companyId, await findDocument(db, companyId, id));
}

export async function updatePurchaseInvoice(trx: Db, company: CompanyContext, input: UpdateInput): Promise<PurchaseInvoice> {
  const current = await findDocument(trx, company.id, input.id, true);
  if (current.status !== "draft") throw notDraft(current);
  const partnerCode = input.partnerCode ?? current.partner_code;
  const partner = await loadPartner(trx, company.id, partnerCode, "supplier");
  const currency = input.currency ?? current.currency;
  const treatment = input.vatTreatment ?? current.vat_treatment;
  const target = current.credited_invoice_id ? await creditTarget(trx, company.id, current.credited_invoice_id, partnerCode, currency, treatment) : undefined;
  const documentDate = input.documentDate ?? current.document_date;
  const dueDate = input.dueDate ?? current.due_date;
  checkDates(documentDate, dueDate);
  const accountingDate = await resolveAccountingDate(trx, company.id, input.accountingDate, documentDate, {
    accountingDate: current.accounting_date,
    documentDate: current.document_date,
  });
  const customs = customsColumns(input.customs === undefined ? storedCustoms(current) : input.customs, { type: current.type, treatment, accountingDate });
  const supplyDate = resolveSupplyDate("purchases", input.supplyDate, current.supply_date, documentDate, target && taxPointOf(target));
  const documentNumber = input.documentNumber ?? current.document_number;
  const lineInputs = input.lines ?? (await linesOf(trx, LINES, company.id, [current.id])).get(current.id)!.map(storedLineInput);
  const resolved = await resolvePurchaseLines(trx, company, lineInputs, { taxPointDate: supplyDate ?? documentDate, currency, treatment, partner, target });
  const [row] = await mapNumberTaken(partnerCode, documentNumber, () =>
    trx<PurchaseInvoicesRow>("purchase_invoices")
      .where({ company_id: company.id, id: current.id })
      .update({
        partner_code: partnerCode,
        document_number: documentNumber,
        document_date: documentDate,
        accounting_date: accountingDate,
        supply_date: supplyDate,
        due_date: dueDate,
        currency,
        vat_treatment: treatment,
        ...customs,
        ...(input.notes !== undefined ? { notes: input.notes } : {}),
        ...totalsColumns(resolved.totals, charged(treatment)),
        updated_at: trx.fn.now(),
      })
      .returning("*"),
  );
  await writeLines(trx, company.id, row.id, resolved.lines);
  return toApi(trx, company.id, row);
}

export async function deletePurchaseInvoice(trx: Db, companyId: string, id: string): Promise<PurchaseInvoice> {
  const current = await findDocument(trx, companyId, id, true);
  if (current.status !== "draft") throw notDraft(current);
  const result = await toApi(trx, companyId, current);
  await trx("purchase_invoices").where({ company_id: companyId, id }).delete();
  return result;
}

interface Part {
  accountCode: string;
  amount: Decimal;
  partnerCode?: string;
  description: string;
}

/**
 * The posting of a purchase document in its own currency, as debit and credit parts of equal sums: cost per
 * account, deductible input VAT, non-deductible VAT, self-assessed output VAT (reverse charge), and the payable.
 * Non-deductible VAT is part of what the line cost: on a line that `capitalises` (its own account is an asset
 * account, e.g. 1230 vehicles: the acquisition cost of a fixed asset includes non-refundable purchase taxes, IAS 16.16(a),
 * VAS 12) it is added to that account; on an expense line it goes to the `purchases.vatNonDeductible` rule's account.
 */
function purchaseParts(
  lines: DocumentLine[],
  totals: Totals,
  treatment: VatTreatment,
  accounts: { expense: string; vatReceivable: string; vatNonDeductible: string; reverseInput: string; reverseOutput: string; payables: string },
  partnerCode: string,
  capitalises: (line: DocumentLine) => boolean,
) {
  const cost = new Map<string, Decimal>();
  const add = (account: string, amount: Decimal) => cost.set(account, (cost.get(account) ?? new Decimal(0)).plus(amount));
  lines.forEach((l) => add(l.accountCode ?? accounts.expense, l.netAmount));
  // VAT that counts: what the supplier charged (standard) or what the company self-assesses (reverse charge).
  const vatApplies = treatment === "standard" || treatment === "reverse_charge";
  let deductible = new Decimal(0);
  let nonDeductible = new Decimal(0);
  if (vatApplies) {
    for (const [rate, vat] of totals.vatByRate) {
      const ofRate = lines.filter((l) => new Decimal(l.vatRatePercent).toFixed(2) === rate);
      // The rate's VAT shared between its lines by net (cent-exact): deductible input VAT or not.
      const shares = splitByWeights(
        vat,
        ofRate.map((l) => l.netAmount),
      );
      ofRate.forEach((l, i) => {
        if (l.vatDeductible) deductible = deductible.plus(shares[i]);
        else if (capitalises(l)) add(l.accountCode!, shares[i]);
        else nonDeductible = nonDeductible.plus(shares[i]);
      });
    }
  }
  const debits: Part[] = [...cost.entries()].map(([accountCode, amount]) => ({ accountCode, amount, description: "Cost" }));
  const reverse = treatment === "reverse_charge";
  if (!deductible.isZero())
    debits.push({
      accountCode: reverse ? accounts.reverseInput : accounts.vatReceivable,
      amount: deductible,
      description: reverse ? "Input VAT (reverse charge)" : "Input VAT",
    });
  if (!nonDeductible.isZero()) debits.push({ accountCode: accounts.vatNonDeductible, amount: nonDeductible, description: "Non-deductible VAT" });
  const credits: Part[] = [];
  if (reverse && !totals.vatTotal.isZero())
    credits.push({ accountCode: accounts.reverseOutput, amount: totals.vatTotal, description: "Output VAT (reverse charge)" });
  const payable = totals.netTotal.plus(treatment === "standard" ? totals.vatTotal : 0);
  credits.unshift({ accountCode: accounts.payables, amount: payable, partnerCode, description: "Payable" });
  return { debits, credits, payable };
}

/**
 * Registers a draft: posts it at the rate of the document date and freezes it. Not in the shape of a sales issue
 * (src/sales/numbering.ts: one last statement that numbers, posts, writes the events and the audit record): a
 * purchase document takes no number of a document series (the supplier's number is its own), so there is no row
 * that every registration waits for, and its posting, stock receipt and event are written by their modules' own
 * statements; the pipeline then writes the audit record, with the summary the handler sets, as for any mutation.
 * (A company with a journal series of the year has that row locked from the posting to the commit, as
 * ledger/journal/transactions/create has.)
 */
export async function registerPurchaseInvoice(trx: Db, company: CompanyContext, keyId: string, id: string): Promise<PurchaseInvoice> {
  const draft = await findDocument(trx, company.id, id, true);
  if (draft.status !== "draft") throw notDraft(draft);
  const isCredit = draft.type === "credit_note";
  const gross = new Decimal(draft.gross_total);
  // A credit or debit note names the invoice it corrects (check purchase_invoices_credit_note_target).
  const target =
    draft.credited_invoice_id !== null
      ? await creditTarget(trx, company.id, draft.credited_invoice_id, draft.partner_code, draft.currency, draft.vat_treatment, true)
      : undefined;
  if (target && isCredit) {
    const credited = new Decimal(target.credited_amount).plus(gross);
    if (credited.greaterThan(target.gross_total)) {
      throw unprocessable(
        `Crediting ${money(gross)} ${draft.currency} would credit ${money(credited)} of the invoice ${target.document_number}, whose gross is ${money(target.gross_total)}.`,
        "purchase_invoice.credit_exceeds_gross",
        { creditedInvoiceId: target.id, grossTotal: money(target.gross_total), creditedAmount: money(target.credited_amount), requested: money(gross) },
      );
    }
  }
  const partner = await loadPartner(trx, company.id, draft.partner_code, "supplier");
  const stored = (await linesOf(trx, LINES, company.id, [id])).get(id)!;
  // Checked again as at create: items, accounts, warehouses, the VAT at the tax point (for a credit note, against
  // its invoice's pairs).
  const resolved = await resolvePurchaseLines(trx, company, stored.map(storedLineInput), {
    taxPointDate: taxPointOf(draft),
    currency: draft.currency,
    treatment: draft.vat_treatment,
    partner,
    target,
  });
  const quote = await lookupRate(trx, company.id, draft.currency, draft.document_date);
  const [expense, vatReceivable, vatNonDeductible, reverseInput, reverseOutput, payables, customsVatPayable] = await accountsForRules(trx, company.id, [
    "purchases.expense",
    "purchases.vatReceivable",
    "purchases.vatNonDeductible",
    "purchases.reverseChargeVatInput",
    "purchases.reverseChargeVatOutput",
    "purchases.payables",
    "purchases.customsVatPayable",
  ]);
  // Lines received into stock debit the stock account instead of an expense (src/inventory/invoices.ts).
  const stockLines = resolved.lines.filter((l) => l.warehouseCode !== null);
  if (stockLines.length && target) {
    const i = resolved.lines.findIndex((l) => l.warehouseCode !== null);
    const note = draft.type.replace("_", " ");
    throw new ApiError(
      "unprocessable",
      `A purchase ${note} moves no stock: goods sent back leave with inventory/stock/write-off or a transfer, and a debit note changes the price, not the goods received.`,
      {
        key: "purchase_invoice.credit_note_stock",
        fieldErrors: { [`lines[${i}].warehouseCode`]: [`not on a ${note}`] },
      },
    );
  }
  const [stockAccount] = stockLines.length ? await accountsForRules(trx, company.id, ["inventory.stock"]) : [];
  const costLines = stockLines.length ? resolved.lines.map((l) => (l.warehouseCode !== null ? { ...l, accountCode: stockAccount } : l)) : resolved.lines;
  // The lines' own asset accounts (a fixed asset's cost): their non-deductible VAT is capitalised. A line received
  // into stock is valued at its net (its layer's value), so its non-deductible VAT stays an expense.
  const ownAccounts = [...new Set(resolved.lines.flatMap((l) => (l.warehouseCode === null && l.accountCode !== null ? [l.accountCode] : [])))];
  const assetAccounts = new Set<string>(
    ownAccounts.length ? await trx("ledger_accounts").where({ company_id: company.id, type: "asset" }).whereIn("code", ownAccounts).pluck("code") : [],
  );
  const capitalises = (l: DocumentLine) =>
    l.warehouseCode === null && l.accountCode !== null && l.accountCode !== stockAccount && assetAccounts.has(l.accountCode);
  const parts = purchaseParts(
    costLines,
    resolved.totals,
    draft.vat_treatment,
    { expense, vatReceivable, vatNonDeductible, reverseInput, reverseOutput, payables },
    draft.partner_code,
    capitalises,
  );
  const rate = new Decimal(quote.rate);
  const debitsEur = convertParts(
    parts.debits.map((p) => p.amount),
    rate,
  );
  const creditsEur = convertParts(
    parts.credits.map((p) => p.amount),
    rate,
  );
  if (debitsEur.total.isZero()) {
    throw unprocessable(`The document totals 0.00 EUR; there is nothing to register.`, "purchase_invoice.nothing_to_post", { id });
  }
  const foreign = draft.currency !== "EUR";
  // An invoice debits cost and VAT and credits the payable; a credit note the opposite.
  const [debitSide, creditSide] = isCredit ? (["credit", "debit"] as const) : (["debit", "credit"] as const);
  const entry = (p: Part, eur: Decimal, side: "debit" | "credit"): PostingEntry[] =>
    eur.isZero() || p.amount.isZero()
      ? []
      : [
          {
            accountCode: p.accountCode,
            [side]: eur.toFixed(2),
            ...(p.partnerCode ? { partnerCode: p.partnerCode } : {}),
            ...(foreign ? { currency: draft.currency, currencyAmount: p.amount.toFixed(2), rate: quote.rate } : {}),
            description: p.description,
          },
        ];
  // The VAT paid to customs on an import invoice, in EUR as the customs declaration states it (not the supplier's
  // currency): input VAT against what is owed to customs (FR0600 box 26).
  const customsVat = new Decimal(draft.customs_vat ?? 0);
  const customsEntries: PostingEntry[] = customsVat.isZero()
    ? []
    : [
        { accountCode: vatReceivable, debit: customsVat.toFixed(2), description: `Import VAT, customs declaration ${draft.customs_declaration_number}` },
        {
          accountCode: customsVatPayable,
          credit: customsVat.toFixed(2),
          description: `Import VAT payable, customs declaration ${draft.customs_declaration_number}`,
        },
      ];
  const entries = [
    ...parts.credits.flatMap((p, i) => entry(p, creditsEur.parts[i], creditSide)),
    ...parts.debits.flatMap((p, i) => entry(p, debitsEur.parts[i], debitSide)),
    ...customsEntries,
  ];
  let transaction: Awaited<ReturnType<typeof post>>;
  try {
    transaction = await post(trx, {
      companyId: company.id,
      // The accounting date: the day the document is accounted for (and declared), on or after its own date.
      date: draft.accounting_date,
      description: `${{ invoice: "Purchase invoice", credit_note: "Purchase credit note", debit_note: "Purchase debit note" }[draft.type]} ${draft.document_number}, ${partner.name}`,
      reference: draft.document_number,
      documentType: "purchase_invoice",
      source: { type: `purchase_${draft.type}`, id },
      entries,
      createdByKeyId: keyId,
      conversion: "within_a_cent",
    });
  } catch (error) {
    if (error instanceof ApiError && error.key === "journal.lines_rejected") {
      throw new ApiError("unprocessable", `The document cannot be posted: ${error.message} Check the posting rules (ledger/posting-rules/list).`, {
        key: "purchase_invoice.posting_rejected",
        params: { id },
        fieldErrors: error.fieldErrors,
      });
    }
    throw error;
  }

  if (stockLines.length) {
    // The stock account's EUR part of the posting, shared between the stock lines by their nets (to the cent).
    const stockPart = parts.debits.findIndex((p) => p.accountCode === stockAccount && p.description === "Cost");
    const onStockAccount = costLines.filter((l) => l.accountCode === stockAccount);
    const shares = splitByWeights(
      debitsEur.parts[stockPart],
      onStockAccount.map((l) => l.netAmount),
    );
    const eurValues = onStockAccount.flatMap((l, i) => (l.warehouseCode !== null ? [shares[i]] : []));
    const received = stockLines.map((l) => ({
      line_no: resolved.lines.indexOf(l) + 1,
      item_code: l.itemCode,
      quantity: l.quantity,
      warehouse_code: l.warehouseCode,
      lot_number: l.lotNumber,
      serials: l.serials,
    }));
    await receivePurchaseStock(trx, company.id, keyId, { id: draft.id, document_date: draft.accounting_date }, received, eurValues, transaction.id);
  }

  // A debit note is owed to the supplier like an invoice; it leaves the invoice it increases as it is.
  let outstanding = isCredit ? new Decimal(0) : gross;
  if (target && isCredit) {
    const before = new Decimal(target.outstanding);
    const applied = Decimal.min(before, gross);
    outstanding = gross.minus(applied);
    const left = before.minus(applied);
    const paidInFull = new Decimal(target.paid_amount).equals(target.gross_total);
    await trx("purchase_invoices")
      .where({ company_id: company.id, id: target.id })
      .update({
        credited_amount: new Decimal(target.credited_amount).plus(gross).toFixed(2),
        outstanding: left.toFixed(2),
        status: left.isZero() && !paidInFull ? "credited" : target.status,
        updated_at: trx.fn.now(),
      });
  }
  const payableEur = creditsEur.parts[0];
  const [row] = await trx<PurchaseInvoicesRow>("purchase_invoices")
    .where({ company_id: company.id, id })
    .update({
      status: "registered",
      partner_snapshot: JSON.stringify(partnerSnapshot(partner)),
      rate: quote.rate,
      rate_source: quote.source,
      rate_date: quote.date,
      gross_total_base: payableEur.toFixed(2),
      outstanding: outstanding.toFixed(2),
      journal_transaction_id: transaction.id,
      registered_at: trx.fn.now(),
      updated_at: trx.fn.now(),
    })
    .returning("*");
  const registered = purchaseInvoiceToApi(row, stored);
  await emitEvent(trx, company.id, "purchase_invoice.registered", registered);
  return registered;
}

const OVERDUE = `(status in ('registered', 'partially_paid') and outstanding > 0 and due_date < (now() at time zone 'Europe/Vilnius')::date)`;

const listSpec: ListSpec = {
  fields: {
    id: { column: "id", type: "uuid", sort: false },
    documentNumber: { column: "document_number", type: "string" },
    type: { column: "type", type: "string" },
    status: { column: "status", type: "string" },
    partnerCode: { column: "partner_code", type: "string" },
    currency: { column: "currency", type: "string" },
    vatTreatment: { column: "vat_treatment", type: "string" },
    documentDate: { column: "document_date", type: "date" },
    accountingDate: { column: "accounting_date", type: "date" },
    supplyDate: { column: "coalesce(supply_date, document_date)", type: "date" },
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
    { field: "documentDate", dir: "desc" },
    { field: "createdAt", dir: "desc" },
  ],
};

export async function listPurchaseInvoices(db: Db, companyId: string, request: ListRequest) {
  return listDocuments(db, companyId, { documents: "purchase_invoices", lines: "purchase_invoice_lines" }, listSpec, request, purchaseInvoiceToApi);
}
