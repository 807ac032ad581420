// How each kind of document is declared, one row per (side, type, status): its i.SAF InvoiceType and the sign its
// amounts take in i.SAF and FR0600 (issue 24): SF an invoice, KS a credit note (negative), DS a debit note, AN an
// annulled invoice or debit note (in i.SAF with its amounts as issued; in no return: its posting is reversed on its
// own date). A document matching no row is not declared (and ./documents.ts reads only known types). The rows the
// database stores when a document posts carry the same sign (src/db/functions/vat_declared.ts SIGN: −1 a credit
// note, 0 annulled, else 1); FR0600 sums by it, and declarations-returns' hand-computed boxes fail if the two part.
import type { Side } from "./fr0600-mapping.js";
import { SOURCES } from "./sources.js";

export interface DocumentTypeRow {
  side: Side;
  /** `sale_invoices.type` / `purchase_invoices.type`. */
  type: string;
  /** A status the row is limited to (an annulled invoice), or null for every status but draft. */
  status: string | null;
  /** i.SAF InvoiceType. */
  isafType: "SF" | "KS" | "DS" | "AN";
  /** Multiplies the stored (non-negative) amounts: −1 for a credit note. */
  sign: 1 | -1;
  /** Whether its amounts count in FR0600 and FR0564 (an annulled invoice's posting is reversed: it does not). */
  inReturns: boolean;
  /** The document type the API and the drill-downs name it by. */
  documentType: string;
  source: string;
}

export const DOCUMENT_TYPES: readonly DocumentTypeRow[] = [
  { side: "sale", type: "invoice", status: null, isafType: "SF", sign: 1, inReturns: true, documentType: "sale_invoice", source: SOURCES.ISAF_XSD },
  {
    side: "sale",
    type: "credit_note",
    status: null,
    isafType: "KS",
    sign: -1,
    inReturns: true,
    documentType: "sale_credit_note",
    source: `${SOURCES.ISAF_XSD}; ${SOURCES.KD7543}`,
  },
  {
    side: "sale",
    type: "debit_note",
    status: null,
    isafType: "DS",
    sign: 1,
    inReturns: true,
    documentType: "sale_debit_note",
    source: `${SOURCES.ISAF_XSD} (DS – debetinė sąskaita faktūra); ${SOURCES.KD7543}`,
  },
  {
    side: "sale",
    type: "invoice",
    status: "annulled",
    isafType: "AN",
    sign: 1,
    inReturns: false,
    documentType: "sale_invoice",
    source: `${SOURCES.ISAF_XSD} (AN – anuliuota sąskaita faktūra)`,
  },
  {
    side: "sale",
    type: "debit_note",
    status: "annulled",
    isafType: "AN",
    sign: 1,
    inReturns: false,
    documentType: "sale_debit_note",
    source: `${SOURCES.ISAF_XSD} (AN – anuliuota sąskaita faktūra)`,
  },
  { side: "purchase", type: "invoice", status: null, isafType: "SF", sign: 1, inReturns: true, documentType: "purchase_invoice", source: SOURCES.ISAF_XSD },
  {
    side: "purchase",
    type: "credit_note",
    status: null,
    isafType: "KS",
    sign: -1,
    inReturns: true,
    documentType: "purchase_credit_note",
    source: `${SOURCES.ISAF_XSD}; ${SOURCES.KD7543}`,
  },
  {
    side: "purchase",
    type: "debit_note",
    status: null,
    isafType: "DS",
    sign: 1,
    inReturns: true,
    documentType: "purchase_debit_note",
    source: `${SOURCES.ISAF_XSD} (DS – debetinė sąskaita faktūra); ${SOURCES.KD7543}`,
  },
];

/** The row of a document (a status-specific row wins), or undefined for a document that is not declared. */
export function documentTypeOf(side: Side, type: string, status: string): DocumentTypeRow | undefined {
  return (
    DOCUMENT_TYPES.find((r) => r.side === side && r.type === type && r.status === status) ??
    DOCUMENT_TYPES.find((r) => r.side === side && r.type === type && r.status === null)
  );
}

/** The SQL CASE giving each row's sign from `type` and `status` of a document of `side` (trusted text from the table). */
export function signSql(side: Side, type: string, status: string): string {
  const rows = DOCUMENT_TYPES.filter((r) => r.side === side);
  const when = rows
    .sort((a, b) => Number(b.status !== null) - Number(a.status !== null))
    .map((r) => `when ${type} = '${r.type}'${r.status ? ` and ${status} = '${r.status}'` : ""} then ${r.inReturns ? r.sign : 0}`)
    .join(" ");
  return `(case ${when} end)`;
}

/** The document types of `side` the declarations read (SQL list of literals). */
export const typesSql = (side: Side) => [...new Set(DOCUMENT_TYPES.filter((r) => r.side === side).map((r) => `'${r.type}'`))].join(", ");
