// i.SAF 1.2, the monthly register of issued and received VAT invoices (issue 24), as shared/schemas/lt/isaf_1_2.xsd
// defines it. A month's documents are written in a fixed order — sales (by issue date, then id), then purchases (by
// their declaration date, then id) — and cut into parts of `partSize` invoices (ISAF_PART_SIZE, default 50,000): the
// XSD allows 500,000 invoices per section but sets no size, and no i.MAS upload limit is published; 50,000 invoices
// are about 30 MB of XML (about 600 bytes each), which the response carries as 40 MB of base64: a part answered is
// written to a temporary file and streamed out from it as JSON (../isaf.ts); the parts a submission stores are held
// in memory, one at a time. A part is one statement per side read through a cursor,
// ISAF_FETCH_ROWS rows a fetch, inside one repeatable-read transaction, so the
// parts of one call see one state of the books, and written with the streaming writer (../xml-writer.ts).
//
// What each element holds (the XSD's annotations):
//   MasterFiles/Customers|Suppliers  each partner of the part once, as its latest document of the part shows it;
//                                     an invoice whose buyer/seller data is the same names it by CustomerID/SupplierID
//                                     (and leaves the other fields empty, as the annotation asks), one whose snapshot
//                                     differs (the partner changed during the month) carries its own data in full.
//   VATRegistrationNumber            the VAT code, or "ND"; RegistrationNumber the registration code, or "ND" when
//                                     neither is known; Country the snapshot's, else the partner's, else the VAT
//                                     prefix's (EL is GR): required with "ND" or a VAT code of outside the EU (422
//                                     isaf.partner_incomplete naming the partners when unknown).
//   InvoiceType                      ./document-types.ts (SF, KS with References to the credited document).
//   SpecialTaxation                  empty: the cash-accounting scheme ("T") is out of scope.
//   VATPointDate                     the supply date when it differs from the invoice date, else nil.
//   RegistrationAccountDate          (purchases) the declaration date (purchaseDeclarationDate).
//   DocumentTotal                    one per (classifier, rate), EUR (./documents.ts), negative on a credit note;
//                                     TaxPercentage nil for exempt and outside-scope classifiers; VATPointDate2 nil.
import type { Db } from "../../db/connection.js";
import { plainQuery } from "../../db/prepared.js";
import { collectGarbage } from "../../shared/collect-garbage.js";
import { Decimal } from "../../shared/decimal.js";
import { unprocessable } from "../../shared/errors.js";
import { type Declarant, SOFTWARE, vatAccounts } from "../declarant.js";
import { XmlWriter, type XmlFile } from "../xml-writer.js";
import { documentTypeOf } from "./document-types.js";
import { type DocumentGroupRow, type DocumentQuery, documentGroupsSql, documentHeadersSql, type VatAccounts } from "./documents.js";
import { ISAF_FIRST_PERIOD, monthRange } from "./period-rules.js";

export type IsafDataType = "F" | "S" | "P";
export const DEFAULT_ISAF_PART_SIZE = 50_000;
const NS = "http://www.vmi.lt/cms/imas/isaf";
const XSI = "http://www.w3.org/2001/XMLSchema-instance";

/** The EU member states by the prefix of their VAT codes (Greece is EL) and the ISO country each names. */
const EU_VAT_PREFIXES: Readonly<Record<string, string>> = Object.fromEntries(
  "AT BE BG CY CZ DE DK EE ES FI FR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK"
    .split(" ")
    .map((c) => [c, c])
    .concat([["EL", "GR"]]),
);
/** Classifiers whose supplies carry no VAT rate (exempt, outside the country): TaxPercentage nil (XSD annotation). */
const NO_RATE_KINDS = new Set(["exempt", "outside_scope"]);

export interface IsafPart {
  file: XmlFile;
  fileName: string;
  partNumber: number;
  parts: number;
  invoices: { sales: number; purchases: number };
}

interface Party {
  id: string;
  vat: string;
  reg: string;
  country: string | null;
  name: string;
}

const sidesOf = (dataType: IsafDataType) =>
  dataType === "F" ? (["sale", "purchase"] as const) : dataType === "S" ? (["sale"] as const) : (["purchase"] as const);

