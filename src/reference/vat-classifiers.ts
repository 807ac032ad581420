// VAT classifiers (table vat_classifiers, migration 20261123000101): the tax authority's PVM… codes with the rate
// each carries and the days it does. A document line's VAT is checked at its tax point date (the day the supply
// happened, PVM įstatymas Art. 14), never "today": a December 2025 supply invoiced in January 2026 keeps 9%.
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import type { VatClassifiersRow } from "../db/rows.js";
import { Decimal, formatDecimal } from "../shared/decimal.js";
import { ApiError } from "../shared/errors.js";
import { runList, type ListRequest, type ListSpec } from "../shared/list-engine.js";

type VatClassifier = components["schemas"]["Reference.VatClassifier"];

export type ClassifierRow = Pick<VatClassifiersRow, "code" | "kind" | "rate" | "valid_from" | "valid_to" | "replaced_by" | "default_for_rate">;

function classifierToApi(row: VatClassifiersRow): VatClassifier {
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
  const result = await runList<VatClassifiersRow>(db, () => db("vat_classifiers").where("country_code", countryCode), listSpec, request, ["*"]);
  return { ...result, rows: result.rows.map(classifierToApi) };
}

const validOn = (row: ClassifierRow, date: string) => row.valid_from <= date && (row.valid_to === null || row.valid_to >= date);
const samePercent = (a: string, b: string) => new Decimal(a).equals(b);

// The classifiers are reference data that only migrations write (20261123000101), and migrations run before a
// process serves; so each process reads a country's classifiers once per database and keeps them. A failed read
// is not kept.
const cache = new Map<string, Promise<ClassifierRow[]>>();
const databaseOf = (db: Db) => String((db.client.config as { connection?: { connectionString?: string } }).connection?.connectionString ?? "");

/** The country's classifiers, every period of each, as this process read them once from `db`'s database. */
export function classifierRows(db: Db, countryCode: string): Promise<ClassifierRow[]> {
  const key = `${databaseOf(db)}|${countryCode}`;
  let rows = cache.get(key);
  if (!rows) {
    rows = db("vat_classifiers")
      .where("country_code", countryCode)
      .select("code", "kind", db.raw("rate::text as rate"), "valid_from", "valid_to", "replaced_by", "default_for_rate")
      .then((r: ClassifierRow[]) => r);
    rows.catch(() => cache.delete(key));
    cache.set(key, rows);
  }
  return rows;
}

/**
 * Which classifiers a document may carry, by their kind (issue 8): a sale carries the supplier's codes — taxed,
 * 0%, exempt or outside the country — never the buyer's reverse-charge codes; a purchase the supplier charged VAT
 * on (`standard`) carries the same; a reverse-charge purchase only the codes of VAT the buyer calculates (PVM16
 * intra-Community acquisition of goods, PVM20/PVM21 services from outside/inside the EU, PVM25 domestic reverse
 * charge), never PVM1 (that would report an ordinary domestic supply); an import or exempt purchase carries no VAT:
 * 0%, exempt or outside-scope codes only.
 */
export const KINDS_BY_DOCUMENT = {
  sale: ["standard", "reduced", "zero", "exempt", "outside_scope"],
  purchase_standard: ["standard", "reduced", "zero", "exempt", "outside_scope"],
  // PVM42 (`triangular`): goods acquired for triangular trade, from another EU state, no VAT self-assessed.
  purchase_reverse_charge: ["reverse_charge", "triangular"],
  purchase_import: ["zero", "exempt", "outside_scope"],
  purchase_exempt: ["zero", "exempt", "outside_scope"],
} as const satisfies Record<string, readonly string[]>;
export type VatDocument = keyof typeof KINDS_BY_DOCUMENT;

const DOCUMENT_NAME: Record<VatDocument, string> = {
  sale: "a sale",
  purchase_standard: "a purchase with VAT charged by the supplier",
  purchase_reverse_charge: "a reverse-charge purchase",
  purchase_import: "an import purchase",
  purchase_exempt: "an exempt purchase",
};

/** Why a classifier of `kind` does not fit `document`, or undefined when it does. */
export function kindProblem(classifier: string, kind: string, document: VatDocument): string | undefined {
  const allowed: readonly string[] = KINDS_BY_DOCUMENT[document];
  if (allowed.includes(kind)) return undefined;
  return `${classifier} is a ${kind.replace("_", "-")} classifier, which ${DOCUMENT_NAME[document]} does not carry (it carries ${allowed.map((k) => k.replace("_", "-")).join(", ")} classifiers)`;
}

