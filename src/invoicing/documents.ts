// What sales and purchase documents share: the partner check and snapshot, the lines resolved against the
// catalog, the chart and the VAT rates of the tax point date, the EN 16931 totals, and a number from a series.
import type { components } from "../../generated/types.js";
import type { CompanyContext } from "../auth/principal.js";
import type { Db } from "../db/connection.js";
import { preparedQuery } from "../db/prepared.js";
import type {
  CatalogItemsRow,
  LedgerAccountsRow,
  PartnersRow,
  PurchaseInvoiceLinesRow,
  PurchaseInvoicesRow,
  SaleInvoiceLinesRow,
  SaleInvoicesRow,
} from "../db/rows.js";
import { Decimal, MAX_MONEY, formatDecimal, trimDecimal } from "../shared/decimal.js";
import { allocateNumber, type DocumentType } from "../reference/index.js";
import { throwRuleFailures } from "../shared/identifiers.js";
import { ApiError, unprocessable, type FieldErrors } from "../shared/errors.js";
import { isKnownCurrency } from "../shared/currencies.js";
import { computeTotals, lineNet, type Totals } from "./totals.js";
import { checkLinesVat, vatPair } from "./vat.js";
import type { VatDocument } from "../reference/index.js";
import { runList, type ListRequest, type ListSpec, type Rollup } from "../shared/list-engine.js";

type PartnerSnapshot = components["schemas"]["Invoicing.PartnerSnapshot"];
/** The partner's columns a document's snapshot shows. */
export type SnapshotPartnerRow = Pick<PartnersRow, "code" | "name" | "vat_code" | "registration_code" | "country_code" | "address" | "is_private_person">;
/** The partner's columns a document reads: its snapshot, its roles and its payment term. */
export type PartnerRow = SnapshotPartnerRow & Pick<PartnersRow, "is_customer" | "is_supplier" | "payment_term_days">;
/** A catalog item as documents read it (every column but the times, which a row read as JSON has as text). */
export type DocumentItemRow = Omit<CatalogItemsRow, "created_at" | "updated_at">;
/** The lines' tables, and their rows. */
interface LineRows {
  sale_invoice_lines: SaleInvoiceLinesRow;
  purchase_invoice_lines: PurchaseInvoiceLinesRow;
}
export type LinesTable = keyof LineRows;
/** A stored line without its keys (as statements return lines as JSON). */
export type StoredLine<Row> = Omit<Row, "company_id" | "invoice_id">;
/** The documents' tables, and their rows. */
interface DocumentRows {
  sale_invoices: SaleInvoicesRow;
  purchase_invoices: PurchaseInvoicesRow;
}
export type Side = "sales" | "purchases";

const KEY_PREFIX = { sales: "sale_invoice", purchases: "purchase_invoice" } as const satisfies Record<Side, string>;

/**
 * The partner of a document: it must exist (422, not 404: it is a field of the request) and have the role. Read
 * FOR KEY SHARE (what the document's foreign key takes anyway, only earlier): a partner deleted or renamed
 * concurrently is either seen gone here (422) or waits until the document commits (and is then in use, 409).
 */
export async function loadPartner(db: Db, companyId: string, code: string, role: "customer" | "supplier"): Promise<PartnerRow> {
  const [partner] = await preparedQuery<PartnerRow>(
    db,
    "document_partner",
    "select * from partners where company_id = $1::uuid and code = $2::text for key share",
    [companyId, code],
  );
  return checkPartner(partner, code, role);
}

/** loadPartner's checks of a partner row read already (undefined: there is none). */
export function checkPartner(partner: PartnerRow | undefined | null, code: string, role: "customer" | "supplier"): PartnerRow {
  const side: Side = role === "customer" ? "sales" : "purchases";
  if (!partner) {
    throw new ApiError("unprocessable", `There is no partner ${code}.`, {
      key: `${KEY_PREFIX[side]}.partner_unknown`,
      params: { partnerCode: code },
      fieldErrors: { partnerCode: [`partner ${code} does not exist`] },
    });
  }
  if (!(role === "customer" ? partner.is_customer : partner.is_supplier)) {
    throw unprocessable(`The partner ${code} is not marked as a ${role} (isC${role.slice(1)}: false).`, `${KEY_PREFIX[side]}.partner_not_${role}`, {
      partnerCode: code,
    });
  }
  return partner;
}