/** A party as i.SAF writes it, from a document's snapshot (and the partner's current country as a fallback). */
function partyOf(code: string, snapshot: Record<string, unknown>, partnerCountry: string | null): Party {
  const vatCode = (snapshot.vatCode as string | null) ?? null;
  const regCode = (snapshot.registrationCode as string | null) ?? null;
  const prefixCountry = vatCode ? (EU_VAT_PREFIXES[vatCode.slice(0, 2)] ?? null) : null;
  return {
    id: code,
    vat: vatCode ?? "ND",
    reg: regCode ?? (vatCode ? "" : "ND"),
    country: (snapshot.countryCode as string | null) ?? partnerCountry ?? prefixCountry,
    name: (snapshot.name as string | null) || "ND",
  };
}

/** A partner's master record of a part: its party, from the snapshot (as jsonb text) of its latest document. */
interface Master {
  party: Party;
  snapshotText: string;
}

/** A (document, classifier, rate) row as i.SAF reads it: the snapshot as jsonb's text (parsed only when needed). */
type IsafRow = Omit<DocumentGroupRow, "partner_snapshot"> & { snapshot_text: string };
const ISAF_COLUMNS = `side, id, type, status, doc_no, invoice_date, decl_date, supply_date, partner_code, partner_snapshot::text as snapshot_text,
  partner_country, credited_no, credited_date, treatment, journal_transaction_id, sign, triangular, ord, classifier, rate_pct, taxable_eur, vat_eur,
  ded_eur, nonded_eur`;

const sameParty = (a: Party, b: Party) => a.vat === b.vat && a.reg === b.reg && a.country === b.country && a.name === b.name;

/** Why a party cannot be written, or undefined. */
function partyProblem(p: Party): string | undefined {
  const euVat = p.vat !== "ND" && EU_VAT_PREFIXES[p.vat.slice(0, 2)] !== undefined;
  if (!euVat && p.country === null) return "its country is unknown (required with no VAT code or a VAT code of outside the EU): set the partner's countryCode";
  if (p.reg.length > 35) return "its registration code is longer than the 35 characters i.SAF allows";
  return undefined;
}

/** The classifiers' kinds of the country (TaxPercentage nil for exempt and outside-scope ones). */
async function classifierKinds(db: Db): Promise<Map<string, string>> {
  const rows = await plainQuery<{ code: string; kind: string }>(db, "select distinct code, kind from vat_classifiers where country_code = 'LT'", []);
  return new Map(rows.map((r) => [r.code, r.kind]));
}

export interface IsafContext {
  db: Db;
  declarant: Declarant;
  period: string;
  dataType: IsafDataType;
  partSize: number;
  /** Rows a fetch of a part's cursor reads. */
  fetchRows: number;
  /** A file (open for reading and writing, empty) the part is written to instead of memory; the caller closes it. */
  fd?: number;
}

/** The counts of the month and the number of parts; refuses a month before i.SAF and unwritable partners. */
export async function planIsaf(ctx: IsafContext): Promise<{ counts: { sale: number; purchase: number }; parts: number; accounts: VatAccounts }> {
  if (ctx.period < ISAF_FIRST_PERIOD) {
    throw unprocessable(`i.SAF covers months from ${ISAF_FIRST_PERIOD} on (the XSD's first SelectionEndDate is 2016-09-01).`, "isaf.period_unsupported", {
      period: ctx.period,
      firstPeriod: ISAF_FIRST_PERIOD,
    });
  }
  const accounts = await vatAccounts(ctx.db, ctx.declarant.id);
  const { from, to } = monthRange(ctx.period);
  const counts = { sale: 0, purchase: 0 };
  const problems = new Map<string, string>();
  for (const side of sidesOf(ctx.dataType)) {
    const q: DocumentQuery = { companyId: ctx.declarant.id, from, to, accounts, side };
    const count = documentHeadersSql(q, "select count(*)::int as n from docs");
    const [{ n }] = await plainQuery<{ n: number }>(ctx.db, count.text, count.values);
    counts[side] = n;
    // The parties partyProblem could refuse, each once: SQL keeps those with no country to fall back on and no EU VAT
    // code, or a registration code too long (a superset of partyProblem's cases), and partyProblem decides.
    const parties = documentHeadersSql(
      q,
      `select distinct d.partner_code, d.partner_snapshot, pa.country_code as partner_country
         from docs d left join partners pa on pa.company_id = $1 and pa.code = d.partner_code
        where (d.partner_snapshot ->> 'countryCode' is null and pa.country_code is null
               and not coalesce(left(d.partner_snapshot ->> 'vatCode', 2) = any($${q.after ? 11 : 9}::text[]), false))
           or length(d.partner_snapshot ->> 'registrationCode') > 35`,
    );
    for (const row of await plainQuery<{ partner_code: string; partner_snapshot: Record<string, unknown>; partner_country: string | null }>(
      ctx.db,
      parties.text,
      [...parties.values, Object.keys(EU_VAT_PREFIXES)],
    )) {
      const problem = partyProblem(partyOf(row.partner_code, row.partner_snapshot, row.partner_country));
      if (problem) problems.set(row.partner_code, problem);
    }
  }
  if (problems.size) {
    const partners = [...problems.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([code, problem]) => ({ code, problem }));
    throw unprocessable(
      `i.SAF cannot name ${partners.length} partner(s) of ${ctx.period}: ${partners
        .slice(0, 5)
        .map((p) => `${p.code}: ${p.problem}`)
        .join("; ")}.`,
      "isaf.partner_incomplete",
      { partners: partners.slice(0, 100) },
    );
  }
  const total = counts.sale + counts.purchase;
  return { counts, parts: Math.max(1, Math.ceil(total / ctx.partSize)), accounts };
}

