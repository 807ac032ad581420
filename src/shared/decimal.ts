// The decimal-string scalars of the contract (spec/common.tsp) and their conversions.
// Money never lives in a JS number: strings at the edges, decimal.js inside computations, `numeric` in Postgres
// (node-postgres returns `numeric` as a string, which is kept as is).
import { Decimal } from "decimal.js";

Decimal.set({ precision: 40, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -40, toExpPos: 40 });

export const PATTERNS = {
  money: /^-?(0|[1-9][0-9]{0,14})(\.[0-9]{1,2})?$/,
  unitPrice: /^(0|[1-9][0-9]{0,14})(\.[0-9]{1,6})?$/,
  quantity: /^-?(0|[1-9][0-9]{0,11})(\.[0-9]{1,6})?$/,
  percent: /^(100(\.0{1,2})?|[1-9]?[0-9](\.[0-9]{1,2})?)$/,
  rate: /^[0-9]{1,10}(\.[0-9]{1,8})?$/,
} as const;

/**
 * The largest `Money`: every single amount, and every stored total of one document or transaction, stays within it
 * (a 422 above it), so that it fits its `numeric(18, 2)` column and the contract's pattern. Sums over many documents
 * (reports, list totals) are `MoneyTotal` and unbounded.
 */
export const MAX_MONEY = "999999999999999.99";

export type DecimalKind = keyof typeof PATTERNS;

/** Scale (digits after the point) each kind is stored and printed with. */
export const SCALE: Record<DecimalKind, number> = { money: 2, unitPrice: 6, quantity: 6, percent: 2, rate: 8 };

export function isDecimalString(value: unknown, kind: DecimalKind): value is string {
  return typeof value === "string" && PATTERNS[kind].test(value);
}

/** Parses a decimal string of the given kind; throws on anything else (including JS numbers). */
export function parseDecimal(value: string, kind: DecimalKind): Decimal {
  if (!isDecimalString(value, kind)) throw new TypeError(`not a ${kind} decimal string: ${JSON.stringify(value)}`);
  return new Decimal(value);
}

/** Formats a Decimal (or a `numeric` string from Postgres) as the canonical string of its kind. */
export function formatDecimal(value: Decimal | string, kind: DecimalKind): string {
  const d = typeof value === "string" ? new Decimal(value) : value;
  return d.toDecimalPlaces(SCALE[kind], Decimal.ROUND_HALF_UP).toFixed(SCALE[kind]);
}

/** Trims trailing zeros: `1.50000000` -> `1.5`, `3.00` -> `3`. Used for rates, which carry no fixed scale. */
export function trimDecimal(value: Decimal | string): string {
  const d = typeof value === "string" ? new Decimal(value) : value;
  return d.toFixed();
}

/** Sums decimal strings (or Decimals) exactly. */
export function sumDecimals(values: Iterable<Decimal | string>): Decimal {
  let total = new Decimal(0);
  for (const v of values) total = total.plus(v);
  return total;
}

export { Decimal };
