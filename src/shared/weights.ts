// Sharing an amount between parts in proportion to weights, to the cent (a VAT amount between the accounts of its
// lines, a stock value between the lines of a document).
import { Decimal } from "./decimal.js";

/**
 * Splits `total` (cents) between weights in proportion, each share rounded to cents so that the shares sum to
 * `total` exactly (largest remainder). Used to share one rate's VAT between the accounts of its lines.
 */
export function splitByWeights(total: Decimal, weights: Decimal[]): Decimal[] {
  const sum = weights.reduce((s, w) => s.plus(w), new Decimal(0));
  if (sum.isZero()) return weights.map((_, i) => (i === 0 ? total : new Decimal(0)));
  const exact = weights.map((w) => total.times(w).dividedBy(sum));
  const shares = exact.map((e) => e.toDecimalPlaces(2, Decimal.ROUND_FLOOR));
  let left = total
    .minus(shares.reduce((s, c) => s.plus(c), new Decimal(0)))
    .times(100)
    .round()
    .toNumber();
  const order = exact.map((e, i) => ({ i, remainder: e.minus(shares[i]) })).sort((a, b) => b.remainder.comparedTo(a.remainder) || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    shares[i] = shares[i].plus("0.01");
    left--;
  }
  return shares;
}
