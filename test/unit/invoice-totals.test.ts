// EN 16931 totals and the conversion of a document's parts to EUR (src/invoicing/totals.ts), as tables of cases.
import { describe, expect, test } from "@jest/globals";
import fc from "fast-check";
import { Decimal } from "../../src/shared/decimal.js";
import { computeTotals, convertParts, lineNet, type TotalsLine } from "../../src/invoicing/totals.js";

const line = (quantity: string, unitPrice: string, vatRatePercent = "21", vatClassifier = "PVM1", discountPercent?: string): TotalsLine => ({
  quantity,
  unitPrice,
  vatRatePercent,
  vatClassifier,
  discountPercent,
});
const fixed = (d: Decimal) => d.toFixed(2);

describe("line net: quantity × price less discount, rounded half-up to cents once", () => {
  test.each([
    ["1 × 10", "1", "10", undefined, "10.00"],
    ["3 × 0.3333", "3", "0.3333", undefined, "1.00"],
    ["2.5 × 1.005", "2.5", "1.005", undefined, "2.51"], // 2.5125 -> 2.51
    ["0.0001 × 0.0001", "0.0001", "0.0001", undefined, "0.00"],
    ["half a cent rounds up", "1", "0.005", undefined, "0.01"],
    ["10 × 9.99 less 12.5%", "10", "9.99", "12.5", "87.41"], // 99.9 - 12.4875 = 87.4125
    ["a negative line (a discount)", "-1", "5.555", undefined, "-5.56"], // half-up away from zero
    ["100% discount", "4", "25", "100", "0.00"],
  ])("%s", (_name, quantity, unitPrice, discountPercent, want) => {
    expect(fixed(lineNet({ quantity, unitPrice, discountPercent }))).toBe(want);
  });
});

describe("VAT is rounded once per rate, not per line", () => {
  test.each([
    {
      name: "ten lines of 0.05 at 21%: 0.105 -> 0.11 (per line it would be 10 × 0.01 = 0.10)",
      lines: Array.from({ length: 10 }, () => line("1", "0.05")),
      net: "0.50",
      vat: "0.11",
      gross: "0.61",
    },
    {
      name: "two lines of 0.05 at 21%: 0.021 -> 0.02 (per line 0.01 + 0.01 = 0.02 too, but from 0.0105 each)",
      lines: [line("1", "0.05"), line("1", "0.05")],
      net: "0.10",
      vat: "0.02",
      gross: "0.12",
    },
    {
      name: "three rates",
      lines: [line("2", "10.10", "21"), line("1", "3.33", "9", "PVM2"), line("1", "7.77", "5", "PVM3"), line("1", "100", "0", "PVM12")],
      net: "131.30",
      vat: "4.93", // 21% of 20.20 = 4.242 -> 4.24; 9% of 3.33 = 0.2997 -> 0.30; 5% of 7.77 = 0.3885 -> 0.39; 0% -> 0
      gross: "136.23",
    },
  ])("$name", ({ lines, net, vat, gross }) => {
    const t = computeTotals(lines);
    expect({ net: fixed(t.netTotal), vat: fixed(t.vatTotal), gross: fixed(t.grossTotal) }).toEqual({ net, vat, gross });
  });

  test("the breakdown per rate and classifier sums to the VAT of each rate; the difference goes to the largest classifier", () => {
    // Two classifiers at 21%: 0.05 + 0.05 -> 0.0105 each (0.01 each rounded), together 0.021 -> 0.02: no difference.
    // 0.07 + 0.07: 0.0147 each (0.01 each), together 0.0294 -> 0.03: one cent to the larger (both equal: the first).
    const t = computeTotals([line("1", "0.07", "21", "PVM1"), line("1", "0.08", "21", "PVM5")]);
    expect(t.breakdown.map((r) => [fixed(r.vatRatePercent), r.vatClassifier, fixed(r.taxableAmount), fixed(r.vatAmount)])).toEqual([
      ["21.00", "PVM1", "0.07", "0.01"],
      ["21.00", "PVM5", "0.08", "0.02"], // 0.0168 -> 0.02; 0.0147 -> 0.01; together 0.0315 -> 0.03: no adjustment needed
    ]);
    const skew = computeTotals([line("1", "0.06", "21", "PVM1"), line("1", "0.06", "21", "PVM5"), line("1", "0.10", "21", "PVM9")]);
    // 0.0126 -> 0.01, 0.0126 -> 0.01, 0.021 -> 0.02; per rate 0.22 × 21% = 0.0462 -> 0.05: +0.01 to PVM9 (largest)
    expect(skew.breakdown.map((r) => [r.vatClassifier, fixed(r.vatAmount)])).toEqual([
      ["PVM1", "0.01"],
      ["PVM5", "0.01"],
      ["PVM9", "0.03"],
    ]);
    expect(fixed(skew.vatTotal)).toBe("0.05");
  });

  test("property: the breakdown always sums to the VAT total, and gross = net + VAT", () => {
    const amount = fc.integer({ min: -50_000, max: 5_000_000 }).map((c) => new Decimal(c).dividedBy(100).toFixed(2));
    const arb = fc.array(
      fc.record({
        quantity: fc.constantFrom("1", "2", "0.5", "3.3333", "10"),
        unitPrice: amount.map((a) => new Decimal(a).abs().toFixed(2)),
        vatRatePercent: fc.constantFrom("21", "9", "12", "5", "0"),
        vatClassifier: fc.constantFrom("PVM1", "PVM2", "PVM5"),
      }),
      { minLength: 1, maxLength: 20 },
    );
    fc.assert(
      fc.property(arb, (lines) => {
        const t = computeTotals(lines);
        expect(fixed(t.breakdown.reduce((s, r) => s.plus(r.vatAmount), new Decimal(0)))).toBe(fixed(t.vatTotal));
        expect(fixed(t.breakdown.reduce((s, r) => s.plus(r.taxableAmount), new Decimal(0)))).toBe(fixed(t.netTotal));
        expect(fixed(t.netTotal.plus(t.vatTotal))).toBe(fixed(t.grossTotal));
      }),
    );
  });
});