export function partnerSnapshot(p: SnapshotPartnerRow): PartnerSnapshot {
  return {
    code: p.code,
    name: p.name,
    vatCode: p.vat_code ?? null,
    registrationCode: p.registration_code ?? null,
    countryCode: p.country_code ?? null,
    address: (p.address ?? null) as PartnerSnapshot["address"],
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
  warehouseCode?: string;
  lotNumber?: string;
  serials?: string[];
  returnToStock?: boolean;
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
  /** Null on a document without VAT (LineRules.withoutVat). */
  vatClassifier: string | null;
  /** The line's own account; null leaves it to the posting rule at posting time. */
  accountCode: string | null;
  vatDeductible: boolean;
  /** The warehouse a product line's goods leave from (sales) or go to (purchases); null when the line names none. */
  warehouseCode: string | null;
  lotNumber: string | null;
  serials: string[] | null;
  /** A sales credit note's line whose goods come back into stock. */
  returnToStock: boolean;
  netAmount: Decimal;
}

/** What a document's lines are checked against besides the catalog and the chart. */
export interface LineRules {
  /** The tax point date: the VAT rates and classifiers are checked on it. */
  taxPointDate: string;
  /** The kind of document, which decides the VAT classifiers it may carry (src/reference/vat-classifiers.ts). */
  document: VatDocument;
  /** The supplier's country, which names a reverse-charge line's default classifier. */
  supplierCountry?: string | null;
  /** A credit note: the rate and classifier pairs of the credited invoice (src/invoicing/vat.ts). */
  creditedPairs?: ReadonlySet<string>;
  /** Whether the document is a credit note (only a sales credit note's line may bring goods back into stock). */
  creditNote?: boolean;
  /**
   * A document without VAT (a company that is not a VAT payer, issue 24): its lines default to 0% (not their item's
   * rate) and to no classifier, and are not checked against the classifiers; what they may carry is the caller's rule.
   */
  withoutVat?: boolean;
}

const ACCOUNT_TYPES: Record<Side, readonly string[]> = { sales: ["income"], purchases: ["expense", "asset"] };

// The items a document's lines name, FOR KEY SHARE as the partner's (loadPartner): an item deleted or recoded
// meanwhile is seen gone, or waits. In code order, so that documents naming the same items lock them in one order.
const DOCUMENT_ITEMS_SQL = "select * from catalog_items where company_id = $1::uuid and code = any($2::text[]) order by code for key share";

/**
 * Applies the item's defaults to each line and checks every rule a schema cannot: the item exists and is active,
 * nothing required is missing, the account exists, takes postings and has the side's type, the VAT rate and
 * classifier are valid on the tax point date and fit the document (src/invoicing/vat.ts), lot and serial numbers
 * fit the item's tracking, and no amount exceeds what one document may carry. 422 naming each failing field
 * (`lines[2].vatRatePercent`); one key when one field fails, `<doc>.invalid_lines` when several do.
 */
export async function resolveLines(
  db: Db,
  company: CompanyContext,
  side: Side,
  inputs: LineInput[],
  rules: LineRules,
  currency: string,
  /** The items the lines name, read already as DOCUMENT_ITEMS_SQL reads them (every column; numbers as text). */
  preloadedItems?: DocumentItemRow[],
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
  const itemAccountColumn = side === "sales" ? "revenue_account_code" : "expense_account_code";
  const itemCodes = [...new Set(inputs.flatMap((l) => (l.itemCode ? [l.itemCode] : [])))];
  const warehouseCodes = [...new Set(inputs.flatMap((l) => (l.warehouseCode ? [l.warehouseCode] : [])))];
  const [items, warehouses] = await Promise.all([
    preloadedItems ?? (itemCodes.length ? preparedQuery<CatalogItemsRow>(db, "document_items", DOCUMENT_ITEMS_SQL, [company.id, itemCodes]) : []),
    warehouseCodes.length
      ? (db("warehouses").where("company_id", company.id).whereIn("code", warehouseCodes).pluck("code") as Promise<string[]>)
      : ([] as string[]),
  ]);
  const itemByCode = new Map<string, DocumentItemRow>(items.map((i) => [i.code, i]));
  // A line's account: its own, else its item's (checked again here: the chart may have changed since), else none
  // (the posting rule's, at posting time). A purchase line received into stock posts to the stock account instead.
  const accountOf = (l: LineInput): string | undefined =>
    l[accountField] ?? (l.itemCode && !(side === "purchases" && l.warehouseCode) ? (itemByCode.get(l.itemCode)?.[itemAccountColumn] ?? undefined) : undefined);
  const accountCodes = [...new Set(inputs.flatMap((l) => accountOf(l) ?? []))];
  const accounts: Pick<LedgerAccountsRow, "code" | "type" | "is_postable">[] = accountCodes.length
    ? await db<LedgerAccountsRow>("ledger_accounts")
        .where("company_id", company.id)
        .whereIn("code", accountCodes)
        .orderBy("code")
        .forKeyShare()
        .select("code", "type", "is_postable")
    : [];
  const accountByCode = new Map(accounts.map((a) => [a.code, a]));

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
    if (input.unitPriceExclVat === undefined && itemPrice !== undefined && new Decimal(itemPrice).decimalPlaces() > 4) {
      fail(
        `lines[${i}].unitPriceExclVat`,
        `${prefix}.price_scale`,
        `item ${item!.code}'s price ${itemPrice} has more than the 4 decimals a line carries: state the line's price`,
      );
    }
    const line = {
      itemCode: input.itemCode ?? null,
      description: input.description ?? item?.name,
      quantity: input.quantity,
      unit: input.unit ?? item?.unit ?? "vnt.",
      unitPrice: input.unitPriceExclVat ?? itemPrice,
      discountPercent: input.discountPercent ?? "0",
      vatRatePercent: input.vatRatePercent ?? (rules.withoutVat ? "0" : item ? new Decimal(item.vat_rate_percent).toFixed() : undefined),
      vatClassifier: input.vatClassifier,
      accountCode: accountOf(input) ?? null,
      vatDeductible: input.vatDeductible ?? true,
      warehouseCode: input.warehouseCode ?? null,
      lotNumber: input.lotNumber ?? null,
      serials: input.serials ?? null,
      returnToStock: input.returnToStock ?? false,
    };
    if (input.warehouseCode !== undefined) {
      // A warehouse moves stock: only goods (a purchase line also instead of an expense: resolvePurchaseLines in
      // purchases.ts). Quantities have 4 decimals, as stock does (the contract's PositiveQuantity).
      const path = `lines[${i}].warehouseCode`;
      if (!warehouses.includes(input.warehouseCode)) fail(path, `${prefix}.warehouse_unknown`, `warehouse ${input.warehouseCode} does not exist`);
      else if (item?.type !== "product") fail(path, `${prefix}.warehouse_without_product`, "only a line of a product item moves stock");
    }
    trackingProblems(side, rules, input, item, i, (path, message) => fail(path, `${prefix}.tracking_invalid`, message));
    if (!input.itemCode || item) {
      if (line.description === undefined) fail(`lines[${i}].description`, `${prefix}.line_incomplete`, "is required when the line names no item");
      if (line.unitPrice === undefined) {
        fail(
          `lines[${i}].unitPriceExclVat`,
          `${prefix}.line_incomplete`,
          item ? `is required: item ${item.code} has no price in ${currency}` : "is required when the line names no item",
        );
      }
      if (line.vatRatePercent === undefined) fail(`lines[${i}].vatRatePercent`, `${prefix}.line_incomplete`, "is required when the line names no item");
    }
    if (line.accountCode) {
      const account = accountByCode.get(line.accountCode);
      const path = `lines[${i}].${accountField}`;
      if (!account) fail(path, `${prefix}.account_invalid`, `account ${line.accountCode} does not exist`);
      else if (!account.is_postable) fail(path, `${prefix}.account_invalid`, `account ${line.accountCode} is a header account and takes no postings`);
      else if (!ACCOUNT_TYPES[side].includes(account.type)) {
        fail(
          path,
          `${prefix}.account_invalid`,
          `account ${line.accountCode} is of type ${account.type}; a ${side === "sales" ? "revenue" : "cost"} line posts to ${ACCOUNT_TYPES[side].join(" or ")}`,
        );
      }
    }
    return line;
  });
  // The item's classifier is the default of a line that takes the item's rate as well.
  const vatInputs = drafts.map((d, i) => {
    const item = inputs[i].itemCode ? itemByCode.get(inputs[i].itemCode!) : undefined;
    const itemRate = item ? new Decimal(item.vat_rate_percent) : undefined;
    const takesItemRate = itemRate !== undefined && d.vatRatePercent !== undefined && itemRate.equals(d.vatRatePercent);
    return {
      vatRatePercent: d.vatRatePercent ?? "0",
      vatClassifier: d.vatClassifier,
      itemClassifier: takesItemRate ? item!.vat_classifier : null,
      itemType: item?.type ?? null,
    };
  });
  const vat = rules.withoutVat
    ? { classifiers: drafts.map((d) => d.vatClassifier ?? null), problems: [] }
    : await checkLinesVat(
        db,
        {
          countryCode: company.countryCode,
          date: rules.taxPointDate,
          document: rules.document,
          prefix,
          supplierCountry: rules.supplierCountry,
          creditedPairs: rules.creditedPairs,
        },
        vatInputs,
      );
  for (const p of vat.problems) if (drafts[p.index].vatRatePercent !== undefined) fail(`lines[${p.index}].${p.field}`, p.key, p.message);
  throwRuleFailures(errors, keys, `${prefix}.invalid_lines`);

  const lines: DocumentLine[] = drafts.map((d, i) => {
    const netAmount = lineNet({ quantity: d.quantity, unitPrice: d.unitPrice!, discountPercent: d.discountPercent });
    return { ...d, description: d.description!, unitPrice: d.unitPrice!, vatRatePercent: d.vatRatePercent!, vatClassifier: vat.classifiers[i], netAmount };
  });
  const totals = computeTotals(lines.map((l) => ({ ...l, vatClassifier: l.vatClassifier ?? "" })));
  const tooLarge = [...lines.map((l) => l.netAmount), totals.grossTotal].find((v) => v.greaterThan(MAX_MONEY));
  if (tooLarge) {
    throw unprocessable(
      `An amount of the document (${tooLarge.toFixed(2)}) exceeds ${MAX_MONEY}, the largest one document may carry.`,
      `${prefix}.total_too_large`,
      {
        max: MAX_MONEY,
      },
    );
  }
  return { lines, totals };
}