/** An amount as SQL gives it (numeric(17,2) text: "-?digits.dd") times the sign, never "-0.00"; no Decimal per amount. */
const money = (value: string, sign: number) => {
  if (/^-?0\.00$/.test(value)) return "0.00";
  if (sign > 0) return value;
  return value.startsWith("-") ? value.slice(1) : `-${value}`;
};
const percents = new Map<string, string>();
/** A rate as TaxPercentage writes it (two decimals), formatted once per distinct rate. */
const percentOf = (rate: string) => {
  let text = percents.get(rate);
  if (text === undefined) {
    text = new Decimal(rate).toFixed(2);
    percents.set(rate, text);
  }
  return text;
};

/**
 * Rows written between two full garbage collections (src/shared/collect-garbage.ts). Writing a part makes hundreds of
 * MB of short-lived objects (the fetched rows, the XML text), and V8 let the old generation grow to four times its live
 * heap before collecting: an i.SAF month (three parts, 150,000 invoices) took the API process from 212 MiB to a peak
 * of 441 MiB. Collected every 20,000 rows (twice in a part of 50,000 invoices), it grew by about 40 MiB instead
 * (issue 24; `npm run bench -- declarations`). Each collection stops the event loop for tens of ms — about what writing
 * one fetch of 5,000 rows takes already.
 */
const COLLECT_AFTER_ROWS = 20_000;

