// SAF-T LT 2.01 source documents: the sales invoices (data type `SI`) and the purchase invoices (`PI`) of a range, as
// shared/schemas/lt/SAFT_2_01.xsd's SourceDocuments/SalesInvoices and PurchaseInvoices define them (InvoiceStructure).
// The documents are the ones the VAT declarations read (./documents.ts: every issued sales document by its issue date,
// every registered purchase document by its accounting date, drafts and migrated history left out), in the same order
// (that date, then id), with the amounts stored when each posted (vat_declared_rows, in EUR): so the classifier totals
// of a month's file are its i.SAF's. The file is cut into parts of `partSize` documents (SAFT_PART_SIZE); the master
// files (./saft.ts masterFor: the customers or the suppliers, the tax table) go in part 1, and each part's section
// carries its own count and totals. Documents are read in keyset pages of `fetchRows`, their lines and VAT rows a page
// at a time, so memory holds one page, not the range.
//
// What each element holds (the XSD's annotations; what the XSD leaves open is marked "choice"):
//   InvoiceNo                 the document's number (a purchase: the supplier's document number).
//   CustomerInfo/SupplierInfo the partner's code (CustomerID/SupplierID, its master record) and, from the document's
//                             snapshot of the partner (as it was when the document posted), the VAT code (TaxType PVM),
//                             else the registration code (MMR), else "ND" with an empty TaxType (choice); the country
//                             the snapshot's, else the partner's, else the VAT code's prefix, else the company's.
//   AccountID                 the receivable (sales.receivable) or payable (purchases.payables) account of the
//                             company's posting rules.
//   InvoiceType               ./document-types.ts's i.SAF type (SF, KS, DS, AN); a company without a VAT code issues
//                             no VAT invoices: S, K, D.
//   GLPostingDate             the date the document is declared and posted by; TransactionID = GLTransactionID its
//                             journal transaction as the GL file names it (its number, else its id).
//   Line                      each line of the document: its account (the line's own, else the posting rule's: stock
//                             lines of a purchase the inventory.stock account), item code, quantity, unit, unit price
//                             (the document's currency), tax point (supply date, else the invoice date), amount in EUR
//                             — the line's share of its (classifier, rate) group's stored EUR taxable value, by its
//                             net amount in the document's currency, to the cent (largest remainder) — with the
//                             document's currency and the line's net in it when that is not EUR, and its
//                             TaxInformation: the group's classifier and rate, the line's amount as TaxBase and its
//                             share of the group's VAT as TaxAmount. DebitCreditIndicator the side the line posts to: a
//                             sale K (a credit note D), a purchase D (a credit note K); a negative line the other.
//   References                a credit or debit note's credited document's number (cut to 35 characters).
//   DocumentTotals            one TaxInformationTotals per (classifier, rate) group as stored (what i.SAF declares),
//                             NetTotal their taxable values, GrossTotal the document's receivable or payable in EUR.
//   NumberOfEntries, TotalDebit, TotalCredit (per part)
//                             the part's documents, and their net totals on the side their lines post to (choice:
//                             the XSD does not say which amounts these total).
import type { Db } from "../../db/connection.js";
import { plainQuery } from "../../db/prepared.js";
import { accountsForRules } from "../../ledger/index.js";
import { euCountryOfVatCode } from "../../reference/index.js";
import { Decimal } from "../../shared/decimal.js";
import { splitByWeights } from "../../shared/weights.js";
import type { XmlWriter } from "../xml-writer.js";
import { documentTypeOf } from "./document-types.js";
import { type DocumentQuery, type VatAccounts, documentHeadersSql } from "./documents.js";
import {
  type SaftCompany,
  type SaftMasterData,
  type SaftPartWritten,
  type SaftRequest,
  type SaftSizes,
  cut,
  money,
  type SaftFrame,
  closePart,
  openPart,
} from "./saft.js";

export type InvoiceSide = "sale" | "purchase";

