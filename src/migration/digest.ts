// What the rest of a books operation needs to know of a package before its checks (issue 22): its sections (for
// their scopes), the codes, numbers and months to look up (context.ts), and its fingerprint — what makes two
// packages "the same package" (items 2). Computed where the package is: in a worker thread for a request body, in
// the process for the operator CLI. Pure CPU, plain data out.
import { createHash, hash } from "node:crypto";
import type { BooksDigest, BooksLookups, BooksPackage, PgTextArray } from "./types.js";

const uniq = (values: (string | undefined)[]) => [...new Set(values.filter((v): v is string => v !== undefined))];

/** `{"a","b\\"c"}`: every element quoted, `\\` and `"` escaped (https://www.postgresql.org/docs/current/arrays.html#ARRAYS-IO). */
export function pgTextArray(values: string[]): PgTextArray {
  return { count: values.length, literal: `{${values.map((v) => `"${v.replace(/[\\"]/g, "\\$&")}"`).join(",")}}` };
}

/** The package's decimal-string fields (amounts, quantities, rates, prices, percentages). */
const DECIMAL_FIELDS = new Set([
  "debit",
  "credit",
  "quantity",
  "unitCost",
  "grossTotal",
  "vatTotal",
  "outstanding",
  "fxRate",
  "acquisitionCost",
  "salvageValue",
  "accumulatedDepreciation",
  "vatRatePercent",
  "salePriceExclVat",
  "purchasePriceExclVat",
]);

/** `500.00` → `500`, `0.50` → `0.5`, `007` → `7`: one spelling per value (the contract's patterns allow no exponent). */
function decimalText(text: string): string {
  let t = text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text;
  t = t.replace(/^0+(?=\d)/, "");
  return t === "" ? "0" : t;
}

/**
 * A copy of a value in one spelling per content: every object's properties in sorted order, decimals in one spelling,
 * and every array's elements sorted by their JSON (the rows of a section, the lines of a transaction: their order
 * changes no figure of the books). Plain objects and JSON.stringify do the work (natively, fast); depth is bounded
 * (json-input.ts: 32 levels), so recursion is safe.
 */
function canonical(value: unknown, key?: string): unknown {
  if (Array.isArray(value)) {
    return value
      .map((v) => canonical(v))
      .map((v) => [JSON.stringify(v), v] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, v]) => v);
  }
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = canonical((value as Record<string, unknown>)[k], k);
    return out;
  }
  if (typeof value === "string" && key !== undefined && DECIMAL_FIELDS.has(key)) return decimalText(value);
  return value;
}

/**
 * The package's fingerprint: SHA-256 (hex) of its content without `source` (a label, not content) and `repeatOf`
 * (which says that a package is sent again, not what it is). Whitespace, the order of properties and of rows and
 * the spelling of decimals do not change it; any row's content does. Row by row: each row's canonical JSON is hashed
 * as it is made (a section is the sorted list of its rows' hashes), so no copy of the whole package is ever held.
 */
export function packageFingerprint(pkg: BooksPackage): string {
  const { source: _source, repeatOf: _repeatOf, ...content } = pkg;
  const digest = createHash("sha256");
  for (const section of Object.keys(content).sort()) {
    const value = (content as Record<string, unknown>)[section];
    digest.update(`${JSON.stringify(section)}:`);
    if (Array.isArray(value))
      digest.update(
        value
          .map((row) => hash("sha256", JSON.stringify(canonical(row)), "base64"))
          .sort()
          .join(","),
      );
    else digest.update(JSON.stringify(canonical(value)));
    digest.update("\n");
  }
  return digest.digest("hex");
}

/** The sections present, the lookups and the fingerprint of a package (validated against the contract already). */
export function booksDigest(pkg: BooksPackage): BooksDigest {
  const fingerprint = packageFingerprint(pkg);
  const stock = pkg.stock ?? [];
  const payables = pkg.openPayables ?? [];
  const tracked = stock.filter((s) => s.lotNumber !== undefined);
  // The months the package writes into: the opening balances', the history's, and the cut-over date's when stock
  // comes in (its movements are dated the cut-over date; the database refuses stock movements in a locked month).
  const months = uniq(
    [
      pkg.openingBalances ? (pkg.openingBalances.date ?? pkg.cutoverDate) : undefined,
      ...(pkg.journal ?? []).map((t) => t.date),
      stock.length ? pkg.cutoverDate : undefined,
    ].map((d) => d && `${d.slice(0, 7)}-01`),
  );
  const lookups: BooksLookups = {
    partnerCodes: pgTextArray(
      uniq([...(pkg.partners ?? []).map((p) => p.code), ...(pkg.openReceivables ?? []).map((r) => r.partnerCode), ...payables.map((r) => r.partnerCode)]),
    ),
    itemCodes: pgTextArray(uniq([...(pkg.items ?? []).map((i) => i.code), ...stock.map((s) => s.itemCode)])),
    months,
    payables: { partnerCodes: pgTextArray(payables.map((r) => r.partnerCode)), documentNumbers: pgTextArray(payables.map((r) => r.documentNumber)) },
    tracked: { itemCodes: pgTextArray(tracked.map((s) => s.itemCode)), lotNumbers: pgTextArray(tracked.map((s) => s.lotNumber!)) },
    receivableNumbers: pgTextArray(uniq((pkg.openReceivables ?? []).map((r) => r.number))),
    assetCodes: pgTextArray(uniq((pkg.fixedAssets ?? []).map((a) => a.code))),
    seriesYear: pkg.openReceivables?.length ? Number(pkg.cutoverDate.slice(0, 4)) : null,
    fingerprint,
  };
  const sections = (Object.keys(pkg) as (keyof BooksPackage)[]).filter((k) => pkg[k] !== undefined);
  return { sections, lookups, fingerprint, cutoverDate: pkg.cutoverDate, source: pkg.source ?? null, repeatOf: pkg.repeatOf ?? null };
}
