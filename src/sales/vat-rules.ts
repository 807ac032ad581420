// What a sale's VAT must agree with besides the classifier table (issue 24, "The VAT data the declarations need"):
// the buyer (a 0% classifier names who the buyer is and where the goods go), the company (one that is not a VAT
// payer charges no VAT), and the triangular flag (only on an intra-Community supply of goods). Checked when a draft is
// written (create, update) and again at issue, against the partner as it is then. 422 naming the field: the line's
// `lines[i].vatClassifier` / `lines[i].vatRatePercent`, or `triangular`. Sources in README ("Sales VAT rules").
import { Decimal } from "../shared/decimal.js";
import { ApiError, type FieldErrors } from "../shared/errors.js";
import { throwRuleFailures } from "../shared/identifiers.js";
import { EU_MEMBER_STATES } from "../reference/index.js";

/** The buyer as a rule reads it (a partner row or a document's snapshot). */
export interface Buyer {
  vat_code: string | null;
  country_code: string | null;
}

/** A line's VAT as stored (the classifier resolved). */
export interface SaleVatLine {
  vatRatePercent: string;
  vatClassifier: string | null;
}

/** The VAT code prefix of each EU state (Greece: EL; ISO 3166 GR). */
const EU_VAT_PREFIXES: ReadonlySet<string> = new Set([...EU_MEMBER_STATES].map((c) => (c === "GR" ? "EL" : c)));

/** The buyer's VAT code is one of another EU state than the company's (`companyCountry`, ISO 3166). */
export const otherEuVatPayer = (buyer: Buyer, companyCountry: string): boolean => {
  const prefix = buyer.vat_code?.slice(0, 2).toUpperCase();
  return prefix !== undefined && EU_VAT_PREFIXES.has(prefix) && prefix !== (companyCountry === "GR" ? "EL" : companyCountry);
};
/** The buyer's VAT code is of the company's own state: a VAT payer there. */
const domesticVatPayer = (buyer: Buyer, companyCountry: string) => buyer.vat_code?.slice(0, 2).toUpperCase() === companyCountry;
/** The buyer's country: its own, else its VAT code's. */
const countryOf = (buyer: Buyer): string | null => {
  if (buyer.country_code) return buyer.country_code;
  const prefix = buyer.vat_code?.slice(0, 2).toUpperCase();
  return prefix && EU_VAT_PREFIXES.has(prefix) ? (prefix === "EL" ? "GR" : prefix) : null;
};

/**
 * Why a classifier does not fit the buyer, or undefined (classifiers without a buyer rule always fit):
 * PVM13, intra-Community supply of goods at 0% (PVM įstatymas Art. 49): to a buyer with a VAT code of another EU
 * state; PVM12, export (Art. 41): goods leaving the EU, here a buyer whose country is outside the EU (the contract
 * has no destination of its own); PVM15, supplies whose place is outside Lithuania (Art. 13): to a foreign buyer;
 * PVM25, the seller's side of the domestic reverse charge (Art. 96): to a buyer with a VAT code of the company's state.
 */
const BUYER_RULES: Record<string, (buyer: Buyer, companyCountry: string) => string | undefined> = {
  PVM13: (b, c) =>
    otherEuVatPayer(b, c)
      ? undefined
      : `PVM13 (intra-Community supply of goods, 0%) goes only to a buyer with a VAT code of another EU state; the buyer's VAT code is ${b.vat_code ?? "none"}`,
  PVM12: (b) => {
    const country = countryOf(b);
    if (country === null) return "PVM12 (export) needs the buyer's country (outside the EU); the buyer has none";
    return EU_MEMBER_STATES.has(country) ? `PVM12 (export) goes only to a buyer outside the EU; the buyer's country is ${country}` : undefined;
  },
  PVM15: (b, c) => {
    const country = countryOf(b);
    if (country === null) return "PVM15 (supply outside Lithuania) needs a foreign buyer; the buyer has no country";
    return country === c ? `PVM15 (supply outside Lithuania) goes only to a foreign buyer; the buyer's country is ${country}` : undefined;
  },
  PVM25: (b, c) =>
    domesticVatPayer(b, c)
      ? undefined
      : `PVM25 (domestic reverse charge, Art. 96) goes only to a buyer with a VAT code of ${c}; the buyer's VAT code is ${b.vat_code ?? "none"}`,
};

