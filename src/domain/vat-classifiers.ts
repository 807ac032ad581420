// VAT classifiers (table vat_classifiers, migration 20261123000101): the tax authority's PVM… codes with the rate
// each carries and the days it does. A document line's VAT is checked at its tax point date (the day the supply
// happened, PVM įstatymas Art. 14), never "today": a December 2025 supply invoiced in January 2026 keeps 9%.
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import { Decimal, formatDecimal } from "../decimal.js";
import { ApiError } from "../errors.js";
import { runList, type ListRequest, type ListSpec } from "../list/engine.js";

type VatClassifier = components["schemas"]["Reference.VatClassifier"];

interface ClassifierRow {
  code: string;
  kind: string;
  rate: string;
  valid_from: string;
  valid_to: string | null;
  replaced_by: string[];
}

function classifierToApi(row: Record<string, any>): VatClassifier {
  return {
    countryCode: row.country_code,
    code: row.code,
    kind: row.kind,
    ratePercent: formatDecimal(row.rate, "percent"),
    validFrom: row.valid_from,
    validTo: row.valid_to,
    name: row.name,
    description: row.description,
    source: row.source,
    replacedBy: row.replaced_by,
  };
}

const listSpec: ListSpec = {
  fields: {
    code: { column: "code", type: "string" },
    kind: { column: "kind", type: "string" },
    ratePercent: { column: "rate", type: "decimal" },
    validFrom: { column: "valid_from", type: "date" },
    validTo: { column: "valid_to", type: "date" },
  },
  tieBreaker: ["code", "valid_from"],
  defaultSort: [
    { field: "code", dir: "asc" },
    { field: "validFrom", dir: "asc" },
  ],
};

export async function listVatClassifiers(db: Db, countryCode: string, request: ListRequest) {
  const result = await runList<Record<string, any>>(db, () => db("vat_classifiers").where("country_code", countryCode), listSpec, request, ["*"]);
  return { ...result, rows: result.rows.map(classifierToApi) };
}

const validOn = (row: ClassifierRow, date: string) => row.valid_from <= date && (row.valid_to === null || row.valid_to >= date);
const samePercent = (a: string, b: string) => new Decimal(a).equals(b);

async function classifierRows(db: Db, countryCode: string): Promise<ClassifierRow[]> {
  return db("vat_classifiers").where("country_code", countryCode).select("code", "kind", db.raw("rate::text as rate"), "valid_from", "valid_to", "replaced_by");
}

/** The standard VAT rate of the country on a day (percent, two decimals), or undefined when none is published. */
export async function standardRate(db: Db, date: string, countryCode = "LT"): Promise<string | undefined> {
  const row = (await classifierRows(db, countryCode)).find((r) => r.kind === "standard" && validOn(r, date));
  return row ? formatDecimal(row.rate, "percent") : undefined;
}

export interface VatProblem {
  /** The field the problem belongs to. */
  field: "vatClassifier" | "vatRatePercent";
  key: "vat_classifier.unknown" | "vat_classifier.not_valid_on_date" | "vat_classifier.rate_mismatch";
  message: string;
}

/**
 * What is wrong with a document line's VAT: the classifier must exist in the country, be valid on the tax point date
 * and carry the line's rate on that date. Undefined when the line is right, and for a country with no classifiers
 * published (nothing to check against yet).
 */
