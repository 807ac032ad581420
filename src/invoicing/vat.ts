// The VAT check of document lines at the document's tax point date (never "today": a December 2025 supply
// invoiced in January 2026 keeps 9% under PVM2). Each line carries a VAT classifier of the tax authority
// (reference/vat-classifiers/list, src/domain/vat-classifiers.ts) with its rate; a line without one gets the
// ordinary classifier of its rate on that date (21 -> PVM1, 12 -> PVM58, 5 -> PVM3; 9 -> PVM2 until 2025-12-31),
// and a rate several classifiers share (0%) needs one sent.
import type { Db } from "../db/connection.js";
import { Decimal, formatDecimal } from "../decimal.js";
import { lineVatProblem } from "../domain/vat-classifiers.js";

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

/** Fills each line's classifier and returns the problems of every line (422 keys of src/domain/vat-classifiers.ts). */
export async function checkLinesVat(db: Db, countryCode: string, date: string, lines: VatLine[]): Promise<{ classifiers: string[]; problems: VatProblem[] }> {
  const rows: { code: string; rate: string; valid_from: string; valid_to: string | null; default_for_rate: boolean }[] = await db("vat_classifiers")
    .where("country_code", countryCode)
    .select("code", db.raw("rate::text as rate"), "valid_from", "valid_to", "default_for_rate");
  const validOn = (r: (typeof rows)[number]) => r.valid_from <= date && (r.valid_to === null || r.valid_to >= date);
  const problems: VatProblem[] = [];
  const checked = new Map<string, Awaited<ReturnType<typeof lineVatProblem>>>();
  const classifiers: string[] = [];
  for (const [index, line] of lines.entries()) {
    const rate = line.vatRatePercent;
    const ofRate = rows.filter((r) => validOn(r) && new Decimal(r.rate).equals(rate));
    const classifier = line.vatClassifier ?? ofRate.find((r) => r.default_for_rate)?.code;
    classifiers.push(classifier ?? "");
    if (!classifier) {
      problems.push(
        ofRate.length > 0 || rows.length === 0
          ? { index, field: "vatClassifier", key: "vat_classifier.required", message: `is required with rate ${formatDecimal(rate, "percent")}, which several classifiers share (e.g. PVM5 exempt, PVM12 export, PVM13 intra-Community supply)` }
          : { index, field: "vatRatePercent", key: "vat_rate.not_valid_on_date", message: `${formatDecimal(rate, "percent")}% is not a VAT rate of ${countryCode} on ${date}` },
      );
      continue;
    }
    const key = `${classifier}|${new Decimal(rate).toFixed(2)}`;
    if (!checked.has(key)) checked.set(key, await lineVatProblem(db, { countryCode, classifier, ratePercent: rate, taxPointDate: date }));
    const problem = checked.get(key);
    if (problem) problems.push({ index, ...problem });
  }
  return { classifiers, problems };
}