/** Which side of the ledger a document's lines post to: a sale's revenue is a credit, a purchase's cost a debit; a credit note the other. */
const LINE_SIDE: Record<InvoiceSide, { normal: "D" | "K"; creditNote: "D" | "K" }> = {
  sale: { normal: "K", creditNote: "D" },
  purchase: { normal: "D", creditNote: "K" },
};
const lineSideOf = (side: InvoiceSide, type: string) => (type === "credit_note" ? LINE_SIDE[side].creditNote : LINE_SIDE[side].normal);
const lineSideSql = (side: InvoiceSide) => `(case when d.type = 'credit_note' then '${LINE_SIDE[side].creditNote}' else '${LINE_SIDE[side].normal}' end)`;

const SECTION: Record<InvoiceSide, { section: string; info: string; id: string; dataType: "SI" | "PI" }> = {
  sale: { section: "SalesInvoices", info: "CustomerInfo", id: "CustomerID", dataType: "SI" },
  purchase: { section: "PurchaseInvoices", info: "SupplierInfo", id: "SupplierID", dataType: "PI" },
};

/** A part of the file: its documents and their net totals in EUR on each side. */
export interface SaftInvoicePartPlan {
  documents: number;
  debit: string;
  credit: string;
}

const query = (companyId: string, range: { from: string; to: string }, accounts: VatAccounts, side: InvoiceSide): DocumentQuery => ({
  companyId,
  from: range.from,
  to: range.to,
  accounts,
  side,
});

/** The stored taxable values of document `d` (what its lines share). */
const storedBaseSql = "(select coalesce(sum(v.base), 0) from vat_declared_rows v where v.company_id = $1 and v.document_id = d.id and v.ord > 0)";

/**
 * The parts of the range's documents of `side`, `partSize` each in file order (at least one part, empty for a range
 * without documents), with each part's count and totals: one pass over the documents and their stored rows.
 */
export async function planSaftInvoiceParts(
  db: Db,
  companyId: string,
  range: { from: string; to: string },
  accounts: VatAccounts,
  side: InvoiceSide,
  partSize: number,
): Promise<SaftInvoicePartPlan[]> {
  const sql = documentHeadersSql(
    query(companyId, range, accounts, side),
    `select part, count(*)::int as documents,
            coalesce(sum(base) filter (where line_side = 'D'), 0)::text as debit, coalesce(sum(base) filter (where line_side = 'K'), 0)::text as credit
       from (select (row_number() over (order by d.decl_date, d.id) - 1) / $9::bigint as part, ${lineSideSql(side)} as line_side, ${storedBaseSql} as base
               from docs d) x
      group by part order by part`,
  );
  const rows = await plainQuery<{ part: string; documents: number; debit: string; credit: string }>(db, sql.text, [...sql.values, partSize]);
  if (!rows.length) return [{ documents: 0, debit: "0", credit: "0" }];
  return rows.map((r) => ({ documents: r.documents, debit: r.debit, credit: r.credit }));
}

interface HeadRow {
  id: string;
  type: string;
  status: string;
  doc_no: string;
  invoice_date: string;
  decl_date: string;
  supply_date: string | null;
  partner_code: string;
  partner_snapshot: Record<string, unknown> | null;
  credited_invoice_id: string | null;
  base_total: string | null;
  treatment: string;
  journal_transaction_id: string | null;
  tx_number: string | null;
}

interface LineRow {
  doc: string;
  line_no: number;
  description: string;
  item_code: string | null;
  quantity: string;
  unit: string;
  unit_price: string;
  net_amount: string;
  classifier: string | null;
  rate: string;
  account: string;
}

interface VatRow {
  doc: string;
  classifier: string;
  rate_pct: string;
  base: string;
  vat: string;
}

interface Page {
  heads: HeadRow[];
  lines: Map<string, LineRow[]>;
  vat: Map<string, VatRow[]>;
  currency: Map<string, string>;
  credited: Map<string, string>;
}

const groupBy = <T extends { doc: string }>(rows: T[]) => {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const list = map.get(row.doc);
    if (list) list.push(row);
    else map.set(row.doc, [row]);
  }
  return map;
};

/** The posting rules' accounts a side's documents and lines are written with. */
interface SideAccounts {
  partner: string;
  line: string;
  stock: string;
}

async function sideAccounts(db: Db, companyId: string, side: InvoiceSide): Promise<SideAccounts> {
  if (side === "sale") {
    const [partner, line] = await accountsForRules(db, companyId, ["sales.receivable", "sales.revenue"]);
    return { partner, line, stock: line };
  }
  const [partner, line, stock] = await accountsForRules(db, companyId, ["purchases.payables", "purchases.expense", "inventory.stock"]);
  return { partner, line, stock };
}