describe("conversion of a document's parts to EUR", () => {
  test.each([
    { name: "USD at 1.0812", parts: ["100.00", "21.00"], rate: "1.0812", want: ["92.49", "19.42"], total: "111.91" },
    {
      name: "rounding leaves a cent over: it goes to the largest remainder",
      parts: ["0.01", "0.01", "0.01"],
      rate: "2",
      want: ["0.01", "0.01", "0.00"],
      total: "0.02",
    },
    { name: "JPY at 162.41", parts: ["10000.00", "2100.00"], rate: "162.41", want: ["61.57", "12.93"], total: "74.50" },
    { name: "a rate of 1 changes nothing", parts: ["10.10", "2.12"], rate: "1", want: ["10.10", "2.12"], total: "12.22" },
  ])("$name", ({ parts, rate, want, total }) => {
    const r = convertParts(
      parts.map((p) => new Decimal(p)),
      new Decimal(rate),
    );
    expect({ parts: r.parts.map(fixed), total: fixed(r.total) }).toEqual({ parts: want, total });
  });

  test("property: parts sum to the rounded total, each at most a cent from its exact value", () => {
    const part = fc.integer({ min: -1_000_000, max: 100_000_000 }).map((c) => new Decimal(c).dividedBy(100));
    const rate = fc.integer({ min: 1, max: 20_000_000 }).map((r) => new Decimal(r).dividedBy(10_000));
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 12 }), rate, (parts, r) => {
        const { parts: out, total } = convertParts(parts, r);
        expect(fixed(out.reduce((s, p) => s.plus(p), new Decimal(0)))).toBe(fixed(total));
        expect(fixed(total)).toBe(
          fixed(
            parts
              .reduce((s, p) => s.plus(p), new Decimal(0))
              .dividedBy(r)
              .toDecimalPlaces(2, Decimal.ROUND_HALF_UP),
          ),
        );
        out.forEach((o, i) => expect(o.minus(parts[i].dividedBy(r)).abs().lessThan("0.01")).toBe(true));
      }),
    );
  });
});
