// ISO 20022 camt.053 (BankToCustomerStatement), versions 001.02 (what Lithuanian banks export) and 001.08, told
// apart by the namespace of the root element. The file is read by ./xml.ts in one pass that also checks it is
// well-formed: no DOCTYPE accepted and no entities but the five predefined ones and character references (no "billion
// laughs", no external entities), and every value kept as text (identifiers such as `0001` and amounts are never
// numbers here). A file may hold several statements (Stmt).
// Characters XML 1.0 does not allow (U+0000 and the other C0 controls but tab, LF and CR; U+FFFE, U+FFFF), raw or as
// character references, make the file not well-formed; PostgreSQL text cannot hold U+0000 either, so they are refused
// here (https://www.w3.org/TR/xml/#charsets).
// Nothing is cut short (issue 22): a text longer than the schema's type allows (Max35Text, Max140Text) is refused
// naming its element, since a reference cut to a shorter one can equal another's and be taken for a duplicate.
import { Decimal } from "../shared/decimal.js";
import { ApiError } from "../shared/errors.js";
import { isKnownCurrency } from "../shared/currencies.js";
import { decodeStatementBytes } from "./encoding.js";
import { MAX_REMITTANCE, type TransactionRow } from "./transactions.js";
import { codePointName, readXml, XmlError, type XmlNode } from "./xml.js";

export type CamtVersion = "camt.053.001.02" | "camt.053.001.08";

/** A currency the file states for an amount that must be in the statement's currency, and where. */
export interface StatedCurrency {
  path: string;
  currency: string;
}

export interface CamtStatement {
  ref: string | null;
  iban: string | null;
  currency: string;
  /** The first balance or booked amount the file states in another currency than the statement's (Acct/Ccy), or null. */
  foreignCurrency: StatedCurrency | null;
  fromDate: string | null;
  toDate: string | null;
  openingBalance: Decimal;
  closingBalance: Decimal;
  /** The sum of the booked entries, signed. */
  entriesTotal: Decimal;
  transactions: TransactionRow[];
}

const ARRAYS = new Set(["Stmt", "Bal", "Ntry", "NtryDtls", "TxDtls", "Ustrd", "Strd"]);
/** A camt.053 nests about 12 levels; far deeper is a file built to exhaust a reader. */
const MAX_DEPTH = 64;

const invalid = (path: string, problem: string) =>
  new ApiError("unprocessable", `The statement file is not a valid camt.053: ${path} ${problem}.`, {
    key: "bank.statement_invalid",
    params: { path, problem },
  });

/**
 * An element of the file as this reader walks it (readXml's XmlNode, read leniently): a child may be missing, an
 * element, a list (the ARRAYS names), or text where an element was expected; a child of text reads as undefined (no
 * name walked here is a member of a string). Nothing is trusted on the way: every leaf goes through text() or list()
 * and is checked where it is used.
 */
interface Node {
  readonly [name: string]: Node | undefined;
}
/** `line L, column C` of an offset into the file. */
function lineAndColumn(xml: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = xml.indexOf("\n"); i >= 0 && i < offset; i = xml.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return `line ${line}, column ${offset - lineStart + 1}`;
}
/** Raw characters XML 1.0 does not allow (one class, so the scan is linear). */
const ILLEGAL_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
function refuseIllegalCharacters(xml: string): void {
  const found = ILLEGAL_CHAR.exec(xml);
  if (!found) return;
  throw invalid(lineAndColumn(xml, found.index), `holds the character ${codePointName(found[0].charCodeAt(0))}, which XML does not allow`);
}
const text = (v: unknown): string | undefined => {
  if (v === undefined || v === null) return undefined;
  if (typeof v === "object") return text((v as Node)["#text"]);
  const s = String(v).trim();
  return s === "" ? undefined : s;
};
const list = (v: unknown): Node[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v as Node]);

/** A currency code of ISO 4217, as bank/transactions/import requires (`currency.unknown` otherwise). */
function currencyOf(value: string, path: string): string {
  if (!/^[A-Z]{3}$/.test(value)) throw invalid(path, `is not a currency code (${value.slice(0, 40)})`);
  if (!isKnownCurrency(value)) {
    throw new ApiError("unprocessable", `The statement file names the currency ${value} (${path}), which is not an ISO 4217 currency code.`, {
      key: "currency.unknown",
      params: { currency: value, path },
    });
  }
  return value;
}