/**
 * Lot and serial numbers of a line for its item's tracking (inventory/stock says the same of its own lines). A sales
 * invoice line of a product may name the lot it takes from (lot-tracked) or the serials it takes (serial-tracked,
 * one per unit), and a serial-tracked item is sold in whole units; a purchase line received into stock must name
 * the lot (lot-tracked) or the serials (serial-tracked) it receives. Nothing else names a lot or serials: a line
 * without goods, a purchase line not received into stock, a credit note's line (a return follows what the invoice
 * took).
 */
function trackingProblems(
  side: Side,
  rules: LineRules,
  input: LineInput,
  item: DocumentItemRow | undefined,
  i: number,
  fail: (path: string, message: string) => void,
) {
  const tracking: string | undefined = item?.type === "product" ? item.tracking : undefined;
  const named = input.lotNumber !== undefined || input.serials !== undefined;
  const moves = tracking !== undefined && (side === "sales" ? !rules.creditNote : input.warehouseCode !== undefined);
  if (!moves) {
    if (named) {
      const why = !tracking
        ? "only a line of a product item names a lot or serial numbers"
        : side === "sales"
          ? "a credit note's line names no lot or serial numbers (a return follows what the invoice took)"
          : "only a line received into stock (warehouseCode) names a lot or serial numbers";
      fail(`lines[${i}].${input.lotNumber !== undefined ? "lotNumber" : "serials"}`, why);
    }
    return;
  }
  if (input.lotNumber !== undefined && tracking !== "lot") fail(`lines[${i}].lotNumber`, `item ${item!.code} is not tracked by lot`);
  if (input.serials !== undefined && tracking !== "serial") fail(`lines[${i}].serials`, `item ${item!.code} is not tracked by serial number`);
  if (side === "purchases" && tracking === "lot" && input.lotNumber === undefined)
    fail(`lines[${i}].lotNumber`, `item ${item!.code} is tracked by lot: name the lot received`);
  if (side === "purchases" && tracking === "serial" && input.serials === undefined)
    fail(`lines[${i}].serials`, `item ${item!.code} is tracked by serial number: name one serial per unit received`);
  if (tracking === "serial") {
    if (input.serials !== undefined && !new Decimal(input.quantity).equals(input.serials.length)) {
      fail(`lines[${i}].serials`, `${input.serials.length} serial numbers for a quantity of ${input.quantity}: one per unit`);
    } else if (!new Decimal(input.quantity).isInteger()) {
      fail(`lines[${i}].quantity`, `item ${item!.code} is tracked by serial number: a whole number of units`);
    }
    const repeated = (input.serials ?? []).filter((s, k, all) => all.indexOf(s) !== k);
    if (repeated.length) fail(`lines[${i}].serials`, `repeated: ${[...new Set(repeated)].join(", ")}`);
  }
}

