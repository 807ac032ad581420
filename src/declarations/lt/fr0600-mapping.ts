// Which VAT classifier feeds which FR0600 box, one row per (side, classifier, amount) with its source (issue 24;
// the table of shared/domain/lt-declarations-data.md §2.1). `amount`: `base` the taxable value, `vat` the VAT (the
// output VAT of a sale, the VAT charged on a purchase or the VAT the buyer calculates on a reverse charge),
// `deductibleVat` the part of a purchase's VAT that is deducted. A row with `box: null` says the amount is declared
// in no box of FR0600 (a domestic purchase's taxable value, an exempt purchase): the classifier is known. A classifier
// of a document of the period without any row for its side makes FR0600 refuse (422 naming the documents): the return
// is never computed with an amount silently left out.
import { SOURCES } from "./sources.js";

export type Side = "sale" | "purchase";

/**
 * How FR0600's drill-down names the import VAT an import invoice's customs declaration paid (box 26): the classifier
 * of the row src/db/functions/vat_declared.ts stores for it (the fixture month's box 26 fails if the two part).
 */
export const CUSTOMS_CLASSIFIER = "customs";
export type AmountKind = "base" | "vat" | "deductibleVat";

export interface Fr0600MappingRow {
  side: Side;
  classifier: string;
  amount: AmountKind;
  box: string | null;
  source: string;
}

const DEF = `${SOURCES.VA29} (the box's definition)`;
const m = (side: Side, classifier: string, amount: AmountKind, box: string | null, source: string): Fr0600MappingRow => ({
  side,
  classifier,
  amount,
  box,
  source,
});

export const FR0600_MAPPING: readonly Fr0600MappingRow[] = [
  // Sales at the standard and reduced rates: the taxable value in 11, the VAT by rate.
  m("sale", "PVM1", "base", "11", `${DEF}; Odoo leaves 11 untagged`),
  m("sale", "PVM1", "vat", "29", `${DEF}; ${SOURCES.ODOO_TAXES}`),
  m("sale", "PVM2", "base", "11", DEF),
  m("sale", "PVM2", "vat", "30", `${DEF}; ${SOURCES.ODOO_TAXES}`),
  m("sale", "PVM3", "base", "11", DEF),
  m("sale", "PVM3", "vat", "31", `${DEF}; ${SOURCES.ODOO_TAXES}`),
  m("sale", "PVM58", "base", "11", DEF),
  m("sale", "PVM58", "vat", "29A", SOURCES.BOX_29A_CLAIM),
  // 0%, exempt and outside-scope sales: the value only.
  m("sale", "PVM25", "base", "12", `${DEF}; Odoo's "0% R" sale tax`),
  m("sale", "PVM5", "base", "13", `${DEF}; ${SOURCES.ODOO_TAXES}`),
  m("sale", "PVM12", "base", "17", `${DEF}; ${SOURCES.ODOO_TAXES}`),
  m("sale", "PVM13", "base", "18", `${DEF}; ${SOURCES.ODOO_TAXES} (triangular supplies too)`),
  m("sale", "PVM14", "base", "19", `${DEF}; ${SOURCES.ODOO_TAXES}`),
  m("sale", "PVM15", "base", "20", `${DEF}; ${SOURCES.ODOO_TAXES}`),
  // Reverse-charge purchases: the value, the VAT the buyer calculates (output) and its deduction (input).
  m("purchase", "PVM16", "base", "21", `${DEF}; ${SOURCES.ODOO_TAXES}`),
  m("purchase", "PVM16", "vat", "34", `${DEF}; ${SOURCES.ODOO_TAXES}`),
  m("purchase", "PVM16", "deductibleVat", "25", `${DEF}; ${SOURCES.ODOO_TAXES}`),
  m(
    "purchase",
    "PVM42",
    "base",
    "22",
    `${DEF}; ${SOURCES.ODOO_TAXES}; a purchase line for triangular trade, accepted on reverse-charge documents from another EU state's VAT payer (purchase_invoices)`,
  ),
  m("purchase", "PVM20", "base", "23", `${DEF}; ${SOURCES.ODOO_TAXES}`),
  m("purchase", "PVM20", "vat", "32", `${DEF}; ${SOURCES.ODOO_TAXES}`),
  m("purchase", "PVM20", "deductibleVat", "25", `${DEF}; ${SOURCES.ODOO_TAXES}`),
  m("purchase", "PVM21", "base", "23", `${DEF}; ${SOURCES.ODOO_TAXES}`),
  m("purchase", "PVM21", "base", "24", `${DEF}; ${SOURCES.ODOO_TAXES}`),
  m("purchase", "PVM21", "vat", "32", `${DEF}; ${SOURCES.ODOO_TAXES}`),
  m("purchase", "PVM21", "deductibleVat", "25", `${DEF}; ${SOURCES.ODOO_TAXES}`),
  m("purchase", "PVM25", "base", null, `${DEF}: the buyer declares only the VAT of an Art. 96 purchase (VMI KD-6198)`),
  m("purchase", "PVM25", "vat", "33", `${DEF}; VMI KD-6198 (boxes 33 and 35)`),
  m("purchase", "PVM25", "deductibleVat", "25", `${DEF}; VMI KD-6198 (boxes 33 and 35)`),
  // Import VAT paid to customs (an import invoice's customs declaration, purchase_invoices.customs_vat, EUR): not a
  // classifier of a line but the declaration's own amount, stored as the pseudo-classifier CUSTOMS_CLASSIFIER.
  m("purchase", CUSTOMS_CLASSIFIER, "deductibleVat", "26", `${DEF}: "Sumokėtas importo PVM" (import VAT paid to customs and deducted)`),
  // Purchases the supplier charged VAT on: only the deducted VAT is declared.
  ...["PVM1", "PVM2", "PVM3", "PVM58"].flatMap((c) => [
    m("purchase", c, "base", null, `${DEF}: FR0600 has no box for the value of domestic purchases`),
    m("purchase", c, "deductibleVat", "25", `${DEF}; ${SOURCES.ODOO_TAXES}`),
  ]),
  // 0%, exempt and outside-scope purchases carry no VAT to declare.
  ...["PVM5", "PVM12", "PVM13", "PVM14", "PVM15"].map((c) => m("purchase", c, "base", null, `${DEF}: no box for the value of a purchase without VAT`)),
];

/** The (side, classifier) pairs the mapping knows: a document carrying another one makes FR0600 refuse. */
export const MAPPED_CLASSIFIERS: ReadonlySet<string> = new Set(FR0600_MAPPING.map((r) => `${r.side}:${r.classifier}`));