export interface SaleVatContext {
  /** The company's VAT code; null: not a VAT payer. */
  companyVatCode: string | null;
  companyCountry: string;
  buyer: Buyer;
  /** A credit or debit note: its lines carry its invoice's pairs (checked against the buyer with the invoice). */
  note: boolean;
  triangular: boolean;
}

/**
 * A company that is not a VAT payer: a line that names a VAT classifier, or a VAT rate other than 0, is 422
 * `sale_invoice.company_not_vat_payer` naming it. Checked on the request (before the lines are resolved: such a line
 * takes 0% and no classifier by default) and on the stored lines at issue.
 */
export function refuseVatOfNonPayer(lines: { vatRatePercent?: string | null; vatClassifier?: string | null }[]): void {
  const errors: FieldErrors = {};
  const keys: Record<string, string> = {};
  lines.forEach((l, i) => {
    if (l.vatClassifier != null) {
      errors[`lines[${i}].vatClassifier`] = ["the company is not a VAT payer (no vatCode): its invoices carry no VAT classifier"];
      keys[`lines[${i}].vatClassifier`] = "sale_invoice.company_not_vat_payer";
    }
    if (l.vatRatePercent != null && !new Decimal(l.vatRatePercent).isZero()) {
      errors[`lines[${i}].vatRatePercent`] = ["the company is not a VAT payer (no vatCode): its invoices charge no VAT"];
      keys[`lines[${i}].vatRatePercent`] = "sale_invoice.company_not_vat_payer";
    }
  });
  // One reason whatever the number of fields: the key names it.
  throwRuleFailures(errors, keys, "sale_invoice.company_not_vat_payer");
}

/** The buyer and triangular rules of a sale's resolved lines (422 naming each field; nothing is written before). */
export function checkSaleVat(ctx: SaleVatContext, lines: SaleVatLine[]): void {
  if (ctx.companyVatCode === null) {
    refuseVatOfNonPayer(lines);
    if (ctx.triangular) throw triangularInvalid("the company is not a VAT payer");
    return;
  }
  const errors: FieldErrors = {};
  const keys: Record<string, string> = {};
  if (!ctx.note) {
    lines.forEach((l, i) => {
      const rule = l.vatClassifier ? BUYER_RULES[l.vatClassifier] : undefined;
      const problem = rule?.(ctx.buyer, ctx.companyCountry);
      if (problem) {
        errors[`lines[${i}].vatClassifier`] = [problem];
        keys[`lines[${i}].vatClassifier`] = "sale_invoice.classifier_buyer_mismatch";
      }
    });
  }
  throwRuleFailures(errors, keys, "sale_invoice.invalid_lines");
  if (ctx.triangular && !ctx.note) {
    const zero = lines.filter((l) => new Decimal(l.vatRatePercent).isZero());
    if (!zero.some((l) => l.vatClassifier === "PVM13") || zero.some((l) => l.vatClassifier !== "PVM13")) {
      throw triangularInvalid("every 0% line of a triangular supply is PVM13 (intra-Community supply of goods), and one at least");
    }
    if (!otherEuVatPayer(ctx.buyer, ctx.companyCountry)) throw triangularInvalid("the buyer of a triangular supply has a VAT code of another EU state");
  }
}

const triangularInvalid = (why: string) =>
  new ApiError("unprocessable", `triangular: ${why}.`, { key: "sale_invoice.triangular_invalid", fieldErrors: { triangular: [why] } });
