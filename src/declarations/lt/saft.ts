// SAF-T LT 2.01, the standard audit file of the books (issue 27), as shared/schemas/lt/SAFT_2_01.xsd defines it
// (namespace https://www.vmi.lt/cms/saf-t). This writes the general ledger data type (`GL`) — and the header and master
// files every data type shares (./saft-invoices.ts writes `SI` and `PI` with them): the header, the master
// files — the accounts the range touches with their opening and closing balances, the customers and suppliers with
// theirs per partner account, the VAT table — and every journal transaction of the range with its lines. The file is
// cut into parts of `partSize` transactions (SAFT_PART_SIZE); the master files go in part 1, and each part's
// GeneralLedgerEntries carries its own count and totals. Everything is read inside one repeatable-read transaction
// (the caller's), so the parts of one file see one state of the books; the journal through a cursor, `fetchRows` rows a
// fetch. The same books give the same bytes: the creation time written is the file's request time, and every list has
// a fixed order.
//
// What each element holds (the XSD's annotations; what the XSD leaves open is marked "choice"):
//   Header/AuditFileDateCreated     when the file was asked for, Vilnius time (the request's, so a restart writes the same).
//   Header/Company                  the company's code, name (at most 70 characters: cut), its structured addresses with a
//                                   postal code (default first, each with its type) else its registered address (BA),
//                                   contact person with the contact's or the company's telephone, VAT code (PVM), IBAN.
//   Header/SelectionCriteria        the range; PeriodStart/PeriodEnd the same dates.
//   Header/FiscalYearFrom|To        the company's financial year that holds `from` (fiscalYearStartMonth).
//   Header/Entity                   ENTITY (choice: the XSD asks for an identifier of the information system).
//   Account                         each account with a line on or before `to`: AccountTableID and AccountType from the
//                                   chart (`saft_account_table_id`, `saft_account_type`; without them the account's own
//                                   code and a type from its kind), AccountTableDescription the classifier's name of
//                                   that id: the sample chart's account of that code (ledger's saftAccountTableDescription),
//                                   else the company's chart account of that code, else the account's own name; a balance
//                                   on the debit side when debits exceed
//                                   credits, else on the credit side (a zero balance: Debit 0.00).
//   Customer / Supplier             each partner with a line on an asset account (customer) or a liability account
//                                   (supplier) on or before `to`, with its balance on each such account (`Accounts`);
//                                   its address (BA) must have a city and postal code (generate refuses otherwise).
//                                   SelfBillingIndicator of a supplier is empty (choice: only "V", self-billing, is defined).
//   TaxTable                        the VAT classifiers valid in the range: TaxCode = STITaxCode = the classifier.
//   Owners                          the company's owners (ledger/owners): OwnerID the code, AccountID the capital account,
//                                   SharesType PP (ordinary) or PRV (preference), what is kept of their shares.
//   Journal                         one per document type of the journal (JOURNALS), in that order.
//   Transaction                     TransactionID the number, or the id without one; Period the month of the financial
//                                   year (1 = its first) and PeriodYear the year it starts in; SystemEntryDate when it was
//                                   posted (Vilnius time); CustomerID/SupplierID the first partner its lines name, as a
//                                   customer when it is one, else as a supplier — and an empty CustomerID when none
//                                   (choice: the XSD requires the element and defines nothing for a transaction
//                                   without a partner).
//   Line                            RecordID the line number; the same partner rule per line; Description the line's,
//                                   else the transaction's, else the account's name; the amount in EUR with the
//                                   line's currency and currency amount when it has them. On a document's transaction
//                                   (a sale or purchase), the line that names the partner (its receivable or payable)
//                                   carries the document's number (SourceDocumentID) and TaxInformations: one per
//                                   (classifier, rate) the document declared, as stored when it posted
//                                   (vat_declared_rows; the amounts i.SAF and FR0600 declare), in EUR, not negative
//                                   (the line's side says which way; an annulled invoice's on its original posting).
import type { Db } from "../../db/connection.js";
import { plainQuery } from "../../db/prepared.js";
import { Decimal } from "../../shared/decimal.js";
import type { OwnersRow } from "../../db/rows.js";
import { type DateRange, dayBefore, fiscalYearStart, ownersOf, saftAccountTableDescription, sumsQuery } from "../../ledger/index.js";
import { SOFTWARE } from "../declarant.js";
import { XmlWriter, type XmlFile } from "../xml-writer.js";

const NS = "https://www.vmi.lt/cms/saf-t";
const XSI = "http://www.w3.org/2001/XMLSchema-instance";
/** Header/Entity: the information system the file comes from (`[A-Z0-9_]{1,20}`). */
export const ENTITY = "ACCOUNTING_API";