const AMOUNT = /^[0-9]{1,15}(\.[0-9]{1,2})?$/;
// An amount instructed in another currency (AmtDtls/InstdAmt) may have up to 4 decimals (KWD and BHD have 3).
const FOREIGN_AMOUNT = /^[0-9]{1,14}(\.[0-9]{1,4})?$/;

/**
 * A booked amount, unsigned, in cents. Booked amounts have at most 2 decimals (AMOUNT), so cents are exact; they are
 * summed as BigInt (15 digits and 2 decimals exceed a double's exact integers), which costs a tenth of a Decimal per
 * entry — a 10,000-entry file adds up 13,000 of them.
 */
function centsOf(value: string): bigint {
  const dot = value.indexOf(".");
  return dot < 0 ? BigInt(value) * 100n : BigInt(value.slice(0, dot) + value.slice(dot + 1).padEnd(2, "0"));
}
/** Cents as a signed amount with 2 decimals: -1250n is `-12.50`. */
function centsToAmount(cents: bigint): string {
  const negative = cents < 0n;
  const digits = (negative ? -cents : cents).toString().padStart(3, "0");
  return `${negative ? "-" : ""}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** The statement being read: its currency and the first amount stated in another one (refused by the import). */
interface StatementContext {
  currency: string;
  foreign: StatedCurrency | null;
}
const noteCurrency = (context: StatementContext, currency: string | undefined, path: string) => {
  if (currency !== undefined && currency !== context.currency && context.foreign === null) context.foreign = { path, currency };
};

function amountText(node: unknown, path: string, pattern: RegExp): { value: string; currency: string | undefined } {
  const value = text(node);
  if (value === undefined) throw invalid(path, "is missing");
  if (!pattern.test(value))
    throw invalid(path, `is not an amount of at most ${pattern === AMOUNT ? "15 digits and 2" : "14 digits and 4"} decimals (${value.slice(0, 40)})`);
  const stated = typeof node === "object" ? text((node as Node)["@_Ccy"]) : undefined;
  return { value, currency: stated === undefined ? undefined : currencyOf(stated, `${path}/@Ccy`) };
}
/** A booked amount (an entry's, a detail's, a balance's) in cents, its currency noted against the statement's. */
function bookedCents(node: unknown, path: string, context: StatementContext): bigint {
  const { value, currency } = amountText(node, path, AMOUNT);
  noteCurrency(context, currency, path);
  return centsOf(value);
}

const signOf = (indicator: unknown, path: string): 1n | -1n => {
  const value = text(indicator);
  if (value === "CRDT") return 1n;
  if (value === "DBIT") return -1n;
  throw invalid(path, "must be CRDT or DBIT");
};

const DATE = /^(20[0-9]{2}|2100)-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
function dateOf(node: Node | undefined, path: string, required: boolean): string | null {
  return dateIn(text(node?.Dt) ?? text(node?.DtTm), path, required);
}
/** The date a text starts with (a date, or a date and time). */
function dateIn(value: string | undefined, path: string, required: boolean): string | null {
  if (value === undefined) {
    if (required) throw invalid(path, "is missing");
    return null;
  }
  const match = DATE.exec(value);
  // A calendar date that exists (2023-02-31 does not; PostgreSQL would refuse it).
  const exists = match !== null && Number(match[3]) <= (match[2] === "02" && isLeapYear(Number(match[1])) ? 29 : DAYS_IN_MONTH[Number(match[2]) - 1]);
  if (!exists) throw invalid(path, `is not a date from 2000 to 2100 (${value.slice(0, 40)})`);
  return match[0];
}

/** Characters as PostgreSQL's length() and the contract's maxLength count them: code points. */
function codePoints(value: string): number {
  let n = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff) n++;
  }
  return n;
}
const tooLong = (path: string, length: number, max: number, what: string) =>
  new ApiError("unprocessable", `The statement file's ${path} is ${length} characters long; ${what} (nothing was imported).`, {
    key: "bank.statement_text_too_long",
    params: { path, length, maxLength: max },
    fieldErrors: { [path]: [`is ${length} characters long; ${what}`] },
  });
/**
 * A text of the file as it is, or 422 `bank.statement_text_too_long` naming its element when it is longer than its
 * ISO 20022 type allows (the same bound bank/transactions/import sets on the field it fills).
 */
function bounded(value: string | undefined, max: 35 | 140, path: string): string | undefined {
  if (value === undefined || value.length <= max) return value;
  const length = codePoints(value);
  if (length > max) throw tooLong(path, length, max, `camt.053 allows at most ${max} (Max${max}Text)`);
  return value;
}
const IBAN = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/;
const ibanOf = (account: Node | undefined) => {
  const value = text(account?.Id?.IBAN)?.replace(/\s+/g, "").toUpperCase();
  return value && IBAN.test(value) ? value : null;
};

