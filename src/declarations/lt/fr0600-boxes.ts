// The boxes of FR0600 (the monthly VAT return), version 02, one row per box with its legal source (issue 24).
// `amount`: summed from the documents (src/declarations/lt/fr0600-mapping.ts); `constant`: a fixed value (box 28,
// the pro-rata percentage: 100 while pro-rata deduction is out of scope); `sum`: computed from other boxes as VMI's
// form computes it (35 = 25 + 26 + 27; 36 = 27 + 29 + 29A + 30 + 31 + 32 + 33 + 34 − 35), from the boxes as rounded.
// Every amount is whole euros: the form definition declares each E11–E36 field Decimal with 0 decimal places (MXFD).
import { SOURCES } from "./sources.js";

export interface Fr0600BoxRow {
  /** The box number printed on the form. */
  box: string;
  /** The FFData field of the box; null for a box version 02 does not have. */
  field: string | null;
  /** What the box holds. */
  title: string;
  kind: "amount" | "constant" | "sum";
  /** For `sum`: the boxes added (a leading `-` subtracts). For `constant`: unused. */
  terms?: string[];
  /** For `constant`: its value. */
  value?: number;
  /** False where no authoritative public source confirms the box. */
  verified: boolean;
  source: string;
}

const row = (box: string, title: string, extra: Partial<Fr0600BoxRow> = {}): Fr0600BoxRow => ({
  box,
  field: `E${box}`,
  title,
  kind: "amount",
  verified: true,
  source: `${SOURCES.VA29}; ${SOURCES.MXFD}; ${SOURCES.ODOO_REPORT}`,
  ...extra,
});

/** In form order (29A after 29, where the unverified 2026 version is said to put it). */
export const FR0600_BOXES: readonly Fr0600BoxRow[] = [
  row("11", "VAT-taxable transactions: taxable value at the standard and reduced rates (PVM apmokestinami sandoriai)"),
  row("12", "Taxable transactions where the buyer accounts for the VAT (Art. 96)"),
  row("13", "VAT-exempt transactions"),
  row("14", "Goods and services used for private needs (out of scope: 0 unless data exists)"),
  row("15", "Own production of non-current tangible assets (out of scope: 0 unless data exists)"),
  row("16", "Margin of special-scheme transactions (margin schemes out of scope: 0 unless data exists)"),
  row("17", "Export of goods (0%)"),
  row("18", "Goods supplied to VAT payers of other EU states (0%), triangular trade included"),
  row("19", "Other 0% transactions"),
  row("20", "Transactions outside Lithuania (not a Lithuanian VAT object)"),
  row("21", "Goods acquired from other EU states (value)"),
  row("22", "Goods acquired from other EU states for triangular trade"),
  row("23", "Services acquired from abroad"),
  row("24", "… of which acquired from VAT payers of other EU states"),
  row("25", "Deductible input VAT on goods and services purchased (Įsigytų prekių ir paslaugų pirkimo PVM)"),
  row("26", "Import VAT paid to customs and deducted (Sumokėtas importo PVM; import invoices' customs declarations)"),
  row("27", "Import VAT the payer calculates itself (out of scope: 0 unless data exists)"),
  row("28", "Pro-rata deduction percentage (100: pro-rata deduction is out of scope)", { kind: "constant", value: 100 }),
  row("29", "Output VAT at the standard rate (Standartinio tarifo pardavimo PVM)"),
  row("29A", "Output VAT at the reduced 12% rate (PVM58, from 2026): UNVERIFIED box", {
    field: null,
    verified: false,
    source: SOURCES.BOX_29A_CLAIM,
  }),
  row("30", "Output VAT at 9% (9 proc. pardavimo PVM)"),
  row("31", "Output VAT at 5% (5 proc. pardavimo PVM)"),
  row("32", "Output VAT on services acquired from abroad (Art. 95)"),
  row("33", "Output VAT the buyer accounts for (Art. 96)"),
  row("34", "Output VAT on goods acquired from other EU states"),
  row("35", "Deductible VAT (Atskaitomas PVM) = 25 + 26 + 27", { kind: "sum", terms: ["25", "26", "27"] }),
  row("36", "VAT payable (+) or refundable (−) = 27 + 29 + 29A + 30 + 31 + 32 + 33 + 34 − 35", {
    kind: "sum",
    terms: ["27", "29", "29A", "30", "31", "32", "33", "34", "-35"],
    source: `${SOURCES.VA29}; ${SOURCES.MXFD} (its script recomputes 36 from the rounded boxes); 29A: ${SOURCES.BOX_29A_CLAIM}`,
  }),
];

/** The FFData form of FR0600 version 02 (MXFD): its id and the page's 40 fields in the template's order. */
export const FR0600_FORM = {
  formDefId: "{DFDCC8EC-FFAB-4AA2-92E3-E20980272B19}",
  version: "02",
  fields: [
    "B_MM_Pavad",
    "B_MM_ID",
    "LT",
    "B_MM_PVM",
    "B_MM_Adresas",
    "B_MM_Epastas",
    "B_UzpildData",
    "B_ML_DataNuo",
    "B_ML_DataIki",
    "E10",
    ...Array.from({ length: 26 }, (_, i) => `E${i + 11}`),
    "B_FormNr",
    "B_FormVerNr",
    "E8",
    "E9",
  ],
} as const;