/** A page of documents after `after` (keyset), with their lines, stored VAT rows, currencies and credited numbers. */
async function readPage(
  db: Db,
  q: DocumentQuery,
  side: InvoiceSide,
  accounts: SideAccounts,
  after: { date: string; id: string } | undefined,
  limit: number,
): Promise<Page> {
  const sql = documentHeadersSql(
    { ...q, after, limit },
    `select d.id, d.type, d.status, d.doc_no, d.invoice_date::text as invoice_date, d.decl_date::text as decl_date, d.supply_date::text as supply_date,
            d.partner_code, d.partner_snapshot, d.credited_invoice_id, d.base_total::text as base_total, d.treatment, d.journal_transaction_id,
            t.number as tx_number
       from docs d
       left join journal_transactions t on t.company_id = $1 and t.id = d.journal_transaction_id
      order by d.decl_date, d.id`,
  );
  const heads = await plainQuery<HeadRow>(db, sql.text, sql.values);
  const ids = heads.map((h) => h.id);
  const credits = [...new Set(heads.flatMap((h) => (h.credited_invoice_id ? [h.credited_invoice_id] : [])))];
  const table = side === "sale" ? "sale_invoices" : "purchase_invoices";
  const lines = await plainQuery<LineRow>(
    db,
    side === "sale"
      ? `select invoice_id as doc, line_no, description, item_code, quantity::text as quantity, unit, unit_price::text as unit_price,
                net_amount::text as net_amount, vat_classifier as classifier, vat_rate_percent::text as rate, coalesce(revenue_account_code, $3) as account
           from sale_invoice_lines where company_id = $1 and invoice_id = any($2::uuid[]) order by invoice_id, line_no`
      : `select invoice_id as doc, line_no, description, item_code, quantity::text as quantity, unit, unit_price::text as unit_price,
                net_amount::text as net_amount, vat_classifier as classifier, vat_rate_percent::text as rate,
                case when warehouse_code is not null then $4 else coalesce(expense_account_code, $3) end as account
           from purchase_invoice_lines where company_id = $1 and invoice_id = any($2::uuid[]) order by invoice_id, line_no`,
    side === "sale" ? [q.companyId, ids, accounts.line] : [q.companyId, ids, accounts.line, accounts.stock],
  );
  const vat = await plainQuery<VatRow>(
    db,
    `select document_id as doc, classifier, rate_pct::text as rate_pct, base::text as base, vat::text as vat
       from vat_declared_rows where company_id = $1 and document_id = any($2::uuid[]) and ord > 0 order by document_id, ord`,
    [q.companyId, ids],
  );
  const currencies = await plainQuery<{ id: string; currency: string }>(
    db,
    `select id, currency from ${table} where company_id = $1 and id = any($2::uuid[])`,
    [q.companyId, ids],
  );
  const numbers = credits.length
    ? await plainQuery<{ id: string; no: string | null }>(
        db,
        `select id, ${side === "sale" ? "number" : "document_number"} as no from ${table} where company_id = $1 and id = any($2::uuid[])`,
        [q.companyId, credits],
      )
    : [];
  return {
    heads,
    lines: groupBy(lines),
    vat: groupBy(vat),
    currency: new Map(currencies.map((c) => [c.id, c.currency.trim()])),
    credited: new Map(numbers.flatMap((n) => (n.no ? [[n.id, n.no] as const] : []))),
  };
}

function writeParty(w: XmlWriter, side: InvoiceSide, head: HeadRow, master: SaftMasterData, company: SaftCompany): void {
  const s = head.partner_snapshot ?? {};
  const vatCode = (s.vatCode as string | null) ?? null;
  const regCode = (s.registrationCode as string | null) ?? null;
  const partner = master.partners.get(head.partner_code);
  const country =
    (s.countryCode as string | null) ??
    partner?.address?.countryCode ??
    partner?.country_code ??
    euCountryOfVatCode(vatCode) ??
    company.address?.countryCode ??
    "LT";
  const { info, id } = SECTION[side];
  w.open(info)
    .text(id, cut(head.partner_code, 35))
    .text("TaxRegistrationNumber", cut(vatCode ?? regCode ?? "ND", 35))
    .text("TaxType", vatCode ? "PVM" : regCode ? "MMR" : "")
    .text("Country", country)
    .close(info);
}