/** Writes part `partNumber` (from 1) of the month's i.SAF. Call inside one repeatable-read transaction with planIsaf. */
export async function writeIsafPart(ctx: IsafContext, plan: Awaited<ReturnType<typeof planIsaf>>, partNumber: number, createdAt: string): Promise<IsafPart> {
  const { declarant, period, dataType, partSize, db } = ctx;
  const { from, to } = monthRange(period);
  const kinds = await classifierKinds(db);
  // The part's slice of the sequence sales, then purchases.
  const start = (partNumber - 1) * partSize;
  const end = Math.min(start + partSize, plan.counts.sale + plan.counts.purchase);
  const ranges = {
    sale: { offset: Math.min(start, plan.counts.sale), count: Math.max(0, Math.min(end, plan.counts.sale) - Math.min(start, plan.counts.sale)) },
    purchase: {
      offset: Math.max(0, start - plan.counts.sale),
      count: Math.max(0, end - Math.max(start, plan.counts.sale)),
    },
  };
  const w = new XmlWriter(undefined, ctx.fd);
  w.open("iSAFFile", { xmlns: NS, "xmlns:xsi": XSI }).newline();
  w.open("Header")
    .open("FileDescription")
    .text("FileVersion", "iSAF1.2")
    .text("FileDateCreated", createdAt)
    .text("DataType", dataType)
    .text("SoftwareCompanyName", SOFTWARE.company)
    .text("SoftwareName", SOFTWARE.name)
    .text("SoftwareVersion", SOFTWARE.version)
    .text("RegistrationNumber", declarant.code)
    .text("NumberOfParts", plan.parts)
    .text("PartNumber", String(partNumber))
    .open("SelectionCriteria")
    .text("SelectionStartDate", from)
    .text("SelectionEndDate", to)
    .close("SelectionCriteria")
    .close("FileDescription")
    .close("Header")
    .newline();

  const sides = sidesOf(dataType).filter((s) => ranges[s].count > 0);
  // Where each side's slice starts: the document just before it (keyset), and the masters of its partners.
  const slices = new Map<string, { after?: { date: string; id: string }; masters: Map<string, Master> }>();
  for (const side of sides) {
    const q: DocumentQuery = { companyId: declarant.id, from, to, accounts: plan.accounts, side };
    const { offset, count } = ranges[side];
    let after: { date: string; id: string } | undefined;
    if (offset > 0) {
      const sql = documentHeadersSql(q, `select decl_date::text as date, id from docs order by decl_date, id offset ${offset - 1} limit 1`);
      const [row] = await plainQuery<{ date: string; id: string }>(db, sql.text, sql.values);
      after = row;
    }
    const mq: DocumentQuery = { ...q, after, limit: count };
    // Each partner's latest document of the slice (narrow rows), then that document's snapshot.
    const table = side === "sale" ? "sale_invoices" : "purchase_invoices";
    const sql = documentHeadersSql(
      mq,
      `select l.partner_code, x.partner_snapshot::text as snapshot_text, pa.country_code as partner_country
         from (select distinct on (d.partner_code) d.partner_code, d.id from docs d order by d.partner_code, d.decl_date desc, d.id desc) l
         join ${table} x on x.company_id = $1 and x.id = l.id
         left join partners pa on pa.company_id = $1 and pa.code = l.partner_code
        order by l.partner_code`,
    );
    const masters = new Map<string, Master>();
    for (const row of await plainQuery<{ partner_code: string; snapshot_text: string; partner_country: string | null }>(db, sql.text, sql.values)) {
      masters.set(row.partner_code, {
        party: partyOf(row.partner_code, JSON.parse(row.snapshot_text), row.partner_country),
        snapshotText: row.snapshot_text,
      });
    }
    slices.set(side, { after, masters });
  }

  const partyElements = (party: Party) => {
    w.text("VATRegistrationNumber", party.vat).text("RegistrationNumber", party.reg).textOrNil("Country", party.country).text("Name", party.name);
  };
  if (sides.length) {
    w.open("MasterFiles");
    for (const side of sides) {
      const [list, item, id] = side === "sale" ? ["Customers", "Customer", "CustomerID"] : ["Suppliers", "Supplier", "SupplierID"];
      w.open(list);
      for (const { party } of slices.get(side)!.masters.values()) {
        w.open(item).text(id, party.id);
        partyElements(party);
        w.close(item).newline();
      }
      w.close(list);
    }
    w.close("MasterFiles").newline();
    w.open("SourceDocuments");
  }

  const invoices = { sales: 0, purchases: 0 };
  let sinceCollected = 0;
  // Purchases come first in the XSD's SourceDocuments, sales second.
  for (const side of (["purchase", "sale"] as const).filter((s) => sides.includes(s))) {
    const slice = slices.get(side)!;
    const [section, info, idElement] = side === "sale" ? ["SalesInvoices", "CustomerInfo", "CustomerID"] : ["PurchaseInvoices", "SupplierInfo", "SupplierID"];
    w.open(section).newline();
    const count = ranges[side].count;
    if (count > 0) {
      // The side's slice is one statement read through a cursor, fetchRows rows a fetch; the next fetch is asked for while
      // this one is written (one connection: the database works while this process writes). A document's rows that
      // a fetch cuts wait for the next one.
      const q: DocumentQuery = { companyId: declarant.id, from, to, accounts: plan.accounts, side, after: slice.after, limit: count };
      const sql = documentGroupsSql(q, `select ${ISAF_COLUMNS} from rows order by decl_date, id, ord::int`);
      const cursor = `isaf_${side}`;
      await plainQuery(db, `declare ${cursor} no scroll cursor for ${sql.text}`, sql.values);
      const fetch = () => {
        const promise = plainQuery<IsafRow>(db, `fetch ${ctx.fetchRows} from ${cursor}`, []);
        promise.catch(() => undefined); // awaited below; a failure while the batch before is written is not unhandled
        return promise;
      };
      let next: Promise<IsafRow[]> | undefined = fetch();
      let pending: IsafRow[] = [];
      while (next) {
        const fetched: IsafRow[] = await next;
        next = fetched.length === ctx.fetchRows ? fetch() : undefined;
        const rows = pending.length ? pending.concat(fetched) : fetched;
        // The last document's rows may go on in the next fetch, unless this was the last.
        let stop = rows.length;
        if (next) {
          const lastId = rows[rows.length - 1].id;
          while (stop > 0 && rows[stop - 1].id === lastId) stop--;
        }
        let i = 0;
        while (i < stop) {
          const doc = rows[i];
          let j = i;
          while (j < stop && rows[j].id === doc.id) j++;
          writeInvoice(w, doc, rows.slice(i, j), { info, idElement, master: slice.masters.get(doc.partner_code), kinds });
          if (side === "sale") invoices.sales++;
          else invoices.purchases++;
          i = j;
        }
        pending = rows.slice(stop);
        // Every COLLECT_AFTER_ROWS rows written, their objects and text (tens of MB, some of it promoted) are
        // collected at once: see COLLECT_AFTER_ROWS.
        sinceCollected += stop;
        if (sinceCollected >= COLLECT_AFTER_ROWS) {
          collectGarbage();
          sinceCollected = 0;
        }
      }
      await plainQuery(db, `close ${cursor}`, []);
    }
    w.close(section).newline();
  }
  if (sides.length) w.close("SourceDocuments").newline();
  w.close("iSAFFile").newline();
  const file = w.finish();
  const suffix = plan.parts > 1 ? `_${partNumber}of${plan.parts}` : "";
  return { file, fileName: `iSAF_${declarant.code}_${period}_${dataType}${suffix}.xml`, partNumber, parts: plan.parts, invoices };
}