/** The EU member states by ISO 3166 code (Greece is GR here; its VAT prefix is EL). */
export const EU_MEMBER_STATES: ReadonlySet<string> = new Set("AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK".split(" "));

/** The EU member state (ISO 3166) whose VAT codes begin as `vatCode` does (EL is Greece, GR), or null. */
export function euCountryOfVatCode(vatCode: string | null | undefined): string | null {
  const prefix = vatCode?.slice(0, 2).toUpperCase();
  if (!prefix) return null;
  const country = prefix === "EL" ? "GR" : prefix === "GR" ? null : prefix;
  return country && EU_MEMBER_STATES.has(country) ? country : null;
}

/**
 * The classifier a reverse-charge purchase line gets when it names none, from where the supplier is and what is
 * bought (VMI classifier): a supplier of the company's own country -> PVM25 (domestic reverse charge, Art. 96);
 * another EU state -> PVM16 for goods (an item of type `product`), PVM21 for services (an item of type `service`);
 * outside the EU -> PVM20 for services (goods from outside the EU are an import, not a reverse charge). Undefined
 * when it cannot be told (no item, so goods or services is unknown; the supplier's country unknown): the line must
 * name its classifier.
 */
export function reverseChargeClassifier(
  companyCountry: string,
  supplierCountry: string | null | undefined,
  itemType: string | null | undefined,
): string | undefined {
  if (!supplierCountry) return undefined;
  if (supplierCountry === companyCountry) return "PVM25";
  if (EU_MEMBER_STATES.has(supplierCountry)) return itemType === "product" ? "PVM16" : itemType === "service" ? "PVM21" : undefined;
  return itemType === "service" ? "PVM20" : undefined;
}

/** The kind of a classifier (it is the same in every period of it), or undefined for an unknown one. */
export async function classifierKind(db: Db, countryCode: string, code: string): Promise<string | undefined> {
  return (await classifierRows(db, countryCode)).find((r) => r.code === code)?.kind;
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
  if (periods.length === 0)
    return { field: "vatClassifier", key: "vat_classifier.unknown", message: `${line.classifier} is not a VAT classifier of ${line.countryCode ?? "LT"}` };
  const current = periods.find((r) => validOn(r, line.taxPointDate));
  if (!current) {
    const spans = periods.map((r) => `${r.valid_from}..${r.valid_to ?? ""}`).join(", ");
    const successors = [...new Set(periods.flatMap((r) => (r.valid_to !== null && r.valid_to < line.taxPointDate ? r.replaced_by : [])))];
    const hint = successors.length ? `; its supplies are now classified by what they are: ${successors.join(", ")}` : "";
    return {
      field: "vatClassifier",
      key: "vat_classifier.not_valid_on_date",
      message: `${line.classifier} does not apply on ${line.taxPointDate} (it applies ${spans})${hint}`,
    };
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
): Promise<
  | { classifier: string | null }
  | VatProblem
  | { field: "vatClassifier" | "vatRatePercent"; key: "vat_classifier.required" | "vat_rate.unknown"; message: string }
> {
  const rows = await classifierRows(db, countryCode);
  if (rows.length === 0) return { classifier: item.classifier ?? null };
  const rates = [...new Set(rows.map((r) => formatDecimal(r.rate, "percent")))].sort((a, b) => new Decimal(a).comparedTo(b));
  if (!rates.some((r) => samePercent(r, item.ratePercent))) {
    return { field: "vatRatePercent", key: "vat_rate.unknown", message: `is not a VAT rate of ${countryCode}; one of: ${rates.join(", ")}` };
  }
  if (item.classifier) {
    const periods = rows.filter((r) => r.code === item.classifier);
    if (periods.length === 0)
      return { field: "vatClassifier", key: "vat_classifier.unknown", message: `${item.classifier} is not a VAT classifier of ${countryCode}` };
    if (!periods.some((r) => samePercent(r.rate, item.ratePercent))) {
      const carried = [...new Set(periods.map((r) => formatDecimal(r.rate, "percent")))].join(", ");
      return { field: "vatRatePercent", key: "vat_classifier.rate_mismatch", message: `is not a rate of ${item.classifier} (${carried})` };
    }
    return { classifier: item.classifier };
  }
  const named = rows.filter((r) => r.default_for_rate && samePercent(r.rate, item.ratePercent)).sort((a, b) => (a.valid_from < b.valid_from ? 1 : -1))[0];
  if (!named)
    return {
      field: "vatClassifier",
      key: "vat_classifier.required",
      message: `is required with rate ${formatDecimal(item.ratePercent, "percent")}, which several classifiers share (e.g. PVM5 exempt, PVM12 export, PVM13 intra-Community supply)`,
    };
  return { classifier: named.code };
}
