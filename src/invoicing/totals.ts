// Invoice totals as EN 16931 (the European e-invoicing standard) computes them, and their conversion to the base
// currency for posting. Every figure is a Decimal; strings go in and out.
//
//   line net   = quantity × unit price × (1 − discount % / 100), rounded half-up to cents       (BT-131)
//   VAT        = Σ line nets of one rate × rate / 100, rounded half-up once per rate           (BT-117)
//   net total  = Σ line nets (BT-106); VAT total = Σ VAT per rate (BT-110); gross = net + VAT (BT-112)
//
// So a line's own VAT is never rounded: two lines of 0.05 at 21% carry 0.02 VAT together (0.10 × 21% = 0.021),
// not 0.01 + 0.01. The breakdown is per rate and VAT classifier (what i.SAF and FR0600 aggregate by): each
// classifier's VAT is its share rounded half-up, and the rounding difference within a rate goes to the classifier
// with the largest taxable amount, so the breakdown always sums to the per-rate VAT.
import { Decimal } from "../shared/decimal.js";

export interface TotalsLine {
  quantity: string;
  unitPrice: string;
  discountPercent?: string | null;
  vatRatePercent: string;
  vatClassifier: string;
}

export interface BreakdownRow {
  vatRatePercent: Decimal;
  vatClassifier: string;
  taxableAmount: Decimal;
  vatAmount: Decimal;
}

export interface Totals {
  lineNets: Decimal[];
  netTotal: Decimal;
  vatTotal: Decimal;
  grossTotal: Decimal;
  /** By rate (ascending), then classifier. */
  breakdown: BreakdownRow[];
  /** VAT per rate (the rounding unit). */
  vatByRate: Map<string, Decimal>;
}

const cents = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
const HUNDRED = new Decimal(100);

export function lineNet(line: Pick<TotalsLine, "quantity" | "unitPrice" | "discountPercent">): Decimal {
  const gross = new Decimal(line.quantity).times(line.unitPrice);
  const discount = line.discountPercent ? gross.times(line.discountPercent).dividedBy(HUNDRED) : new Decimal(0);
  return cents(gross.minus(discount));
}

export function computeTotals(lines: TotalsLine[]): Totals {
  const lineNets = lines.map(lineNet);
  const byRate = new Map<string, Map<string, Decimal>>();
  lines.forEach((line, i) => {
    const rate = new Decimal(line.vatRatePercent).toFixed(2);
    const classifiers = byRate.get(rate) ?? new Map<string, Decimal>();
    classifiers.set(line.vatClassifier, (classifiers.get(line.vatClassifier) ?? new Decimal(0)).plus(lineNets[i]));
    byRate.set(rate, classifiers);
  });
  const breakdown: BreakdownRow[] = [];
  const vatByRate = new Map<string, Decimal>();
  for (const rate of [...byRate.keys()].sort((a, b) => new Decimal(a).comparedTo(b))) {
    const classifiers = byRate.get(rate)!;
    const taxable = [...classifiers.values()].reduce((s, v) => s.plus(v), new Decimal(0));
    const vat = cents(taxable.times(rate).dividedBy(HUNDRED));
    vatByRate.set(rate, vat);
    const rows = [...classifiers.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([vatClassifier, amount]) => ({
        vatRatePercent: new Decimal(rate),
        vatClassifier,
        taxableAmount: amount,
        vatAmount: cents(amount.times(rate).dividedBy(HUNDRED)),
      }));
    const difference = vat.minus(rows.reduce((s, r) => s.plus(r.vatAmount), new Decimal(0)));
    if (!difference.isZero()) {
      const largest = rows.reduce((a, b) => (b.taxableAmount.abs().greaterThan(a.taxableAmount.abs()) ? b : a));
      largest.vatAmount = largest.vatAmount.plus(difference);
    }
    breakdown.push(...rows);
  }
  const netTotal = lineNets.reduce((s, v) => s.plus(v), new Decimal(0));
  const vatTotal = [...vatByRate.values()].reduce((s, v) => s.plus(v), new Decimal(0));
  return { lineNets, netTotal, vatTotal, grossTotal: netTotal.plus(vatTotal), breakdown, vatByRate };
}

/**
 * Converts amounts in a document currency (which sum to a total) to the base currency at `rate` (units of the
 * document currency per 1 unit of the base currency, as the ECB quotes). Each converted part is its exact value
 * rounded to cents, either way (at most 1 cent off), chosen so that the parts sum exactly to the total converted
 * and rounded half-up: a posting's lines then balance and its receivable is the document's total in EUR. The
 * cents the rounding leaves over go to the parts with the largest remainders (largest-remainder method).
 */
export function convertParts(parts: Decimal[], rate: Decimal): { parts: Decimal[]; total: Decimal } {
  const total = cents(parts.reduce((s, p) => s.plus(p), new Decimal(0)).dividedBy(rate));
  const exact = parts.map((p) => p.dividedBy(rate));
  const converted = exact.map((e) => e.toDecimalPlaces(2, Decimal.ROUND_FLOOR));
  let left = total
    .minus(converted.reduce((s, c) => s.plus(c), new Decimal(0)))
    .times(100)
    .toNumber();
  // `left` is a whole number of cents, at most the number of parts; give them to the largest remainders.
  const order = exact.map((e, i) => ({ i, remainder: e.minus(converted[i]) })).sort((a, b) => b.remainder.comparedTo(a.remainder) || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    converted[i] = converted[i].plus("0.01");
    left--;
  }
  return { parts: converted, total };
}
