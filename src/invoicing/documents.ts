// What sales and purchase documents share: the partner check and snapshot, the lines resolved against the
// catalog, the chart and the VAT rates of the tax point date, the EN 16931 totals, and a number from a series.
import type { components } from "../../generated/types.js";
import type { CompanyContext } from "../auth/principal.js";
import type { Db } from "../db/connection.js";
import { Decimal, MAX_MONEY, formatDecimal, trimDecimal } from "../decimal.js";
import { allocateNumber, type DocumentType } from "../domain/number-series.js";
import { throwRuleFailures } from "../domain/identifiers.js";
import { ApiError, unprocessable, type FieldErrors } from "../errors.js";
import { isKnownCurrency } from "../reference/currencies.js";
import { computeTotals, lineNet, type Totals } from "./totals.js";
import { checkLinesVat } from "./vat.js";

type PartnerSnapshot = components["schemas"]["Invoicing.PartnerSnapshot"];
export type PartnerRow = Record<string, any> & { code: string; name: string; payment_term_days: number };
export type Side = "sales" | "purchases";

const KEY_PREFIX: Record<Side, string> = { sales: "sale_invoice", purchases: "purchase_invoice" };

/** Today's date in Vilnius, where the company's day begins (a document dated "today" at 01:00 local time). */
export const todayInVilnius = () => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Vilnius" }).format(new Date());

/** The partner of a document: it must exist (422, not 404: it is a field of the request) and have the role. */
export async function loadPartner(db: Db, companyId: string, code: string, role: "customer" | "supplier"): Promise<PartnerRow> {
  const side: Side = role === "customer" ? "sales" : "purchases";
  const partner: PartnerRow | undefined = await db("partners").where({ company_id: companyId, code }).first();
  if (!partner) {
    throw new ApiError("unprocessable", `There is no partner ${code}.`, {
      key: `${KEY_PREFIX[side]}.partner_unknown`,
      params: { partnerCode: code },
      fieldErrors: { partnerCode: [`partner ${code} does not exist`] },
    });
  }
  if (!(role === "customer" ? partner.is_customer : partner.is_supplier)) {
    throw unprocessable(`The partner ${code} is not marked as a ${role} (isC${role.slice(1)}: false).`, `${KEY_PREFIX[side]}.partner_not_${role}`, { partnerCode: code });
  }
  return partner;
}

export function partnerSnapshot(p: PartnerRow): PartnerSnapshot {
  return {
    code: p.code,
    name: p.name,
    vatCode: p.vat_code ?? null,
    registrationCode: p.registration_code ?? null,
    countryCode: p.country_code ?? null,
    address: p.address ?? null,
    isPrivatePerson: Boolean(p.is_private_person),
  };
}

/** A line as requests send it (sales name the account `revenueAccountCode`, purchases `expenseAccountCode`). */
export interface LineInput {
  itemCode?: string;
  description?: string;
  quantity: string;
  unit?: string;
  unitPriceExclVat?: string;
  discountPercent?: string;
  vatRatePercent?: string;
  vatClassifier?: string;
  revenueAccountCode?: string;
  expenseAccountCode?: string;
  vatDeductible?: boolean;
}

/** A line with every default applied and its net computed. */
export interface DocumentLine {
  itemCode: string | null;
  description: string;
  quantity: string;
  unit: string;
  unitPrice: string;
  discountPercent: string;
  vatRatePercent: string;
  vatClassifier: string;
  /** The line's own account; null leaves it to the posting rule at posting time. */
  accountCode: string | null;
  vatDeductible: boolean;
  netAmount: Decimal;
}

const ACCOUNT_TYPES: Record<Side, readonly string[]> = { sales: ["income"], purchases: ["expense", "asset"] };

/**
 * Applies the item's defaults to each line and checks every rule a schema cannot: the item exists and is active,
 * nothing required is missing, the account exists, takes postings and has the side's type, the VAT rate and
 * classifier are valid on `taxPointDate`, and no amount exceeds what one document may carry. 422 naming each
 * failing field (`lines[2].vatRatePercent`); one key when one field fails, `<doc>.invalid_lines` when several do.
 */