/** The journals of the file: a journal transaction's document type, its JournalID (at most 18) and description. */
export const JOURNALS: readonly { documentType: string; id: string; description: string }[] = [
  { documentType: "migration_opening", id: "ATID", description: "Atidarymo likučiai / Opening balances" },
  { documentType: "migration", id: "PERK", description: "Perkelti istoriniai įrašai / Migrated history" },
  { documentType: "manual", id: "BZ", description: "Bendrasis žurnalas / General journal" },
  { documentType: "reversal", id: "STOR", description: "Stornavimai / Reversals" },
  { documentType: "sale_invoice", id: "PARD", description: "Pardavimai / Sales" },
  { documentType: "purchase_invoice", id: "PIRK", description: "Pirkimai / Purchases" },
  { documentType: "payment", id: "BANK", description: "Mokėjimai / Payments" },
  { documentType: "inventory", id: "ATSR", description: "Atsargos / Inventory" },
  { documentType: "depreciation", id: "NUSD", description: "Nusidėvėjimas / Depreciation" },
  { documentType: "asset_disposal", id: "IT", description: "Ilgalaikio turto perleidimas / Asset disposals" },
  { documentType: "fx_revaluation", id: "VAL", description: "Valiutų perkainojimas / Currency revaluation" },
];
const JOURNAL_ORDER = JOURNALS.map((j) => j.documentType);

export interface SaftCompany {
  code: string;
  name: string;
  vatCode: string | null;
  baseCurrency: string;
  address: { line1?: string; line2?: string; city?: string; postalCode?: string; countryCode?: string } | null;
  iban: string | null;
  phone: string | null;
  email: string | null;
  contactPerson: { firstName: string; lastName: string; phone?: string | null; email?: string | null } | null;
  fiscalYearStartMonth: number;
  /** Its structured addresses (account/companies/addresses), the default first; empty when it has none. */
  addresses: SaftStructuredAddress[];
}

export interface SaftRequest {
  from: string;
  to: string;
  /** When the file was asked for (written as AuditFileDateCreated). */
  createdAt: Date;
}

export interface SaftSizes {
  /** Journal transactions a part carries. */
  partSize: number;
  /** Rows a fetch of the journal's cursor reads. */
  fetchRows: number;
}

export interface SaftPartWritten {
  partNumber: number;
  parts: number;
  fileName: string;
  file: XmlFile;
  /** Journal transactions the part carries. */
  transactions: number;
}

/**
 * Where a writer's parts stand in the file: the file's data type, the parts before the writer's first (a whole file,
 * `F`, is the parts of each data type's writer one after another) and the file's parts in all, and what the file's
 * first part carries as master files.
 */
export interface SaftFrame {
  dataType: SaftDataType;
  offset: number;
  parts: number;
  masterFiles(w: XmlWriter): void;
}

/** A new part: the root element, the header, and in the file's first part the master files. `local`: the writer's own part number, from 1. */
export function openPart(company: SaftCompany, request: SaftRequest, frame: SaftFrame, local: number): XmlWriter {
  const w = new XmlWriter();
  const partNumber = frame.offset + local;
  w.open("AuditFile", { xmlns: NS, "xmlns:xsi": XSI }).newline();
  writeHeader(w, company, request, frame.dataType, partNumber, frame.parts);
  if (partNumber === 1) frame.masterFiles(w);
  return w;
}

/** A finished part (the root element closed here) as the caller stores it. */
export function closePart(w: XmlWriter, company: SaftCompany, request: SaftRequest, frame: SaftFrame, local: number, rows: number): SaftPartWritten {
  w.close("AuditFile").newline();
  const partNumber = frame.offset + local;
  return {
    partNumber,
    parts: frame.parts,
    fileName: `SAFT_${frame.dataType}_${company.code}_${request.from}_${request.to}_${partNumber}of${frame.parts}.xml`,
    file: w.finish(),
    transactions: rows,
  };
}

// One formatter for every time written: making one costs more than writing a transaction.
const VILNIUS = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Europe/Vilnius",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

