// What the rest of a books operation needs to know of a package before its checks (issue 22): its sections (for
// their scopes), the codes, numbers and months to look up (context.ts), and its fingerprint — what makes two
// packages "the same package" (items 2). Computed where the package is: in a worker thread for a request body, in
// the process for the operator CLI. Pure CPU, plain data out.
import { createHash } from "node:crypto";
import type { BooksDigest, BooksLookups, BooksPackage } from "./types.js";

const uniq = (values: (string | undefined)[]) => [...new Set(values.filter((v): v is string => v !== undefined))];

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
 * One text per package content: JSON with every object's properties sorted, every array's elements sorted (the rows
 * of a section, the lines of a transaction: their order changes no figure of the books), and decimals in one spelling.
 * Depth is bounded (json-input.ts: 32 levels), so recursion is safe.
 */
function canonical(value: unknown, key?: string): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v)).sort().join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k], k)}`).join(",")}}`;
  }
  if (typeof value === "string" && key !== undefined && DECIMAL_FIELDS.has(key)) return JSON.stringify(decimalText(value));
  return JSON.stringify(value);
}

/**
 * The package's fingerprint: SHA-256 (hex) of its canonical text without `source` (a label, not content) and
 * `repeatOf` (which says that a package is sent again, not what it is). Whitespace, the order of properties and of
 * rows and the spelling of decimals do not change it; any row's content does.
 */
export function packageFingerprint(pkg: BooksPackage): string {
  const { source: _source, repeatOf: _repeatOf, ...content } = pkg;
  return createHash("sha256").update(canonical(content)).digest("hex");
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
    [pkg.openingBalances ? (pkg.openingBalances.date ?? pkg.cutoverDate) : undefined, ...(pkg.journal ?? []).map((t) => t.date), stock.length ? pkg.cutoverDate : undefined].map(
      (d) => d && `${d.slice(0, 7)}-01`,
    ),
  );
  const lookups: BooksLookups = {
    partnerCodes: uniq([...(pkg.partners ?? []).map((p) => p.code), ...(pkg.openReceivables ?? []).map((r) => r.partnerCode), ...payables.map((r) => r.partnerCode)]),
    itemCodes: uniq([...(pkg.items ?? []).map((i) => i.code), ...stock.map((s) => s.itemCode)]),
    months,
    payables: { partnerCodes: payables.map((r) => r.partnerCode), documentNumbers: payables.map((r) => r.documentNumber) },
    tracked: { itemCodes: tracked.map((s) => s.itemCode), lotNumbers: tracked.map((s) => s.lotNumber!) },
    receivableNumbers: uniq((pkg.openReceivables ?? []).map((r) => r.number)),
    assetCodes: uniq((pkg.fixedAssets ?? []).map((a) => a.code)),
    seriesYear: pkg.openReceivables?.length ? Number(pkg.cutoverDate.slice(0, 4)) : null,
    fingerprint,
  };
  const sections = (Object.keys(pkg) as (keyof BooksPackage)[]).filter((k) => pkg[k] !== undefined);
  return { sections, lookups, fingerprint, cutoverDate: pkg.cutoverDate, source: pkg.source ?? null, repeatOf: pkg.repeatOf ?? null };
}