export async function resolveLines(
  db: Db,
  company: CompanyContext,
  side: Side,
  inputs: LineInput[],
  taxPointDate: string,
  currency: string,
): Promise<{ lines: DocumentLine[]; totals: Totals }> {
  const prefix = KEY_PREFIX[side];
  if (!isKnownCurrency(currency)) {
    throw new ApiError("unprocessable", `${currency} is not an ISO 4217 currency code.`, {
      key: "currency.unknown",
      params: { currency },
      fieldErrors: { currency: ["is not an ISO 4217 currency code"] },
    });
  }
  const accountField = side === "sales" ? "revenueAccountCode" : "expenseAccountCode";
  const itemCodes = [...new Set(inputs.flatMap((l) => (l.itemCode ? [l.itemCode] : [])))];
  const accountCodes = [...new Set(inputs.flatMap((l) => (l[accountField] ? [l[accountField]!] : [])))];
  const [items, accounts] = await Promise.all([
    itemCodes.length ? db("catalog_items").where("company_id", company.id).whereIn("code", itemCodes) : [],
    accountCodes.length ? db("ledger_accounts").where("company_id", company.id).whereIn("code", accountCodes).select("code", "type", "is_postable") : [],
  ]);
  const itemByCode = new Map<string, Record<string, any>>(items.map((i: Record<string, any>) => [i.code, i]));
  const accountByCode = new Map<string, Record<string, any>>(accounts.map((a: Record<string, any>) => [a.code, a]));

  const errors: FieldErrors = {};
  const keys: Record<string, string> = {};
  const fail = (path: string, key: string, message: string) => {
    (errors[path] ??= []).push(message);
    keys[path] ??= key;
  };
  const priceColumn = side === "sales" ? "sale_price_excl_vat" : "purchase_price_excl_vat";
  const drafts = inputs.map((input, i) => {
    const item = input.itemCode ? itemByCode.get(input.itemCode) : undefined;
    if (input.itemCode && !item) fail(`lines[${i}].itemCode`, `${prefix}.item_unknown`, `item ${input.itemCode} does not exist`);
    else if (item && !item.active) fail(`lines[${i}].itemCode`, `${prefix}.item_inactive`, `item ${input.itemCode} is not active`);
    // Catalog prices are in the company's base currency; a document in another currency states its own prices.
    const itemPrice = item && currency === company.baseCurrency && item[priceColumn] !== null ? new Decimal(item[priceColumn]).toFixed() : undefined;
    const line = {
      itemCode: input.itemCode ?? null,
      description: input.description ?? item?.name,
      quantity: input.quantity,
      unit: input.unit ?? item?.unit ?? "vnt.",
      unitPrice: input.unitPriceExclVat ?? itemPrice,
      discountPercent: input.discountPercent ?? "0",
      vatRatePercent: input.vatRatePercent ?? (item ? new Decimal(item.vat_rate_percent).toFixed() : undefined),
      vatClassifier: input.vatClassifier ?? (item?.vat_classifier as string | undefined),
      accountCode: input[accountField] ?? null,
      vatDeductible: input.vatDeductible ?? true,
    };
    if (!input.itemCode || item) {
      if (line.description === undefined) fail(`lines[${i}].description`, `${prefix}.line_incomplete`, "is required when the line names no item");
      if (line.unitPrice === undefined) {
        fail(`lines[${i}].unitPriceExclVat`, `${prefix}.line_incomplete`, item ? `is required: item ${item.code} has no price in ${currency}` : "is required when the line names no item");
      }
      if (line.vatRatePercent === undefined) fail(`lines[${i}].vatRatePercent`, `${prefix}.line_incomplete`, "is required when the line names no item");
    }
    if (line.accountCode) {
      const account = accountByCode.get(line.accountCode);
      const path = `lines[${i}].${accountField}`;
      if (!account) fail(path, `${prefix}.account_invalid`, `account ${line.accountCode} does not exist`);
      else if (!account.is_postable) fail(path, `${prefix}.account_invalid`, `account ${line.accountCode} is a header account and takes no postings`);
      else if (!ACCOUNT_TYPES[side].includes(account.type)) {
        fail(path, `${prefix}.account_invalid`, `account ${line.accountCode} is of type ${account.type}; a ${side === "sales" ? "revenue" : "cost"} line posts to ${ACCOUNT_TYPES[side].join(" or ")}`);
      }
    }
    return line;
  });
  const vatInputs = drafts.map((d) => ({ vatRatePercent: d.vatRatePercent ?? "0", vatClassifier: d.vatClassifier }));
  const vat = await checkLinesVat(db, company.countryCode, taxPointDate, vatInputs);
  for (const p of vat.problems) if (drafts[p.index].vatRatePercent !== undefined) fail(`lines[${p.index}].${p.field}`, p.key, p.message);
  throwRuleFailures(errors, keys, `${prefix}.invalid_lines`);

  const lines: DocumentLine[] = drafts.map((d, i) => {
    const netAmount = lineNet({ quantity: d.quantity, unitPrice: d.unitPrice!, discountPercent: d.discountPercent });
    return { ...d, description: d.description!, unitPrice: d.unitPrice!, vatRatePercent: d.vatRatePercent!, vatClassifier: vat.classifiers[i], netAmount };
  });
  const totals = computeTotals(lines.map((l) => ({ ...l, vatClassifier: l.vatClassifier })));
  const tooLarge = [...lines.map((l) => l.netAmount), totals.grossTotal].find((v) => v.greaterThan(MAX_MONEY));
  if (tooLarge) {
    throw unprocessable(`An amount of the document (${tooLarge.toFixed(2)}) exceeds ${MAX_MONEY}, the largest one document may carry.`, `${prefix}.total_too_large`, {
      max: MAX_MONEY,
    });
  }
  return { lines, totals };
}