/** The namespace of the root element names the version; anything else is refused. */
function versionOf(xml: string): CamtVersion {
  const root = /<(?![?!])[^>]*>/.exec(xml)?.[0] ?? "";
  const ns = /xmlns(?::[A-Za-z0-9_.-]+)?\s*=\s*["']urn:iso:std:iso:20022:tech:xsd:(camt\.[0-9]{3}\.[0-9]{3}\.[0-9]{2})["']/.exec(root)?.[1];
  if (ns === "camt.053.001.02" || ns === "camt.053.001.08") return ns;
  throw new ApiError("unprocessable", `The file's namespace ${ns ?? "(none)"} is not camt.053.001.02 or camt.053.001.08.`, {
    key: "bank.statement_unsupported",
    params: { namespace: ns ?? null },
  });
}

/** The party of a transaction detail: v02 names it directly (Dbtr/Nm), v08 through Pty (Dbtr/Pty/Nm). */
const partyName = (party: Node | undefined) => text(party?.Pty?.Nm) ?? text(party?.Nm);

/**
 * What one transaction detail (TxDtls, at `at`) says, read once and bounded by the schema's types; `undefined` reads
 * as an entry without details.
 */
function readDetail(d: Node | undefined, incoming: boolean, at: string) {
  const related = d?.RltdPties;
  const role = incoming ? "Dbtr" : "Cdtr";
  const party = related?.[role];
  const e2e = text(d?.Refs?.EndToEndId);
  const present = <T>(values: (T | undefined)[]) => values.filter((v): v is T => v !== undefined);
  return {
    name: bounded(partyName(party), 140, `${at}/RltdPties/${role}/${text(party?.Pty?.Nm) !== undefined ? "Pty/Nm" : "Nm"}`),
    iban: ibanOf(related?.[`${role}Acct`]),
    texts: present(list(d?.RmtInf?.Ustrd).map((u, k) => bounded(text(u), 140, `${at}/RmtInf/Ustrd[${k + 1}]`))),
    references: present(list(d?.RmtInf?.Strd).map((s, k) => bounded(text(s?.CdtrRefInf?.Ref), 35, `${at}/RmtInf/Strd[${k + 1}]/CdtrRefInf/Ref`))),
    endToEndId: e2e === "NOTPROVIDED" ? undefined : bounded(e2e, 35, `${at}/Refs/EndToEndId`),
    bankReference: bounded(text(d?.Refs?.AcctSvcrRef), 35, `${at}/Refs/AcctSvcrRef`),
    bankReferencePath: `${at}/Refs/AcctSvcrRef`,
  };
}

/** An amount instructed in another currency than the booked one (AmtDtls/InstdAmt), or nulls. */
type Original = { originalAmount: string | null; originalCurrency: string | null };

/**
 * The amount instructed in another currency (`AmtDtls/InstdAmt`, e.g. the USD a customer sent that the bank booked
 * in EUR), signed as the booked amount; kept as information only. An instructed amount in the booked currency
 * itself says nothing new and is not kept.
 */
function originalOf(amountDetails: Node | undefined, path: string, bookedCurrency: string, negative: boolean): Original {
  const node = amountDetails?.InstdAmt?.Amt;
  if (node === undefined) return { originalAmount: null, originalCurrency: null };
  const { value, currency } = amountText(node, `${path}/InstdAmt/Amt`, FOREIGN_AMOUNT);
  const amount = new Decimal(value);
  if (currency === undefined || currency === bookedCurrency || amount.isZero()) return { originalAmount: null, originalCurrency: null };
  return { originalAmount: (negative ? amount.negated() : amount).toFixed(), originalCurrency: currency };
}

interface RowText {
  name?: string;
  iban: string | null;
  remittance?: string;
  /** Where the remittance text comes from: an over-long one is refused naming it. */
  remittancePath: string;
  reference?: string;
  endToEndId?: string;
  bankReference?: string;
  /** The element the bank's reference comes from (the entry's AcctSvcrRef for `<ref>/<n>`). */
  bankReferencePath: string;
}

/** What every transaction of one booked entry (at `path`) shares, read once from the entry. */
interface BookedEntry {
  node: Node;
  path: string;
  currency: string;
  sign: 1n | -1n;
  /** The entry's amount in cents, signed. */
  signed: bigint;
  bookingDate: string;
  valueDate: string | null;
  isReversal: boolean;
  ref: string | undefined;
  refPath: string;
  /** Its transaction details (TxDtls), of every NtryDtls. */
  details: Node[];
}

/** A detail's booked amount, signed (its own CdtDbtInd, else the entry's), and where it is stated. */
interface DetailAmount {
  cents: bigint;
  currency: string | undefined;
  path: string;
}

/**
 * The transactions of one booked entry. An entry with one detail (or none) is one transaction described by it. A
 * batch entry is split into its details when there are several and each states its amount (they must add up to the
 * entry). Several details of which some state no amount cannot be split: the entry stays one transaction, and what
 * each detail says is kept in its remittance text (`name amount text references`, details separated by `; `) — the
 * first structured reference and end-to-end id also in their own fields, the counterparty only when all details name
 * the same one. Returns the entry's signed amount in cents; the rows go to `out`.
 */
function transactionsOfEntry(entry: Node, path: string, context: StatementContext, out: TransactionRow[]): bigint {
  const e = readEntry(entry, path, context);
  if (e.details.length <= 1) {
    out.push(describedByOneDetail(e));
    return e.signed;
  }
  const amounts = detailAmounts(e);
  if (amounts.every((a) => a !== undefined)) splitIntoDetails(e, amounts as DetailAmount[], context, out);
  else out.push(keptTogether(e, amounts));
  return e.signed;
}

function readEntry(entry: Node, path: string, context: StatementContext): BookedEntry {
  const sign = signOf(entry.CdtDbtInd, `${path}/CdtDbtInd`);
  const signed = sign * bookedCents(entry.Amt, `${path}/Amt`, context);
  const bookingDate = dateOf(entry.BookgDt, `${path}/BookgDt`, true)!;
  const valueDate = dateOf(entry.ValDt, `${path}/ValDt`, false);
  const isReversal = text(entry.RvslInd) === "true";
  const ref = bounded(text(entry.AcctSvcrRef), 35, `${path}/AcctSvcrRef`);
  const entryDetails = list(entry.NtryDtls);
  const details: Node[] = entryDetails.length === 1 ? list(entryDetails[0].TxDtls) : entryDetails.flatMap((d) => list(d.TxDtls));
  return {
    node: entry,
    path,
    currency: context.currency,
    sign,
    signed,
    bookingDate,
    valueDate,
    isReversal,
    ref,
    refPath: `${path}/AcctSvcrRef`,
    details,
  };
}

/** One transaction of the entry `e`, `cents` signed. */
function transactionRow(e: BookedEntry, cents: bigint, r: RowText, original: Original): TransactionRow {
  // Each text is bounded by its type; what several of them make together is kept whole up to MAX_REMITTANCE.
  const remittance = r.remittance || null;
  if (remittance !== null && remittance.length > MAX_REMITTANCE && codePoints(remittance) > MAX_REMITTANCE) {
    throw tooLong(
      r.remittancePath,
      codePoints(remittance),
      MAX_REMITTANCE,
      `its texts together make the transaction's remittance information, which holds at most ${MAX_REMITTANCE}`,
    );
  }
  return {
    bookingDate: e.bookingDate,
    valueDate: e.valueDate,
    amount: centsToAmount(cents),
    currency: e.currency,
    counterpartyName: r.name ?? null,
    counterpartyIban: r.iban,
    remittanceInformation: remittance,
    creditorReference: r.reference ?? null,
    endToEndId: r.endToEndId ?? null,
    bankReference: r.bankReference ?? null,
    isReversal: e.isReversal,
    originalAmount: original.originalAmount,
    originalCurrency: original.originalCurrency,
    referencePath: r.bankReferencePath,
  };
}

/** The common case: one transaction, described by the entry's one detail (or by nothing). */
function describedByOneDetail(e: BookedEntry): TransactionRow {
  const { path } = e;
  const d = e.details[0];
  const at = `${path}/NtryDtls/TxDtls[1]`;
  const own = d?.Amt !== undefined;
  const stated = own ? d.Amt : d?.AmtDtls?.TxAmt?.Amt;
  if (stated !== undefined) {
    // Checked, not used: the entry's amount is the transaction's.
    if (d.CdtDbtInd !== undefined) signOf(d.CdtDbtInd, `${at}/CdtDbtInd`);
    amountText(stated, `${at}/${own ? "Amt" : "AmtDtls/TxAmt/Amt"}`, AMOUNT);
  }
  const r = readDetail(d, e.signed > 0n, at);
  const original =
    d !== undefined && d.AmtDtls?.InstdAmt !== undefined
      ? originalOf(d.AmtDtls, `${path}/NtryDtls/TxDtls[1]/AmtDtls`, e.currency, e.sign < 0n)
      : originalOf(e.node.AmtDtls, `${path}/AmtDtls`, e.currency, e.sign < 0n);
  const remittance = r.references.length > 1 ? [...r.texts, ...r.references.slice(1)].join(" ") : r.texts.join(" ");
  const ownRef = r.bankReference !== undefined;
  return transactionRow(
    e,
    e.signed,
    {
      name: r.name,
      iban: r.iban,
      remittance,
      remittancePath: `${at}/RmtInf`,
      reference: r.references[0],
      endToEndId: r.endToEndId,
      bankReference: ownRef ? r.bankReference : e.ref,
      bankReferencePath: ownRef ? r.bankReferencePath : e.refPath,
    },
    original,
  );
}

/**
 * Each detail's amount, or undefined when it states none. The details' amounts are booked amounts: in the account's
 * currency, like the entry they add up to — noted only when the entry is split by them.
 */
function detailAmounts(e: BookedEntry): (DetailAmount | undefined)[] {
  return e.details.map((d, i) => {
    const own = d.Amt !== undefined;
    const node = own ? d.Amt : d.AmtDtls?.TxAmt?.Amt;
    if (node === undefined) return undefined;
    const at = `${e.path}/NtryDtls/TxDtls[${i + 1}]`;
    const indicator = d.CdtDbtInd === undefined ? e.sign : signOf(d.CdtDbtInd, `${at}/CdtDbtInd`);
    const amountPath = `${at}/${own ? "Amt" : "AmtDtls/TxAmt/Amt"}`;
    const { value, currency } = amountText(node, amountPath, AMOUNT);
    return { cents: indicator * centsOf(value), currency, path: amountPath };
  });
}

/** A batch entry whose details each state their amount: one transaction per detail; the amounts add up to the entry. */
function splitIntoDetails(e: BookedEntry, amounts: DetailAmount[], context: StatementContext, out: TransactionRow[]): void {
  const { path } = e;
  for (const a of amounts) noteCurrency(context, a.currency, a.path);
  const sum = amounts.reduce((s, a) => s + a.cents, 0n);
  if (sum !== e.signed) {
    throw invalid(`${path}/NtryDtls`, `has transaction details adding up to ${centsToAmount(sum)}, not the entry's ${centsToAmount(e.signed)}`);
  }
  // Each detail is stored under its own reference; one that has none, or repeats one an earlier detail of the entry
  // took (banks often give every detail the entry's reference), under `<the reference>/<n>`: it is another
  // transaction, never a duplicate of its sibling.
  const taken = new Set<string>();
  e.details.forEach((d, i) => {
    const signed = amounts[i].cents;
    const at = `${path}/NtryDtls/TxDtls[${i + 1}]`;
    const r = readDetail(d, signed > 0n, at);
    const ownRef = r.bankReference !== undefined && !taken.has(r.bankReference);
    const base = r.bankReference ?? e.ref;
    const bankReference = ownRef ? r.bankReference : base === undefined ? undefined : `${base}/${i + 1}`;
    if (bankReference !== undefined) taken.add(bankReference);
    out.push(
      transactionRow(
        e,
        signed,
        {
          name: r.name,
          iban: r.iban,
          remittance: [...r.texts, ...r.references.slice(1)].join(" "),
          remittancePath: `${at}/RmtInf`,
          reference: r.references[0],
          endToEndId: r.endToEndId,
          bankReference,
          bankReferencePath: r.bankReference !== undefined ? r.bankReferencePath : e.refPath,
        },
        originalOf(d.AmtDtls, `${path}/NtryDtls/TxDtls[${i + 1}]/AmtDtls`, e.currency, signed < 0n),
      ),
    );
  });
}

/** Several details, not every one with its amount: one transaction that keeps what each detail says. */
function keptTogether(e: BookedEntry, amounts: (DetailAmount | undefined)[]): TransactionRow {
  const { path } = e;
  const read = e.details.map((d, i) => readDetail(d, e.signed > 0n, `${path}/NtryDtls/TxDtls[${i + 1}]`));
  const original = originalOf(e.node.AmtDtls, `${path}/AmtDtls`, e.currency, e.sign < 0n);
  const same = <T>(values: (T | undefined | null)[]) => (values.every((v) => v !== undefined && v !== null && v === values[0]) ? (values[0] as T) : undefined);
  const name = same(read.map((r) => r.name));
  const iban = same(read.map((r) => r.iban)) ?? null;
  const reference = read.flatMap((r) => r.references)[0];
  const endToEndId = read.map((r) => r.endToEndId).find((id) => id !== undefined);
  const remittance = read
    .map((r, i) =>
      [
        name === undefined ? r.name : undefined,
        amounts[i] === undefined ? undefined : centsToAmount(amounts[i]!.cents),
        ...r.texts,
        ...r.references.filter((ref) => ref !== reference),
        r.endToEndId !== endToEndId ? r.endToEndId : undefined,
      ]
        .filter(Boolean)
        .join(" "),
    )
    .filter(Boolean)
    .join("; ");
  const firstRef = read[0].bankReference !== undefined;
  return transactionRow(
    e,
    e.signed,
    {
      name,
      iban,
      remittance,
      remittancePath: `${path}/NtryDtls`,
      reference,
      endToEndId,
      bankReference: firstRef ? read[0].bankReference : e.ref,
      bankReferencePath: firstRef ? read[0].bankReferencePath : e.refPath,
    },
    original,
  );
}

function balance(balances: Node[], codes: string[], path: string, context: StatementContext): bigint {
  for (const code of codes) {
    const found = balances.find((b) => text(b?.Tp?.CdOrPrtry?.Cd) === code);
    if (found) return signOf(found.CdtDbtInd, `${path}/Bal[${code}]/CdtDbtInd`) * bookedCents(found.Amt, `${path}/Bal[${code}]/Amt`, context);
  }
  throw invalid(`${path}/Bal`, `has no ${codes.join(" or ")} balance`);
}

export function parseCamt053(content: Buffer): { version: CamtVersion; statements: CamtStatement[] } {
  const xml = decodeStatementBytes(content).replace(/^\uFEFF/, "");
  refuseIllegalCharacters(xml);
  // A DOCTYPE is where entity definitions live; a bank statement has none.
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw invalid("/", "holds a DOCTYPE or an entity declaration, which a statement never has");
  let doc: XmlNode;
  try {
    doc = readXml(xml, { arrays: ARRAYS, maxDepth: MAX_DEPTH });
  } catch (error) {
    if (!(error instanceof XmlError)) throw error;
    throw invalid(lineAndColumn(xml, error.offset), error.problem);
  }
  const version = versionOf(xml);
  const statements = list((doc as Node).Document?.BkToCstmrStmt?.Stmt);
  if (!statements.length) throw invalid("/Document/BkToCstmrStmt/Stmt", "is missing");
  return {
    version,
    statements: statements.map((stmt, s) => {
      const path = `/Document/BkToCstmrStmt/Stmt[${s + 1}]`;
      const balances = list(stmt.Bal);
      const stated = text(stmt.Acct?.Ccy) ?? text(balances[0]?.Amt?.["@_Ccy"]);
      if (!stated) throw invalid(`${path}/Acct/Ccy`, "is missing");
      const context: StatementContext = { currency: currencyOf(stated, `${path}/Acct/Ccy`), foreign: null };
      const openingBalance = balance(balances, ["OPBD", "PRCD"], path, context);
      const closingBalance = balance(balances, ["CLBD"], path, context);
      const transactions: TransactionRow[] = [];
      let entriesTotal = 0n;
      list(stmt.Ntry).forEach((entry, e) => {
        const status = text(entry?.Sts?.Cd) ?? text(entry?.Sts);
        if (status !== undefined && status !== "BOOK") return;
        entriesTotal += transactionsOfEntry(entry, `${path}/Ntry[${e + 1}]`, context, transactions);
      });
      const decimal = (cents: bigint) => new Decimal(centsToAmount(cents));
      return {
        ref: bounded(text(stmt.Id), 35, `${path}/Id`) ?? null,
        iban: ibanOf(stmt.Acct),
        currency: context.currency,
        foreignCurrency: context.foreign,
        fromDate: dateIn(text(stmt.FrToDt?.FrDtTm), `${path}/FrToDt/FrDtTm`, false),
        toDate: dateIn(text(stmt.FrToDt?.ToDtTm), `${path}/FrToDt/ToDtTm`, false),
        openingBalance: decimal(openingBalance),
        closingBalance: decimal(closingBalance),
        entriesTotal: decimal(entriesTotal),
        transactions,
      };
    }),
  };
}