export async function lineVatProblem(
  db: Db,
  line: { countryCode?: string; classifier: string; ratePercent: string; taxPointDate: string },
): Promise<VatProblem | undefined> {
  const rows = await classifierRows(db, line.countryCode ?? "LT");
  if (rows.length === 0) return undefined;
  const periods = rows.filter((r) => r.code === line.classifier);
  if (periods.length === 0) return { field: "vatClassifier", key: "vat_classifier.unknown", message: `${line.classifier} is not a VAT classifier of ${line.countryCode ?? "LT"}` };
  const current = periods.find((r) => validOn(r, line.taxPointDate));
  if (!current) {
    const spans = periods.map((r) => `${r.valid_from}..${r.valid_to ?? ""}`).join(", ");
    const successors = [...new Set(periods.flatMap((r) => (r.valid_to !== null && r.valid_to < line.taxPointDate ? r.replaced_by : [])))];
    const hint = successors.length ? `; its supplies are now classified by what they are: ${successors.join(", ")}` : "";
    return { field: "vatClassifier", key: "vat_classifier.not_valid_on_date", message: `${line.classifier} does not apply on ${line.taxPointDate} (it applies ${spans})${hint}` };
  }
  if (!samePercent(current.rate, line.ratePercent)) {
    return {
      field: "vatRatePercent",
      key: "vat_classifier.rate_mismatch",
      message: `${formatDecimal(line.ratePercent, "percent")} is not the rate of ${line.classifier} on ${line.taxPointDate}: it is ${formatDecimal(current.rate, "percent")}`,
    };
  }
  return undefined;
}

/** lineVatProblem as a 422 `unprocessable` naming the field, for modules that check one line at a time. */
export async function checkLineVat(db: Db, line: { countryCode?: string; classifier: string; ratePercent: string; taxPointDate: string }): Promise<void> {
  const problem = await lineVatProblem(db, line);
  if (problem) {
    throw new ApiError("unprocessable", `${problem.field} ${problem.message}.`, {
      key: problem.key,
      params: { classifier: line.classifier, ratePercent: line.ratePercent, taxPointDate: line.taxPointDate },
      fieldErrors: { [problem.field]: [problem.message] },
    });
  }
}

/**
 * The classifier of a catalog item (master data, with no tax point of its own): the one sent, which must exist and
 * carry the item's rate in some period of its validity; or, when none is sent, the one the rate names (an ordinary
 * domestic supply: 21 -> PVM1, 12 -> PVM58, 5 -> PVM3, 9 -> PVM2); 0% is shared by several classifiers and needs
 * one sent. A country with no classifiers published accepts whatever is sent.
 */
export async function itemClassifier(
  db: Db,
  countryCode: string,
  item: { classifier?: string | null; ratePercent: string },
): Promise<{ classifier: string | null } | VatProblem | { field: "vatClassifier" | "vatRatePercent"; key: "vat_classifier.required" | "vat_rate.unknown"; message: string }> {
  const rows = await classifierRows(db, countryCode);
  if (rows.length === 0) return { classifier: item.classifier ?? null };
  const rates = [...new Set(rows.map((r) => formatDecimal(r.rate, "percent")))].sort((a, b) => new Decimal(a).comparedTo(b));
  if (!rates.some((r) => samePercent(r, item.ratePercent))) {
    return { field: "vatRatePercent", key: "vat_rate.unknown", message: `is not a VAT rate of ${countryCode}; one of: ${rates.join(", ")}` };
  }
  if (item.classifier) {
    const periods = rows.filter((r) => r.code === item.classifier);
    if (periods.length === 0) return { field: "vatClassifier", key: "vat_classifier.unknown", message: `${item.classifier} is not a VAT classifier of ${countryCode}` };
    if (!periods.some((r) => samePercent(r.rate, item.ratePercent))) {
      const carried = [...new Set(periods.map((r) => formatDecimal(r.rate, "percent")))].join(", ");
      return { field: "vatRatePercent", key: "vat_classifier.rate_mismatch", message: `is not a rate of ${item.classifier} (${carried})` };
    }
    return { classifier: item.classifier };
  }
  const named = await db("vat_classifiers").where({ country_code: countryCode, default_for_rate: true }).where("rate", item.ratePercent).orderBy("valid_from", "desc").first("code");
  if (!named) return { field: "vatClassifier", key: "vat_classifier.required", message: `is required with rate ${formatDecimal(item.ratePercent, "percent")}, which several classifiers share (e.g. PVM5 exempt, PVM12 export, PVM13 intra-Community supply)` };
  return { classifier: named.code };
}