/** The next number of the document's series (document type, prefix, year of the date), creating it at 1 when missing. */
export async function allocateDocumentNumber(trx: Db, companyId: string, documentType: DocumentType, prefix: string, date: string) {
  const target = { companyId, documentType, year: Number(date.slice(0, 4)), prefix };
  const taken = await allocateNumber(trx, target);
  if (taken) return taken;
  await trx.raw(
    `insert into number_series (company_id, document_type, prefix, year, next_number) values (?, ?, ?, ?, 1)
     on conflict on constraint number_series_identity_key do nothing`,
    [companyId, documentType, prefix, target.year],
  );
  const created = await allocateNumber(trx, target);
  if (!created) throw new Error(`series ${documentType} ${prefix} ${target.year} missing after creation`);
  return created;
}


export const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** The lines of the documents `ids`, by document, in position order. */
export async function linesOf(db: Db, table: "sale_invoice_lines" | "purchase_invoice_lines", companyId: string, ids: string[]): Promise<Map<string, Record<string, any>[]>> {
  const byDocument = new Map<string, Record<string, any>[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byDocument;
  const rows = await db(table).where("company_id", companyId).whereIn("invoice_id", ids).orderBy(["invoice_id", "line_no"]);
  for (const row of rows) byDocument.get(row.invoice_id)!.push(row);
  return byDocument;
}

/** The partners of the drafts among `rows` as they are now (issued documents show their snapshot). */
export async function livePartners(db: Db, companyId: string, rows: Record<string, any>[]): Promise<Map<string, PartnerRow>> {
  const codes = [...new Set(rows.filter((r) => r.partner_snapshot === null).map((r) => r.partner_code as string))];
  if (codes.length === 0) return new Map();
  const partners: PartnerRow[] = await db("partners").where("company_id", companyId).whereIn("code", codes);
  return new Map(partners.map((p) => [p.code, p]));
}

/** A stored line as the input that produces it again (every default already applied). */
export function storedLineInput(l: Record<string, any>): LineInput {
  return {
    itemCode: l.item_code ?? undefined,
    description: l.description,
    quantity: trimDecimal(l.quantity),
    unit: l.unit,
    unitPriceExclVat: trimDecimal(l.unit_price),
    discountPercent: trimDecimal(l.discount_percent),
    vatRatePercent: trimDecimal(l.vat_rate_percent),
    vatClassifier: l.vat_classifier,
    revenueAccountCode: l.revenue_account_code ?? undefined,
    expenseAccountCode: l.expense_account_code ?? undefined,
    vatDeductible: l.vat_deductible ?? undefined,
  };
}

/** The totals columns of a document row. */
export function totalsColumns(totals: Totals, documentVat: "charged" | "none" = "charged") {
  const vat = documentVat === "charged" ? totals.vatTotal : new Decimal(0);
  return {
    net_total: totals.netTotal.toFixed(2),
    vat_total: vat.toFixed(2),
    gross_total: totals.netTotal.plus(vat).toFixed(2),
    vat_breakdown: JSON.stringify(
      totals.breakdown.map((b) => ({
        vatRatePercent: b.vatRatePercent.toFixed(2),
        vatClassifier: b.vatClassifier,
        taxableAmount: b.taxableAmount.toFixed(2),
        vatAmount: b.vatAmount.toFixed(2),
      })),
    ),
  };
}

/** A breakdown column as the API shows it. */
export function breakdownToApi(rows: Record<string, string>[]) {
  return rows.map((b) => ({
    vatRatePercent: formatDecimal(b.vatRatePercent, "percent"),
    vatClassifier: b.vatClassifier,
    taxableAmount: formatDecimal(b.taxableAmount, "money"),
    vatAmount: formatDecimal(b.vatAmount, "money"),
  }));
}
