// The VAT check of document lines at the document's tax point date (never "today": a December 2025 supply
// invoiced in January 2026 keeps 9% under PVM2). Each line carries a VAT classifier of the tax authority
// (reference/vat-classifiers/list, src/reference/vat-classifiers.ts) with its rate, and the classifier's kind must fit
// the document (KINDS_BY_DOCUMENT: a sale never carries a buyer's reverse-charge code, a reverse-charge purchase
// carries nothing else). A line without a classifier gets, in order: its item's classifier when that fits the
// document; on a reverse-charge purchase the one the supplier's country and the item's type name (PVM16, PVM20,
// PVM21, PVM25); else the ordinary classifier of its rate on that date (21 -> PVM1, 12 -> PVM58, 5 -> PVM3;
// 9 -> PVM2 until 2025-12-31) when that fits; otherwise it must name one. A credit note may carry only the rate and
// classifier pairs of the invoice it credits.
import type { Db } from "../db/connection.js";
import { Decimal, formatDecimal } from "../shared/decimal.js";
import { classifierRows, kindProblem, lineVatProblem, reverseChargeClassifier, type VatDocument } from "../reference/index.js";

export interface VatLine {
  vatRatePercent: string;
  /** The classifier the line names, if any. */
  vatClassifier?: string | null;
  /** The classifier of the line's item: the default when it fits the document. */
  itemClassifier?: string | null;
  /** The type of the line's item (`product`, `service`); null without an item. */
  itemType?: string | null;
}

export interface VatRules {
  countryCode: string;
  /** The tax point date the rates and classifiers are checked at. */
  date: string;
  document: VatDocument;
  /** The key prefix of the document's own rules. */
  prefix: "sale_invoice" | "purchase_invoice";
  /** A reverse-charge purchase: the supplier's country, which names the default classifier. */
  supplierCountry?: string | null;
  /**
   * A credit note: the `rate|classifier` pairs (rate with two decimals) of the invoice it credits; undefined when
   * that invoice has no lines to compare with (one imported by the books migration carries totals only).
   */
  creditedPairs?: ReadonlySet<string>;
}

export interface VatProblem {
  index: number;
  field: "vatRatePercent" | "vatClassifier";
  key: string;
  message: string;
}

/**
 * The domestic reverse charge on the seller's side (PVM įstatymas Art. 96; FR0600 box 12): a sale under PVM25 is
 * carried at 0%, the buyer calculates the VAT (PVM25 at the standard rate is the buyer's code, a purchase's). The one
 * buyer's code a sale may carry; the buyer must be a Lithuanian VAT payer (src/sales/vat-rules.ts).
 */
const SELLER_REVERSE_CHARGE = "PVM25";

function sellerReverseChargeProblem(validOnDate: boolean, rate: string, date: string): Awaited<ReturnType<typeof lineVatProblem>> {
  if (!validOnDate) return { field: "vatClassifier", key: "vat_classifier.not_valid_on_date", message: `${SELLER_REVERSE_CHARGE} is not valid on ${date}` };
  if (!new Decimal(rate).isZero()) {
    return {
      field: "vatRatePercent",
      key: "vat_classifier.rate_mismatch",
      message: `a sale under ${SELLER_REVERSE_CHARGE} (domestic reverse charge, Art. 96) is at 0%: the buyer calculates the VAT`,
    };
  }
  return undefined;
}

export const vatPair = (rate: string, classifier: string) => `${new Decimal(rate).toFixed(2)}|${classifier}`;

/** Fills each line's classifier and returns the problems of every line (422 keys). */
export async function checkLinesVat(db: Db, rules: VatRules, lines: VatLine[]): Promise<{ classifiers: string[]; problems: VatProblem[] }> {
  const { countryCode, date, document, prefix } = rules;
  const rows = await classifierRows(db, countryCode);
  const validOn = (r: (typeof rows)[number]) => r.valid_from <= date && (r.valid_to === null || r.valid_to >= date);
  const kindOf = (code: string) => rows.find((r) => r.code === code)?.kind;
  const fits = (code: string | null | undefined): code is string => {
    const kind = code ? kindOf(code) : undefined;
    return kind !== undefined && kindProblem(code!, kind, document) === undefined;
  };
  const problems: VatProblem[] = [];
  const checked = new Map<string, Awaited<ReturnType<typeof lineVatProblem>>>();
  const classifiers: string[] = [];
  for (const [index, line] of lines.entries()) {
    const rate = line.vatRatePercent;
    const ofRate = rows.filter((r) => validOn(r) && new Decimal(r.rate).equals(rate));
    const rateDefault = ofRate.find((r) => r.default_for_rate)?.code;
    const classifier =
      line.vatClassifier ??
      (fits(line.itemClassifier) ? line.itemClassifier : undefined) ??
      (document === "purchase_reverse_charge" ? reverseChargeClassifier(countryCode, rules.supplierCountry, line.itemType) : undefined) ??
      (fits(rateDefault) ? rateDefault : undefined);
    classifiers.push(classifier ?? "");
    if (!classifier) {
      const message =
        document === "purchase_reverse_charge"
          ? "is required on this reverse-charge line: PVM16 goods from another EU state, PVM21 services from another EU state, PVM20 services from outside the EU, PVM25 domestic reverse charge (the default follows the supplier's country and the item's type, and this line has no item or the supplier no country)"
          : ofRate.length > 0 || rows.length === 0
            ? `is required with rate ${formatDecimal(rate, "percent")}, which several classifiers share (e.g. PVM5 exempt, PVM12 export, PVM13 intra-Community supply)`
            : undefined;
      problems.push(
        message
          ? { index, field: "vatClassifier", key: "vat_classifier.required", message }
          : {
              index,
              field: "vatRatePercent",
              key: "vat_rate.not_valid_on_date",
              message: `${formatDecimal(rate, "percent")}% is not a VAT rate of ${countryCode} on ${date}`,
            },
      );
      continue;
    }
    const key = vatPair(rate, classifier);
    const sellerReverseCharge = document === "sale" && classifier === SELLER_REVERSE_CHARGE;
    if (!checked.has(key)) {
      checked.set(
        key,
        sellerReverseCharge
          ? sellerReverseChargeProblem(
              rows.some((r) => r.code === classifier && validOn(r)),
              rate,
              date,
            )
          : await lineVatProblem(db, { countryCode, classifier, ratePercent: rate, taxPointDate: date }),
      );
    }
    const problem = checked.get(key);
    if (problem) {
      problems.push({ index, ...problem });
      continue;
    }
    const kind = kindOf(classifier);
    const misfit = kind === undefined || sellerReverseCharge ? undefined : kindProblem(classifier, kind, document);
    if (misfit) {
      problems.push({ index, field: "vatClassifier", key: `${prefix}.vat_classifier_not_applicable`, message: misfit });
      continue;
    }
    if (rules.creditedPairs && !rules.creditedPairs.has(key)) {
      const carried = [...rules.creditedPairs].map((p) => `${p.split("|")[1]} at ${p.split("|")[0]}%`).join(", ");
      problems.push({
        index,
        field: [...rules.creditedPairs].some((p) => p.startsWith(`${new Decimal(rate).toFixed(2)}|`)) ? "vatClassifier" : "vatRatePercent",
        key: `${prefix}.credit_vat_mismatch`,
        message: `${classifier} at ${formatDecimal(rate, "percent")}% is not on the credited invoice, which carries ${carried}: a credit note corrects what the invoice charged`,
      });
    }
  }
  return { classifiers, problems };
}