/** `YYYY-MM-DDThh:mm:ss` in Vilnius, without a zone (SAFdateTime). */
export function vilniusDateTime(at: Date): string {
  const parts: Record<string, string> = {};
  for (const p of VILNIUS.formatToParts(at)) parts[p.type] = p.value;
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

/**
 * SQL giving timestamptz `column` as vilniusDateTime does, formatted by the database (a file's million transactions
 * are not parsed into dates and formatted again in the worker).
 */
export const vilniusSql = (column: string) => `to_char(${column} at time zone 'Europe/Vilnius', 'YYYY-MM-DD"T"HH24:MI:SS')`;

/** At most `max` characters (the XSD's maxLength counts characters), cut at a character, never inside a surrogate pair. */
export const cut = (value: string, max: number) => (value.length <= max ? value : Array.from(value).slice(0, max).join("").slice(0, max));

export const money = (value: Decimal) => value.toFixed(2);

/** The last day of the financial year that starts on `start` (`YYYY-MM-01`). */
function fiscalYearEnd(start: string): string {
  const d = new Date(`${start}T00:00:00Z`);
  return dayBefore(new Date(Date.UTC(d.getUTCFullYear() + 1, d.getUTCMonth(), 1)).toISOString().slice(0, 10));
}

/** A transaction's Period (month of its financial year, 1 = the first) and PeriodYear (the year that year starts in). */
export function fiscalPeriod(date: string, startMonth: number): { period: number; year: number } {
  const start = fiscalYearStart(date, startMonth);
  const months = (Number(date.slice(0, 4)) - Number(start.slice(0, 4))) * 12 + Number(date.slice(5, 7)) - startMonth;
  return { period: months + 1, year: Number(start.slice(0, 4)) };
}

/** An account type from its kind and code, for an account the chart gives no SAF-T type. */
function accountTypeOf(type: string, code: string): string {
  switch (type) {
    case "asset":
      return code.startsWith("1") ? "IT" : "TT";
    case "liability":
      return "I";
    case "equity":
      return "NK";
    case "income":
      return "P";
    case "expense":
      return "S";
  }
  return "KT";
}

interface AccountRow {
  code: string;
  name: string;
  type: string;
  table_id: string;
  /** The company's chart account of the SAF-T id, else the account's own name (for an id outside the classifier). */
  chart_description: string;
  saft_type: string | null;
  od: string;
  oc: string;
  cd: string;
  cc: string;
}

/** A partner's structured address (partners/addresses) as a file writes it. */
export interface SaftStructuredAddress {
  type: "registered" | "billing" | "shipping";
  street: string | null;
  building: string | null;
  city: string;
  postal_code: string | null;
  country_code: string;
}

/** SQL of an owner's structured addresses (`table` aliased `a`, rows where `owner`) as a JSON list, the default first. */
export const structuredAddressesSql = (table: "partner_addresses" | "company_addresses", owner: string) =>
  `coalesce((select jsonb_agg(jsonb_build_object('type', a.type, 'street', a.street, 'building', a.building, 'city', a.city,
                                                 'postal_code', a.postal_code, 'country_code', a.country_code)
                              order by a.is_default desc, a.created_at, a.id)
               from ${table} a where ${owner}), '[]')`;

/** AddressType of a structured address: BA the registered office, KA the mailing (billing) address, PIA shipping. */
const ADDRESS_TYPES: Record<SaftStructuredAddress["type"], string> = { registered: "BA", billing: "KA", shipping: "PIA" };

interface PartnerRow {
  code: string;
  name: string;
  registration_code: string | null;
  vat_code: string | null;
  country_code: string | null;
  address: SaftCompany["address"];
  email: string | null;
  phone: string | null;
  iban: string | null;
  /** Its structured addresses, the default first; empty when it has none (the free `address` is written then). */
  addresses: SaftStructuredAddress[];
}

interface PartnerAccountRow {
  partner_code: string;
  account_code: string;
  account_type: string;
  od: string;
  oc: string;
  cd: string;
  cc: string;
}

/** What part 1's master files and every part's partner references need, read once. */
export interface SaftMasterData {
  accounts: AccountRow[];
  customers: Map<string, PartnerAccountRow[]>;
  suppliers: Map<string, PartnerAccountRow[]>;
  partners: Map<string, PartnerRow>;
  taxCodes: { code: string; name: string; rate: string }[];
  accountNames: Map<string, string>;
  owners: OwnersRow[];
}

/** The opening (the day before `from`) and closing (`to`) sums, for accounts or accounts and partners. */
function balancesSql(companyId: string, range: { from: string; to: string }, partners: boolean) {
  const ranges: DateRange[] = [
    { from: null, to: dayBefore(range.from) },
    { from: null, to: range.to },
  ];
  return sumsQuery(companyId, ranges, partners ? { partners: {} } : {});
}

/** Reads the master data of a file (inside the caller's repeatable-read transaction). */
export async function loadSaftMasterData(db: Db, companyId: string, range: { from: string; to: string }): Promise<SaftMasterData> {
  const sums = balancesSql(companyId, range, false);
  const accounts = sums
    ? (
        await db.raw<{ rows: AccountRow[] }>(
          `select a.code, a.name, a.type, coalesce(a.saft_account_table_id, a.code) as table_id,
                  coalesce(t.name, a.name) as chart_description, a.saft_account_type as saft_type,
                  s.d0::text as od, s.c0::text as oc, s.d1::text as cd, s.c1::text as cc
             from (${sums.sql}) s
             join ledger_accounts a on a.company_id = ? and a.code = s.account_code
             left join ledger_accounts t on t.company_id = a.company_id and t.code = a.saft_account_table_id
            order by a.code`,
          [...sums.bindings, companyId],
        )
      ).rows
    : [];
  const partnerSums = balancesSql(companyId, range, true);
  const partnerAccounts = partnerSums
    ? (
        await db.raw<{ rows: PartnerAccountRow[] }>(
          `select s.partner_code, s.account_code, a.type as account_type, s.d0::text as od, s.c0::text as oc, s.d1::text as cd, s.c1::text as cc
             from (${partnerSums.sql}) s
             join ledger_accounts a on a.company_id = ? and a.code = s.account_code and a.type in ('asset', 'liability')
            order by s.partner_code, s.account_code`,
          [...partnerSums.bindings, companyId],
        )
      ).rows
    : [];
  const customers = new Map<string, PartnerAccountRow[]>();
  const suppliers = new Map<string, PartnerAccountRow[]>();
  for (const row of partnerAccounts) {
    const side = row.account_type === "asset" ? customers : suppliers;
    side.set(row.partner_code, [...(side.get(row.partner_code) ?? []), row]);
  }
  const codes = [...new Set([...customers.keys(), ...suppliers.keys()])];
  const partners = new Map<string, PartnerRow>();
  if (codes.length) {
    const rows = await plainQuery<PartnerRow>(
      db,
      `select p.code, p.name, p.registration_code, p.vat_code, p.country_code, p.address, p.email, p.phone, p.iban,
              ${structuredAddressesSql("partner_addresses", "a.company_id = p.company_id and a.partner_id = p.id")} as addresses
         from partners p where p.company_id = $1 and p.code = any($2::text[]) order by p.code`,
      [companyId, codes],
    );
    for (const row of rows) partners.set(row.code, row);
  }
  const taxCodes = await plainQuery<{ code: string; name: string; rate: string }>(
    db,
    `select code, name, rate::text as rate from vat_classifiers
      where country_code = 'LT' and valid_from <= $1::date and (valid_to is null or valid_to >= $2::date)
      order by code, valid_from`,
    [range.to, range.from],
  );
  const names = await plainQuery<{ code: string; name: string }>(db, "select code, name from ledger_accounts where company_id = $1", [companyId]);
  const owners = await ownersOf(db, companyId);
  return { accounts, customers, suppliers, partners, taxCodes, accountNames: new Map(names.map((n) => [n.code, n.name])), owners };
}

/** What the file's partners lack for SAF-T (generate refuses the file, naming them): at most `limit`. */
export function incompletePartners(master: SaftMasterData, limit = 100): { code: string; name: string; missing: string[] }[] {
  const problems: { code: string; name: string; missing: string[] }[] = [];
  for (const [code, partner] of master.partners) {
    const missing: string[] = [];
    if (partner.addresses?.length) {
      // Its structured addresses are written (those with a postal code): one of them must have one.
      if (!partner.addresses.some((a) => a.postal_code)) missing.push("addresses[].postalCode");
    } else {
      if (!partner.address?.city) missing.push("address.city");
      if (!partner.address?.postalCode) missing.push("address.postalCode");
      if (!partner.address?.countryCode && !partner.country_code) missing.push("address.countryCode");
      if ((partner.address?.postalCode ?? "").length > 18) missing.push("address.postalCode (at most 18 characters)");
      if ((partner.address?.city ?? "").length > 35) missing.push("address.city (at most 35 characters)");
    }
    if (code.length > 35) missing.push("code (at most 35 characters)");
    if ((partner.registration_code ?? "").length > 35) missing.push("registrationCode (at most 35 characters)");
    if (missing.length) problems.push({ code, name: partner.name, missing });
    if (problems.length >= limit) break;
  }
  return problems;
}

/** What the company lacks for a SAF-T header (generate refuses the file, naming the fields). */
export function incompleteCompany(company: SaftCompany): string[] {
  const missing: string[] = [];
  if (company.addresses.length) {
    // Its structured addresses are written (those with a postal code): one of them must have one.
    if (!company.addresses.some((a) => a.postal_code)) missing.push("addresses[].postalCode");
  } else {
    if (!company.address?.city) missing.push("address.city");
    if (!company.address?.postalCode) missing.push("address.postalCode");
    if ((company.address?.postalCode ?? "").length > 18) missing.push("address.postalCode (at most 18 characters)");
    if ((company.address?.city ?? "").length > 35) missing.push("address.city (at most 35 characters)");
  }
  if (!company.contactPerson) missing.push("contactPerson");
  const phone = company.contactPerson?.phone ?? company.phone;
  if (!phone) missing.push("contactPerson.phone");
  else if (phone.length > 18) missing.push("contactPerson.phone (at most 18 characters)");
  if (company.code.length > 35) missing.push("code (at most 35 characters)");
  return missing;
}

/** The journal transactions of the range, in file order (journal, date, creation, id): the statement and its values. */
function journalSql(companyId: string, range: { from: string; to: string }) {
  return {
    text: `select t.id, t.number, t.date::text as date, t.description, t.document_type, ${vilniusSql("t.created_at")} as system_entry,
                  e.line_no, e.account_code, e.debit::text as debit, e.credit::text as credit, e.partner_code, e.currency,
                  e.currency_amount::text as currency_amount, e.description as line_description
             from journal_transactions t
             join journal_entries e on e.company_id = t.company_id and e.transaction_id = t.id
            where t.company_id = $1 and t.date >= $2::date and t.date <= $3::date
            order by array_position($4::text[], t.document_type), t.date, t.created_at, t.id, e.line_no`,
    values: [companyId, range.from, range.to, JOURNAL_ORDER],
  };
}

/** A part of the file: its journal transactions and their total (TotalDebit = TotalCredit: every transaction balances). */
export interface SaftPartPlan {
  transactions: number;
  total: string;
}

/**
 * The parts of the range's journal, `partSize` transactions each in file order (at least one part, empty for an
 * empty range), with each part's count and total: one pass over the range's transaction headers.
 */
export async function planSaftParts(db: Db, companyId: string, range: { from: string; to: string }, partSize: number): Promise<SaftPartPlan[]> {
  const rows = await plainQuery<{ part: string; transactions: string; total: string }>(
    db,
    `select part, count(*) as transactions, sum(total)::text as total
       from (select (row_number() over (order by array_position($4::text[], document_type), date, created_at, id) - 1) / $5::bigint as part, total
               from journal_transactions where company_id = $1 and date >= $2::date and date <= $3::date) t
      group by part order by part`,
    [companyId, range.from, range.to, JOURNAL_ORDER, partSize],
  );
  if (!rows.length) return [{ transactions: 0, total: "0" }];
  return rows.map((r) => ({ transactions: Number(r.transactions), total: r.total }));
}

interface JournalRow {
  id: string;
  number: string | null;
  date: string;
  description: string | null;
  document_type: string;
  /** When it was posted, `YYYY-MM-DDThh:mm:ss` in Vilnius (vilniusSql). */
  system_entry: string;
  line_no: number;
  account_code: string;
  debit: string;
  credit: string;
  partner_code: string | null;
  currency: string | null;
  currency_amount: string | null;
  line_description: string | null;
}

interface Transaction {
  head: JournalRow;
  lines: JournalRow[];
}

/** What a document declared when it posted (vat_declared_rows), by its journal transaction. */
interface TaxRow {
  tx: string;
  doc_no: string;
  classifier: string;
  rate_pct: string;
  base: string;
  vat: string;
}
/** The journals whose transactions a document posted with its VAT (the rows stored by vat_declared_store). */
const TAXED_DOCUMENT_TYPES = ["sale_invoice", "purchase_invoice"];

/** The declared rows of the fetched transactions posted by documents, added to `into` by transaction. */
async function readTaxes(db: Db, companyId: string, rows: JournalRow[], into: Map<string, TaxRow[]>): Promise<void> {
  const ids = [...new Set(rows.filter((r) => TAXED_DOCUMENT_TYPES.includes(r.document_type)).map((r) => r.id))];
  if (!ids.length) return;
  const taxes = await plainQuery<TaxRow>(
    db,
    `select journal_transaction_id as tx, doc_no, classifier, rate_pct::text as rate_pct, base::text as base, vat::text as vat
       from vat_declared_rows where company_id = $1 and journal_transaction_id = any($2::uuid[]) and ord > 0
      order by journal_transaction_id, document_id, ord`,
    [companyId, ids],
  );
  for (const t of taxes) {
    const list = into.get(t.tx);
    if (list) list.push(t);
    else into.set(t.tx, [t]);
  }
}

/**
 * Writes every part of the file in order (`plan`: planSaftParts, in the same transaction), handing each to `onPart`
 * as it is done (to store it) before the next is written. A part's GeneralLedgerEntries opens with its count and
 * totals, which the plan knows, so the journal is streamed from the cursor into the part as it is read.
 */
export async function writeSaftGl(
  db: Db,
  companyId: string,
  company: SaftCompany,
  request: SaftRequest,
  master: SaftMasterData,
  frame: SaftFrame,
  plan: SaftPartPlan[],
  sizes: SaftSizes,
  onPart: (part: SaftPartWritten) => Promise<void>,
): Promise<void> {
  const parts = plan.length;
  let partNumber = 0;
  let w = new XmlWriter();
  let inPart = 0;
  let journal: string | null = null;
  // The declared VAT of the transactions fetched and not yet written (readTaxes).
  const taxes = new Map<string, TaxRow[]>();

  const startPart = () => {
    partNumber++;
    w = openPart(company, request, frame, partNumber);
    const { transactions, total } = plan[partNumber - 1];
    const totals = money(new Decimal(total));
    w.open("GeneralLedgerEntries").text("NumberOfEntries", transactions).text("TotalDebit", totals).text("TotalCredit", totals).newline();
    if (transactions) w.open("Journals").newline();
    inPart = 0;
    journal = null;
  };
  const endPart = async () => {
    const expected = plan[partNumber - 1].transactions;
    if (inPart !== expected) throw new Error(`writeSaftGl: part ${partNumber} has ${inPart} transactions, its plan ${expected}`);
    if (journal !== null) w.close("Transactions").close("Journal").newline();
    if (expected) w.close("Journals").newline();
    w.close("GeneralLedgerEntries").newline();
    await onPart(closePart(w, company, request, frame, partNumber, inPart));
  };
  const writeTransaction = (t: Transaction) => {
    if (inPart === plan[partNumber - 1].transactions) throw new Error(`writeSaftGl: part ${partNumber} is full`);
    const journalOf = JOURNALS.find((j) => j.documentType === t.head.document_type) ?? {
      id: t.head.document_type.toUpperCase().slice(0, 18),
      description: t.head.document_type,
    };
    if (journal !== journalOf.id) {
      if (journal !== null) w.close("Transactions").close("Journal").newline();
      w.open("Journal").text("JournalID", journalOf.id).text("Description", journalOf.description).text("Type", journalOf.id).open("Transactions").newline();
      journal = journalOf.id;
    }
    const { period, year } = fiscalPeriod(t.head.date, company.fiscalYearStartMonth);
    const description = t.head.description || `${journalOf.description} ${t.head.number ?? t.head.id}`;
    w.open("Transaction")
      .text("TransactionID", t.head.number ?? t.head.id)
      .text("Period", period)
      .text("PeriodYear", year)
      .text("TransactionDate", t.head.date)
      .text("Description", cut(description, 256))
      .text("SystemEntryDate", t.head.system_entry)
      .text("GLPostingDate", t.head.date);
    writePartner(w, master, t.lines.find((l) => l.partner_code)?.partner_code ?? null);
    // A document's declared VAT goes on its line that names the partner (its receivable or payable).
    const declared = taxes.get(t.head.id);
    taxes.delete(t.head.id);
    const taxLine = declared ? t.lines.find((l) => l.partner_code) : undefined;
    w.open("Lines");
    for (const line of t.lines) {
      w.open("Line").text("RecordID", line.line_no).text("AccountID", line.account_code);
      if (line === taxLine) w.text("SourceDocumentID", cut(declared![0].doc_no, 35));
      writePartner(w, master, line.partner_code);
      w.text("Description", cut(line.line_description || description || master.accountNames.get(line.account_code) || line.account_code, 256));
      // numeric(18,2) as text: two decimals already, as SAFmonetaryType wants them; one side is zero.
      const credit = line.debit === "0.00";
      const side = credit ? "CreditAmount" : "DebitAmount";
      w.open(side).text("Amount", credit ? line.credit : line.debit);
      if (line.currency && line.currency_amount) w.text("CurrencyCode", line.currency).text("CurrencyAmount", line.currency_amount);
      w.close(side);
      if (line === taxLine) {
        w.open("TaxInformations");
        for (const tax of declared!) {
          w.open("TaxInformation")
            .text("TaxType", "PVM")
            .text("TaxCode", tax.classifier)
            .text("TaxPercentage", tax.rate_pct)
            .text("TaxBase", tax.base)
            .open("TaxAmount")
            .text("Amount", tax.vat)
            .close("TaxAmount")
            .close("TaxInformation");
        }
        w.close("TaxInformations");
      }
      w.close("Line");
    }
    w.close("Lines").close("Transaction").newline();
    inPart++;
  };
  const write = async (t: Transaction) => {
    if (inPart === plan[partNumber - 1].transactions && partNumber < parts) {
      await endPart();
      startPart();
    }
    writeTransaction(t);
  };

  startPart();
  const sql = journalSql(companyId, request);
  const cursor = "saft_journal";
  await plainQuery(db, `declare ${cursor} no scroll cursor for ${sql.text}`, sql.values);
  let current: Transaction | undefined;
  for (;;) {
    const fetched = await plainQuery<JournalRow>(db, `fetch ${sizes.fetchRows} from ${cursor}`, []);
    await readTaxes(db, companyId, fetched, taxes);
    for (const row of fetched) {
      if (current?.head.id === row.id) current.lines.push(row);
      else {
        if (current) await write(current);
        current = { head: row, lines: [row] };
      }
    }
    if (fetched.length < sizes.fetchRows) break;
  }
  await plainQuery(db, `close ${cursor}`, []);
  if (current) await write(current);
  await endPart();
  if (partNumber !== parts) throw new Error(`writeSaftGl: wrote ${partNumber} parts of ${parts}`);
}

/** CustomerID or SupplierID of a partner code (a customer first); an empty CustomerID for none (see the head comment). */
function writePartner(w: XmlWriter, master: SaftMasterData, partnerCode: string | null): void {
  if (partnerCode && master.suppliers.has(partnerCode) && !master.customers.has(partnerCode)) w.text("SupplierID", partnerCode);
  else w.text("CustomerID", partnerCode ?? "");
}

/** A structured address (partners/addresses) as an AddressStructure: street, building (Number), city, postal code, country, type. */
export function writeStructuredAddress(w: XmlWriter, a: SaftStructuredAddress, element = "Address"): void {
  w.open(element);
  if (a.street) w.text("StreetName", cut(a.street, 70));
  if (a.building) w.text("Number", cut(a.building, 18));
  w.text("City", cut(a.city, 35))
    .text("PostalCode", cut(a.postal_code ?? "", 18))
    .text("Country", a.country_code)
    .text("AddressType", ADDRESS_TYPES[a.type]);
  if (a.street && a.street.length > 70) w.text("FullAddress", cut(`${a.street} ${a.building ?? ""}, ${a.city} ${a.postal_code ?? ""}`, 256));
  w.close(element);
}

/** An AddressStructure (`element`: Address, or PostalAddress of an asset's supplier), registered address (BA). */
export function writeAddress(w: XmlWriter, address: NonNullable<SaftCompany["address"]>, countryCode: string, element = "Address"): void {
  w.open(element);
  const street = [address.line1, address.line2].filter(Boolean).join(", ");
  if (street) w.text("StreetName", cut(street, 70));
  w.text("City", address.city ?? "")
    .text("PostalCode", address.postalCode ?? "")
    .text("Country", address.countryCode ?? countryCode)
    .text("AddressType", "BA");
  if (street.length > 70) w.text("FullAddress", cut(`${street}, ${address.city ?? ""} ${address.postalCode ?? ""}`, 256));
  w.close(element);
}

/** The SAF-T data types: F the whole file, GL the general ledger, SI sales, PI purchases, PA payments, MG movements of goods, AS assets. */
export type SaftDataType = "F" | "GL" | "SI" | "PI" | "PA" | "MG" | "AS";

export function writeHeader(w: XmlWriter, company: SaftCompany, request: SaftRequest, dataType: SaftDataType, partNumber: number, parts: number): void {
  const fiscalFrom = fiscalYearStart(request.from, company.fiscalYearStartMonth);
  w.open("Header")
    .text("AuditFileVersion", "2.01")
    .text("AuditFileCountry", "LT")
    .text("AuditFileDateCreated", vilniusDateTime(request.createdAt))
    .text("SoftwareCompanyName", SOFTWARE.company)
    .text("SoftwareID", SOFTWARE.name)
    .text("SoftwareVersion", cut(SOFTWARE.version, 18))
    .open("Company")
    .text("RegistrationNumber", company.code)
    .text("Name", cut(company.name, 70));
  const structured = company.addresses.filter((a) => a.postal_code);
  if (structured.length) for (const a of structured) writeStructuredAddress(w, a);
  else writeAddress(w, company.address ?? {}, "LT");
  const contact = company.contactPerson!;
  w.open("Contact")
    .open("ContactPerson")
    .text("FirstName", cut(contact.firstName, 35))
    .text("LastName", cut(contact.lastName, 70))
    .close("ContactPerson")
    .text("Telephone", (contact.phone ?? company.phone)!);
  const email = contact.email ?? company.email;
  if (email && email.length <= 70) w.text("Email", email);
  w.close("Contact");
  if (company.vatCode)
    w.open("TaxRegistration").text("TaxRegistrationNumber", company.vatCode).text("TaxType", "PVM").text("Country", "LT").close("TaxRegistration");
  if (company.iban) w.open("BankAccount").text("IBANNumber", company.iban).close("BankAccount");
  w.close("Company")
    .text("DefaultCurrencyCode", company.baseCurrency)
    .open("SelectionCriteria")
    .text("SelectionStartDate", request.from)
    .text("SelectionEndDate", request.to)
    .text("PeriodStart", request.from)
    .text("PeriodEnd", request.to)
    .close("SelectionCriteria")
    .text("TaxAccountingBasis", "K")
    .text("FiscalYearFrom", fiscalFrom)
    .text("FiscalYearTo", fiscalYearEnd(fiscalFrom))
    .text("Entity", ENTITY)
    .text("DataType", dataType)
    .text("NumberOfParts", parts)
    .text("PartNumber", partNumber)
    .close("Header")
    .newline();
}

/** A balance's side and amount: debit when debits exceed credits, else credit (a zero balance on the debit side). */
function writeBalance(w: XmlWriter, which: "Opening" | "Closing", debit: string, credit: string): void {
  const net = new Decimal(debit).minus(credit);
  if (net.isNegative() && !net.isZero()) w.text(`${which}CreditBalance`, money(net.negated()));
  else w.text(`${which}DebitBalance`, money(net));
}

/**
 * The master files a data type writes: GL every section it reads; SI the customers and the tax table, PI the
 * suppliers and the tax table (the partners and codes its documents name), PA and MG the customers and the suppliers,
 * AS none of these (its assets name their suppliers with their addresses). The partners map keeps only those written,
 * so that generate's check names only the partners of the file.
 */
export function masterFor(master: SaftMasterData, dataType: SaftDataType): SaftMasterData {
  if (dataType === "GL" || dataType === "F") return master;
  const none = new Map<string, PartnerAccountRow[]>();
  const customers = dataType === "SI" || dataType === "PA" || dataType === "MG" ? master.customers : none;
  const suppliers = dataType === "PI" || dataType === "PA" || dataType === "MG" ? master.suppliers : none;
  const partners = new Map([...master.partners].filter(([code]) => customers.has(code) || suppliers.has(code)));
  const taxCodes = dataType === "SI" || dataType === "PI" ? master.taxCodes : [];
  return { ...master, accounts: [], customers, suppliers, partners, taxCodes, owners: [] };
}

/**
 * The master files; `between` writes the sections a data type adds after the tax table and before the owners (the
 * XSD's order: units, movement types, products, physical stock, assets).
 */
export function writeMasterFiles(w: XmlWriter, company: SaftCompany, master: SaftMasterData, between?: () => void): void {
  w.open("MasterFiles").newline();
  if (master.accounts.length) {
    w.open("GeneralLedgerAccounts").newline();
    for (const a of master.accounts) {
      w.open("Account")
        .text("AccountID", a.code)
        .text("AccountDescription", cut(a.name, 256))
        .text("AccountTableID", cut(a.table_id, 70))
        .text("AccountTableDescription", cut(saftAccountTableDescription(a.table_id) ?? a.chart_description, 256))
        .text("AccountType", a.saft_type ?? accountTypeOf(a.type, a.code));
      writeBalance(w, "Opening", a.od, a.oc);
      writeBalance(w, "Closing", a.cd, a.cc);
      w.close("Account").newline();
    }
    w.close("GeneralLedgerAccounts").newline();
  }
  for (const [section, element, idElement, side] of [
    ["Customers", "Customer", "CustomerID", master.customers],
    ["Suppliers", "Supplier", "SupplierID", master.suppliers],
  ] as const) {
    if (!side.size) continue;
    w.open(section).newline();
    for (const [code, accounts] of side) {
      const p = master.partners.get(code)!;
      w.open(element);
      if (p.registration_code) w.text("RegistrationNumber", p.registration_code);
      w.text("Name", cut(p.name, 70));
      const structured = p.addresses.filter((a) => a.postal_code);
      if (structured.length) for (const a of structured) writeStructuredAddress(w, a);
      else writeAddress(w, p.address ?? {}, p.country_code ?? company.address?.countryCode ?? "LT");
      if (p.vat_code) w.open("TaxRegistration").text("TaxRegistrationNumber", p.vat_code).text("TaxType", "PVM").close("TaxRegistration");
      if (p.iban) w.open("BankAccount").text("IBANNumber", p.iban).close("BankAccount");
      w.text(idElement, code);
      if (element === "Supplier") w.text("SelfBillingIndicator", "");
      for (const a of accounts) {
        w.open("Accounts").text("AccountID", a.account_code);
        writeBalance(w, "Opening", a.od, a.oc);
        writeBalance(w, "Closing", a.cd, a.cc);
        w.close("Accounts");
      }
      w.close(element).newline();
    }
    w.close(section).newline();
  }
  if (master.taxCodes.length) {
    w.open("TaxTable")
      .open("TaxTableEntry")
      .text("TaxType", "PVM")
      .text("Description", "Pridėtinės vertės mokestis / Value added tax")
      .open("TaxCodeDetails")
      .newline();
    for (const t of master.taxCodes) {
      w.open("TaxCodeDetail")
        .text("TaxCode", t.code)
        .text("Description", cut(t.name, 256))
        .text("TaxPercentage", new Decimal(t.rate).toFixed(2))
        .text("Country", "LT")
        .text("STITaxCode", t.code)
        .close("TaxCodeDetail")
        .newline();
    }
    w.close("TaxCodeDetails").close("TaxTableEntry").close("TaxTable").newline();
  }
  between?.();
  if (master.owners.length) {
    w.open("Owners").newline();
    for (const o of master.owners) {
      w.open("Owner").text("OwnerID", o.code).text("OwnerName", cut(o.name, 70)).text("AccountID", o.capital_account_code);
      if (o.shares_quantity !== null) w.text("SharesQuantity", o.shares_quantity);
      if (o.shares_amount !== null) w.text("SharesAmount", o.shares_amount);
      if (o.shares_type !== null) w.text("SharesType", o.shares_type === "ordinary" ? "PP" : "PRV");
      if (o.acquired_on !== null) w.text("SharesAcquisitionDate", o.acquired_on);
      if (o.transferred_on !== null) w.text("SharesTransfersDate", o.transferred_on);
      w.close("Owner").newline();
    }
    w.close("Owners").newline();
  }
  w.close("MasterFiles").newline();
}