/** An amount's value without its sign, to the cent. */
const abs = (d: Decimal) => money(d.abs());
/** A decimal in plain notation (never an exponent), without trailing zeros. */
const plain = (value: string) => new Decimal(value).toFixed();

interface WrittenLine {
  line: LineRow;
  amount: Decimal;
  vat: Decimal;
  group: VatRow | undefined;
}

/** Each line's EUR amount and VAT: its share of its (classifier, rate) group's stored amounts, by its net. */
function shareGroups(lines: LineRow[], groups: VatRow[]): WrittenLine[] {
  const key = (classifier: string | null, rate: string) => `${classifier ?? ""}|${new Decimal(rate).toString()}`;
  const written: WrittenLine[] = lines.map((line) => ({ line, amount: new Decimal(0), vat: new Decimal(0), group: undefined }));
  for (const group of groups) {
    const members = written.filter((l) => key(l.line.classifier, l.line.rate) === key(group.classifier, group.rate_pct));
    if (!members.length) continue;
    const weights = members.map((m) => new Decimal(m.line.net_amount));
    const bases = splitByWeights(new Decimal(group.base), weights);
    const vats = splitByWeights(new Decimal(group.vat), weights);
    members.forEach((m, i) => {
      m.amount = bases[i];
      m.vat = vats[i];
      m.group = group;
    });
  }
  return written;
}

function writeTaxInformation(w: XmlWriter, element: string, classifier: string, rate: string, base: Decimal, vat: Decimal): void {
  w.open(element).text("TaxType", "PVM");
  if (classifier) w.text("TaxCode", cut(classifier, 70));
  w.text("TaxPercentage", new Decimal(rate).toFixed(2)).text("TaxBase", abs(base)).open("TaxAmount").text("Amount", abs(vat)).close("TaxAmount").close(element);
}

/** Writes one document; returns its net total in EUR (what its lines carry, signed by their side). */
function writeInvoice(
  w: XmlWriter,
  side: InvoiceSide,
  head: HeadRow,
  page: Page,
  ctx: { company: SaftCompany; master: SaftMasterData; accounts: SideAccounts },
): Decimal {
  const docType = documentTypeOf(side, head.type, head.status);
  if (!docType) throw new Error(`writeSaftInvoices: ${side} document ${head.id} of type ${head.type} is not declared`);
  const type = ctx.company.vatCode ? docType.isafType : ({ SF: "S", KS: "K", DS: "D", AN: "AN" } as const)[docType.isafType];
  const transaction = head.tx_number ?? head.journal_transaction_id ?? head.id;
  const groups = page.vat.get(head.id) ?? [];
  const lines = shareGroups(page.lines.get(head.id) ?? [], groups);
  const lineSide = lineSideOf(side, head.type);
  const other = lineSide === "D" ? "K" : "D";
  const currency = page.currency.get(head.id) ?? ctx.company.baseCurrency;
  const foreign = currency !== ctx.company.baseCurrency;
  const taxPoint = head.supply_date ?? head.invoice_date;

  w.open("Invoice").text("InvoiceNo", cut(head.doc_no, 70));
  writeParty(w, side, head, ctx.master, ctx.company);
  w.text("AccountID", ctx.accounts.partner)
    .text("InvoiceDate", head.invoice_date)
    .text("InvoiceType", type)
    .text("GLPostingDate", head.decl_date)
    .text("TransactionID", cut(transaction, 70));
  let net = new Decimal(0);
  for (const { line, amount, vat, group } of lines) {
    if (!group) throw new Error(`writeSaftInvoices: line ${line.line_no} of ${side} document ${head.id} matches none of its stored VAT groups`);
    net = net.plus(amount);
    w.open("Line").text("LineNumber", line.line_no).text("AccountID", cut(line.account, 70));
    if (line.item_code) w.text("ProductCode", cut(line.item_code, 70));
    w.text("Quantity", new Decimal(line.quantity).abs().toFixed());
    if (line.unit) w.text("InvoiceUOM", cut(line.unit, 24));
    w.text("UnitPrice", plain(line.unit_price))
      .text("TaxPointDate", taxPoint)
      .text("Description", cut(line.description || head.doc_no, 256))
      .open("InvoiceLineAmount")
      .text("Amount", abs(amount));
    if (foreign) w.text("CurrencyCode", currency).text("CurrencyAmount", abs(new Decimal(line.net_amount)));
    w.close("InvoiceLineAmount").text("DebitCreditIndicator", amount.isNegative() && !amount.isZero() ? other : lineSide);
    writeTaxInformation(w, "TaxInformation", group.classifier, group.rate_pct, amount, vat);
    w.close("Line");
  }
  const credited = head.credited_invoice_id ? page.credited.get(head.credited_invoice_id) : undefined;
  if (credited) w.open("References").open("CreditNote").text("Reference", cut(credited, 35)).close("CreditNote").close("References");
  const base = groups.reduce((s, g) => s.plus(g.base), new Decimal(0));
  const vatTotal = groups.reduce((s, g) => s.plus(g.vat), new Decimal(0));
  if (!net.equals(base)) throw new Error(`writeSaftInvoices: the lines of ${side} document ${head.id} carry ${net}, its stored groups ${base}`);
  w.open("DocumentTotals");
  for (const g of groups) writeTaxInformation(w, "TaxInformationTotals", g.classifier, g.rate_pct, new Decimal(g.base), new Decimal(g.vat));
  // The receivable or payable in EUR as posted; without it, what the partner is charged (the VAT but a self-assessed one).
  const gross = head.base_total !== null ? new Decimal(head.base_total) : head.treatment === "standard" ? base.plus(vatTotal) : base;
  w.text("NetTotal", money(base))
    .text("GrossTotal", abs(gross))
    .close("DocumentTotals")
    .text("GLTransactionID", cut(transaction, 70))
    .close("Invoice")
    .newline();
  return base;
}

