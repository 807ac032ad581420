// Numbers as Lithuanian documents write them (issue 25): a no-break space between thousands and a decimal comma,
// "1 666,66"; amounts with exactly two decimals, prices and quantities with the decimals they have (at least the
// minimum asked for). Written on the decimal string itself: Intl.NumberFormat("lt-LT") would go through a double and
// lose the cents of a 15-digit Money.
import { Decimal } from "../shared/decimal.js";

/** U+00A0: the space between thousands never breaks a number over two lines. */
export const THOUSANDS_SPACE = "\u00a0";

/** `value` with `thousands` between groups of three and `decimal` before the fraction: at least `minDecimals` decimals, trailing zeros beyond them dropped. */
function formatNumber(value: string, minDecimals: number, thousands: string, decimal: string): string {
  const d = new Decimal(value);
  const fixed = d.abs().toFixed(Math.max(minDecimals, d.decimalPlaces()));
  let [whole, fraction = ""] = fixed.split(".");
  while (fraction.length > minDecimals && fraction.endsWith("0")) fraction = fraction.slice(0, -1);
  whole = whole.replace(/\B(?=(\d{3})+(?!\d))/g, thousands);
  const sign = d.isNegative() && !d.isZero() ? "-" : "";
  return `${sign}${whole}${fraction ? `${decimal}${fraction}` : ""}`;
}

/** `value` with a decimal comma and spaced thousands, at least `minDecimals` decimals, trailing zeros beyond them dropped. */
export const formatLtNumber = (value: string, minDecimals = 0): string => formatNumber(value, minDecimals, THOUSANDS_SPACE, ",");

/** English format, as on English documents: "1,666.66". */
export const formatEnNumber = (value: string, minDecimals = 0): string => formatNumber(value, minDecimals, ",", ".");

/** An amount: two decimals, rounded half-up ("1666.666" never reaches here: Money has two). */
export function formatLtAmount(value: string): string {
  return formatLtNumber(new Decimal(value).toFixed(2, Decimal.ROUND_HALF_UP), 2);
}

/** A VAT rate as the buyer reads it: "21 %", "0 %", "5,5 %". */
export function formatLtRate(percent: string): string {
  return `${formatLtNumber(percent)}${THOUSANDS_SPACE}%`;
}