/** A document's tax point: its supply date, else its issue date (sales) or document date (purchases). */
export const taxPointOf = (row: { supply_date: string | null } & ({ issue_date: string } | { document_date: string })): string =>
  row.supply_date ?? ("issue_date" in row ? row.issue_date : row.document_date);

/**
 * The supply date a draft stores (null: the document's own date is the tax point). `sent` is the request's value
 * (undefined: keep `kept`; null: none). A supply after the document's date is refused: an invoice issued before the
 * supply has its own date as the tax point (PVM įstatymas Art. 14). A credit note takes the tax point of the
 * invoice it credits (`creditedTaxPoint`): it corrects that supply, at that supply's rates. 422
 * `<doc>.supply_date_invalid` naming `supplyDate`.
 */
export function resolveSupplyDate(
  side: Side,
  sent: string | null | undefined,
  kept: string | null,
  documentDate: string,
  creditedTaxPoint?: string,
): string | null {
  const prefix = KEY_PREFIX[side];
  const dateName = side === "sales" ? "issue date" : "document date";
  const invalid = (why: string) =>
    new ApiError("unprocessable", `supplyDate ${why}.`, {
      key: `${prefix}.supply_date_invalid`,
      params: { documentDate, supplyDate: sent ?? kept },
      fieldErrors: { supplyDate: [why] },
    });
  if (creditedTaxPoint !== undefined) {
    if (sent != null && sent !== creditedTaxPoint)
      throw invalid(`must be ${creditedTaxPoint}, the tax point of the credited invoice: a credit note corrects that supply`);
    if (creditedTaxPoint > documentDate)
      throw invalid(`${creditedTaxPoint} (the credited invoice's tax point) is after the credit note's ${dateName} ${documentDate}`);
    return creditedTaxPoint;
  }
  const supply = sent === undefined ? kept : sent;
  if (supply !== null && supply > documentDate)
    throw invalid(`${supply} is after the ${dateName} ${documentDate}: a document issued before its supply has its own date as the tax point`);
  return supply;
}