/**
 * Writes every part of a SI or PI file in order (`plan`: planSaftInvoiceParts in the same transaction), handing each
 * to `onPart` as it is done before the next is written.
 */
export async function writeSaftInvoices(
  db: Db,
  companyId: string,
  company: SaftCompany,
  request: SaftRequest,
  master: SaftMasterData,
  vatAccounts: VatAccounts,
  side: InvoiceSide,
  frame: SaftFrame,
  plan: SaftInvoicePartPlan[],
  sizes: SaftSizes,
  onPart: (part: SaftPartWritten) => Promise<void>,
): Promise<void> {
  const { section } = SECTION[side];
  const accounts = await sideAccounts(db, companyId, side);
  const q = query(companyId, request, vatAccounts, side);
  const parts = plan.length;
  let after: { date: string; id: string } | undefined;
  for (let partNumber = 1; partNumber <= parts; partNumber++) {
    const { documents, debit, credit } = plan[partNumber - 1];
    const w = openPart(company, request, frame, partNumber);
    if (documents) {
      w.open("SourceDocuments")
        .open(section)
        .text("NumberOfEntries", documents)
        .text("TotalDebit", money(new Decimal(debit)))
        .text("TotalCredit", money(new Decimal(credit)))
        .newline();
    }
    let written = 0;
    const totals = { D: new Decimal(0), K: new Decimal(0) };
    while (written < documents) {
      const page = await readPage(db, q, side, accounts, after, Math.min(sizes.fetchRows, documents - written));
      if (!page.heads.length) break;
      for (const head of page.heads) {
        const net = writeInvoice(w, side, head, page, { company, master, accounts });
        totals[lineSideOf(side, head.type)] = totals[lineSideOf(side, head.type)].plus(net);
        written++;
      }
      const last = page.heads[page.heads.length - 1];
      after = { date: last.decl_date, id: last.id };
    }
    if (written !== documents || !totals.D.equals(debit) || !totals.K.equals(credit)) {
      throw new Error(`writeSaftInvoices: part ${partNumber} wrote ${written} documents (${totals.D}/${totals.K}), its plan ${documents} (${debit}/${credit})`);
    }
    if (documents) w.close(section).close("SourceDocuments").newline();
    await onPart(closePart(w, company, request, frame, partNumber, written));
  }
}
