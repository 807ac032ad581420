// The VAT check of document lines: the rate must be a rate of the company's country on the document's tax point
// date (never "today": a December 2025 supply invoiced in January 2026 keeps 9%), and the classifier must fit
// the rate. The rates and their dates are the vat_rates table (src/domain/vat-rates.ts).
import type { Db } from "../db/connection.js";
import { Decimal, formatDecimal } from "../decimal.js";

export interface VatLine {
  vatRatePercent: string;
  vatClassifier?: string | null;
}

export interface VatProblem {
  index: number;
  field: "vatRatePercent" | "vatClassifier";
  key: string;
  message: string;
}

/** The rates of `countryCode` valid on `date`, by kind (standard, reduced, zero...). */
export async function ratesOn(db: Db, countryCode: string, date: string): Promise<{ rate: string; kind: string }[]> {
  const rows: { rate: string; kind: string }[] = await db("vat_rates")
    .where("country_code", countryCode)
    .andWhere("valid_from", "<=", date)
    .andWhere((q) => q.whereNull("valid_to").orWhere("valid_to", ">=", date))
    .select("rate", "kind");
  return rows.map((r) => ({ rate: formatDecimal(r.rate, "percent"), kind: r.kind }));
}

/**
 * Fills each line's classifier (`PVM1` for the standard rate when none is sent) and returns the problems: a rate
 * that is not valid on `date` (`vat.rate_invalid`), a reduced or zero rate without a classifier, or `PVM1` on a
 * rate that is not the standard one (`vat.classifier_invalid`). A country without published rates accepts any.
 */
export async function checkLinesVat(db: Db, countryCode: string, date: string, lines: VatLine[]): Promise<{ classifiers: string[]; problems: VatProblem[] }> {
  const rates = await ratesOn(db, countryCode, date);
  const problems: VatProblem[] = [];
  const standard = rates.find((r) => r.kind === "standard")?.rate;
  const valid = [...new Set(rates.map((r) => r.rate))].sort((a, b) => new Decimal(a).comparedTo(b));
  const classifiers = lines.map((line, index) => {
    const rate = formatDecimal(line.vatRatePercent, "percent");
    if (rates.length > 0 && !valid.includes(rate)) {
      problems.push({ index, field: "vatRatePercent", key: "vat.rate_invalid", message: `${rate}% is not a VAT rate of ${countryCode} on ${date}; one of: ${valid.join(", ")}` });
      return line.vatClassifier ?? "";
    }
    if (line.vatClassifier) {
      if (line.vatClassifier === "PVM1" && standard !== undefined && rate !== standard) {
        problems.push({ index, field: "vatClassifier", key: "vat.classifier_invalid", message: `PVM1 is the standard rate (${standard}% on ${date}), not ${rate}%` });
      }
      return line.vatClassifier;
    }
    if (standard === undefined || rate === standard) return "PVM1";
    problems.push({ index, field: "vatClassifier", key: "vat.classifier_invalid", message: `a ${rate}% line needs its VAT classifier (the standard rate's PVM1 is the only default)` });
    return "";
  });
  return { classifiers, problems };
}
