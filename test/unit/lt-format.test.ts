// Lithuanian number format (src/invoicing/lt-format.ts), expected strings written by hand. "·" below stands for the
// no-break space U+00A0 and is replaced before comparing.
import { describe, expect, test } from "@jest/globals";
import { formatLtAmount, formatLtNumber, formatLtRate } from "../../src/invoicing/lt-format.js";

const nbsp = (s: string) => s.replaceAll("·", "\u00a0");

describe("Lithuanian number format", () => {
  test.each([
    ["0", "0,00"],
    ["1666.66", "1·666,66"],
    ["1666.6", "1·666,60"],
    ["999", "999,00"],
    ["1000", "1·000,00"],
    ["-1234567.8", "-1·234·567,80"],
    ["999999999999999.99", "999·999·999·999·999,99"],
  ])("amount %s", (value, text) => expect(formatLtAmount(value)).toBe(nbsp(text)));

  test.each([
    ["3.3333", 2, "3,3333"],
    ["5", 2, "5,00"],
    ["12.500000", 2, "12,50"],
    ["2.5", 0, "2,5"],
    ["10000", 0, "10·000"],
  ])("price or quantity %s (at least %d decimals)", (value, min, text) => expect(formatLtNumber(value, min)).toBe(nbsp(text)));

  test("rates as the buyer reads them", () => {
    expect(formatLtRate("21")).toBe(nbsp("21·%"));
    expect(formatLtRate("0")).toBe(nbsp("0·%"));
    expect(formatLtRate("5.50")).toBe(nbsp("5,5·%"));
  });
});