function writeInvoice(
  w: XmlWriter,
  doc: IsafRow,
  groups: IsafRow[],
  o: { info: string; idElement: string; master: Master | undefined; kinds: Map<string, string> },
): void {
  const type = documentTypeOf(doc.side, doc.type, doc.status)!;
  // The same snapshot as the master's (jsonb's text is canonical) is the same party; only another one is parsed.
  const party =
    o.master && o.master.snapshotText === doc.snapshot_text ? o.master.party : partyOf(doc.partner_code, JSON.parse(doc.snapshot_text), doc.partner_country);
  w.open("Invoice").text("InvoiceNo", doc.doc_no);
  w.open(o.info);
  if (o.master && sameParty(o.master.party, party)) {
    // Named by its master record: the other fields "shall not be filled in" (XSD annotation); the required ones are empty.
    w.text(o.idElement, party.id).text("VATRegistrationNumber", "").nil("Country").text("Name", "");
  } else {
    w.text("VATRegistrationNumber", party.vat).text("RegistrationNumber", party.reg).textOrNil("Country", party.country).text("Name", party.name);
  }
  w.close(o.info);
  w.text("InvoiceDate", doc.invoice_date).text("InvoiceType", type.isafType).text("SpecialTaxation", "");
  w.open("References");
  if (doc.credited_no && doc.credited_date)
    w.open("Reference").text("ReferenceNo", doc.credited_no).text("ReferenceDate", doc.credited_date).close("Reference");
  w.close("References");
  // A supply date before the XSD's floor (2016-07-01) cannot be written: nil, as when it is the invoice date.
  const vatPoint = doc.supply_date && doc.supply_date !== doc.invoice_date && doc.supply_date >= "2016-07-01" ? doc.supply_date : null;
  w.textOrNil("VATPointDate", vatPoint);
  if (doc.side === "purchase") w.text("RegistrationAccountDate", doc.decl_date);
  w.open("DocumentTotals");
  const sign = type.sign;
  for (const g of groups) {
    w.open("DocumentTotal").text("TaxableValue", money(g.taxable_eur, sign)).text("TaxCode", g.classifier);
    if (NO_RATE_KINDS.has(o.kinds.get(g.classifier) ?? "")) w.nil("TaxPercentage");
    else w.text("TaxPercentage", percentOf(g.rate_pct));
    w.text("Amount", money(g.vat_eur, sign));
    if (doc.side === "sale") w.nil("VATPointDate2");
    w.close("DocumentTotal");
  }
  w.close("DocumentTotals").close("Invoice").newline();
}