/** The `rate|classifier` pairs of a document's lines (src/invoicing/vat.ts); undefined when it has none (an imported invoice carries totals only). */
export async function vatPairsOf(
  db: Db,
  table: "sale_invoice_lines" | "purchase_invoice_lines",
  companyId: string,
  invoiceId: string,
): Promise<Set<string> | undefined> {
  const rows: { rate: string; classifier: string }[] = await db(table)
    .where({ company_id: companyId, invoice_id: invoiceId })
    .distinct(db.raw("vat_rate_percent::text as rate"), "vat_classifier as classifier");
  return rows.length ? new Set(rows.map((r) => vatPair(r.rate, r.classifier))) : undefined;
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

/** One document of the company by its id, locked FOR UPDATE when asked; `missing` is the error when there is none. */
export async function documentById<D extends keyof DocumentRows>(
  db: Db,
  table: D,
  companyId: string,
  id: string,
  forUpdate: boolean,
  missing: () => Error,
): Promise<DocumentRows[D]> {
  const query = db(table).where("company_id", companyId).andWhere("id", id).first();
  const row = (await (forUpdate ? query.forUpdate() : query)) as DocumentRows[D] | undefined;
  if (!row) throw missing();
  return row;
}

/** A document as the API shows it: its row with its lines and, while it is a draft, its partner as it is now. */
export async function documentToApi<R extends { id: string; partner_code: string; partner_snapshot: unknown }, L extends LinesTable, T>(
  db: Db,
  linesTable: L,
  companyId: string,
  row: R,
  toApi: (row: R, lines: LineRows[L][], livePartner?: PartnerRow) => T,
): Promise<T> {
  const [lines, partners] = await Promise.all([linesOf(db, linesTable, companyId, [row.id]), livePartners(db, companyId, [row])]);
  return toApi(row, lines.get(row.id)!, partners.get(row.partner_code));
}

/** The lines of the documents `ids`, by document, in position order. */
export async function linesOf<T extends LinesTable>(db: Db, table: T, companyId: string, ids: string[]): Promise<Map<string, LineRows[T][]>> {
  const byDocument = new Map<string, LineRows[T][]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byDocument;
  const rows: LineRows[T][] = await db(table).where("company_id", companyId).whereIn("invoice_id", ids).orderBy(["invoice_id", "line_no"]);
  for (const row of rows) byDocument.get(row.invoice_id)!.push(row);
  return byDocument;
}

/** The partners of the drafts among `rows` as they are now (issued documents show their snapshot). */
export async function livePartners(db: Db, companyId: string, rows: { partner_code: string; partner_snapshot: unknown }[]): Promise<Map<string, PartnerRow>> {
  const codes = [...new Set(rows.filter((r) => r.partner_snapshot === null).map((r) => r.partner_code))];
  if (codes.length === 0) return new Map();
  const partners = await db<PartnersRow>("partners").where("company_id", companyId).whereIn("code", codes);
  return new Map(partners.map((p) => [p.code, p]));
}

/** A stored line as the input that produces it again (every default already applied). */
export function storedLineInput(l: StoredLine<SaleInvoiceLinesRow> | StoredLine<PurchaseInvoiceLinesRow>): LineInput {
  return {
    itemCode: l.item_code ?? undefined,
    description: l.description,
    quantity: trimDecimal(l.quantity),
    unit: l.unit,
    unitPriceExclVat: trimDecimal(l.unit_price),
    discountPercent: trimDecimal(l.discount_percent),
    vatRatePercent: trimDecimal(l.vat_rate_percent),
    vatClassifier: l.vat_classifier ?? undefined,
    ...("revenue_account_code" in l
      ? { revenueAccountCode: l.revenue_account_code ?? undefined, returnToStock: l.return_to_stock }
      : { expenseAccountCode: l.expense_account_code ?? undefined, vatDeductible: l.vat_deductible }),
    warehouseCode: l.warehouse_code ?? undefined,
    lotNumber: l.lot_number ?? undefined,
    serials: l.serials ?? undefined,
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
export function breakdownToApi(column: unknown) {
  // As totalsColumns writes it.
  const rows = column as { vatRatePercent: string; vatClassifier: string; taxableAmount: string; vatAmount: string }[];
  return rows.map((b) => ({
    vatRatePercent: formatDecimal(b.vatRatePercent, "percent"),
    vatClassifier: b.vatClassifier,
    taxableAmount: formatDecimal(b.taxableAmount, "money"),
    vatAmount: formatDecimal(b.vatAmount, "money"),
  }));
}

const lastDayOfMonth = (date: string) => addDays(`${nextMonth(date.slice(0, 7))}-01`, -1) === date;
const nextMonth = (month: string) => {
  const [y, m] = month.split("-").map(Number);
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, "0")}`;
};

/**
 * The rollups of a document table, tried in order. 1. By month (migration 20261124000150): counts and totals by
 * status, type, partner, currency, series prefix (sales) or VAT treatment (purchases), and month; a date filter
 * selects whole months when it is `gte` a month's first day or `lte` a month's last day, and then becomes a filter
 * on the month. 2. The open documents by due date (migration 20261124000151), for lists filtered on `overdue: true`:
 * the field's own expression on the due date (the rows are open already); due-date filters apply as they are.
 */
function rollupsOf(db: Db, companyId: string, documents: "sale_invoices" | "purchase_invoices"): Rollup[] {
  const sales = documents === "sale_invoices";
  const dateField = sales ? "issueDate" : "documentDate";
  const string = (column: string) => ({ column, type: "string" as const });
  const groups = {
    status: string("status"),
    type: string("type"),
    partnerCode: string("partner_code"),
    currency: string("currency"),
    ...(sales ? { seriesPrefix: string("series_prefix") } : { vatTreatment: string("vat_treatment") }),
  };
  const totals = { netTotal: "net_total", vatTotal: "vat_total", grossTotal: "gross_total", outstanding: "outstanding" };
  const monthly: Rollup = {
    base: () => db(sales ? "sale_invoice_totals" : "purchase_invoice_totals").where("company_id", companyId),
    fields: { ...groups, month: { column: "month", type: "date" } },
    count: "documents",
    totals,
    rewrite: (f) => {
      if (f.field !== dateField || typeof f.value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(f.value)) return null;
      if (f.op === "gte" && f.value.endsWith("-01")) return { field: "month", op: "gte", value: f.value };
      if (f.op === "lte" && lastDayOfMonth(f.value)) return { field: "month", op: "lte", value: `${f.value.slice(0, 7)}-01` };
      return null;
    },
  };
  const open: Rollup = {
    base: () => db(sales ? "sale_invoice_open_totals" : "purchase_invoice_open_totals").where("company_id", companyId),
    fields: {
      ...groups,
      dueDate: { column: "due_date", type: "date" },
      overdue: { column: "(due_date < (now() at time zone 'Europe/Vilnius')::date)", type: "boolean" },
    },
    count: "documents",
    totals,
    applies: (request) => (request.filter ?? []).some((f) => f.field === "overdue" && f.op === "eq" && f.value === true),
  };
  return [monthly, open];
}

/**
 * A page of documents through the shared list engine, with their lines and (for drafts) their live partners, and the
 * totals as money: what sales/invoices/list and purchases/invoices/list share.
 */
export async function listDocuments<D extends keyof DocumentRows, L extends LinesTable, T>(
  db: Db,
  companyId: string,
  tables: { documents: D; lines: L },
  spec: ListSpec,
  request: ListRequest,
  toApi: (row: DocumentRows[D], lines: LineRows[L][], livePartner?: PartnerRow) => T,
) {
  const result = await runList<DocumentRows[D]>(
    db,
    () => db(tables.documents).where("company_id", companyId),
    spec,
    request,
    ["*"],
    rollupsOf(db, companyId, tables.documents),
  );
  const ids = result.rows.map((r) => r.id);
  const [lines, partners] = await Promise.all([linesOf(db, tables.lines, companyId, ids), livePartners(db, companyId, result.rows)]);
  const rows = result.rows.map((r) => toApi(r, lines.get(r.id)!, partners.get(r.partner_code)));
  const totals = result.totals && Object.fromEntries(Object.entries(result.totals).map(([k, v]) => [k, formatDecimal(v, "money")]));
  return { ...result, rows, ...(totals ? { totals } : {}) };
}
