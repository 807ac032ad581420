// Identifier rules (src/shared/identifiers.ts) as tables of published examples: Lithuanian VAT, legal entity and
// personal codes (mod 11 with the second weighting), the EL/GR prefix, UPC-E next to EAN-8.
import { describe, expect, test } from "@jest/globals";
import {
  barcodeProblem,
  ltCheckDigit,
  ltCompanyCodeProblem,
  ltPersonalCodeProblem,
  ltRegistrationCodeProblem,
  upcEToUpcA,
  vatCodeProblem,
} from "../../src/shared/identifiers.js";

describe("LT VAT codes: format, the fixed 1, the mod-11 check digit", () => {
  test.each([
    // python-stdnum stdnum/lt/pvm.py doctests: an organisation, a temporarily registered taxpayer, and one whose check
    // digit needs the second weighting.
    ["LT119511515", "organisation (9 digits)"],
    ["LT100001919017", "temporarily registered (12 digits)"],
    ["LT100004801610", "check digit from the second weighting"],
    // VIES-registered codes of large Lithuanian companies.
    ["LT212154314", "Telia Lietuva, AB"],
    ["LT230335113", "Maxima LT, UAB"],
    ["LT123456715", "a constructed 9-digit code with a right check digit"],
  ])("%s (%s) is accepted", (code) => {
    expect(vatCodeProblem(code)).toBeUndefined();
  });

  test.each([
    ["LT123456789", /8th digit must be 1/],
    ["LT100001919018", /check digit/], // stdnum: invalid check digit
    ["LT119511516", /check digit/],
    ["LT212154315", /check digit/],
    ["LT100001234567", /11th digit must be 1/],
    ["LT100004801611", /check digit/],
    ["LT12345678", /format/],
    ["LT1234567890", /format/],
  ])("%s is refused (%s)", (code, message) => {
    expect(vatCodeProblem(code)).toMatch(message);
  });

  test("a weighted sum of 10 twice gives check digit 0", () => {
    // Found by search: both weightings leave 10 for these digits, so the check digit is 0.
    const digits = [...Array(100000).keys()]
      .map((n) => `1${String(n).padStart(6, "0")}1`)
      .find((d) => {
        const sum = (offset: number) => [...d].reduce((s, c, i) => s + (1 + ((i + offset) % 9)) * Number(c), 0) % 11;
        return sum(0) === 10 && sum(2) === 10;
      })!;
    expect(digits).toBeDefined();
    expect(ltCheckDigit(digits)).toBe(0);
    expect(vatCodeProblem(`LT${digits}0`)).toBeUndefined();
    expect(vatCodeProblem(`LT${digits}1`)).toMatch(/check digit/);
  });
});

describe("the VAT prefix of Greece is EL, not GR", () => {
  test("EL094259216 is accepted", () => expect(vatCodeProblem("EL094259216")).toBeUndefined());
  test("GR094259216 is refused, naming EL", () => expect(vatCodeProblem("GR094259216")).toMatch(/EL/));
});

describe("LT legal entity codes (juridinio asmens kodas)", () => {
  test.each([
    ["110053842", "AB Lietuvos geležinkeliai"],
    ["121215434", "Telia Lietuva, AB"],
    ["123033512", "Maxima LT, UAB"],
  ])("%s (%s) is accepted", (code) => {
    expect(ltCompanyCodeProblem(code)).toBeUndefined();
  });

  test.each([
    ["123456789", /check digit/],
    ["110053843", /check digit/],
    ["304000001", /check digit/],
    ["12345678", /9 digits/],
    ["1234567890", /9 digits/],
    ["12345678A", /9 digits/],
    ["C1", /9 digits/],
  ])("%s is refused (%s)", (code, message) => {
    expect(ltCompanyCodeProblem(code)).toMatch(message);
  });
});

describe("LT personal codes (asmens kodas) for private persons", () => {
  test.each(["33309240064", "49009221234".slice(0, 10) + String(ltCheckDigit("4900922123"))])("%s is accepted", (code) => {
    expect(ltPersonalCodeProblem(code)).toBeUndefined();
  });
  test.each([
    ["33309240164", /check digit/], // stdnum/lt/asmens.py doctest: invalid check digit
    ["73309240064", /11 digits starting/],
  ])("%s is refused", (code, message) => {
    expect(ltPersonalCodeProblem(code)).toMatch(message);
  });
  test("a private person's registration code is checked only when it is 11 digits", () => {
    expect(ltRegistrationCodeProblem("33309240164", true)).toMatch(/check digit/);
    expect(ltRegistrationCodeProblem("IV-123456", true)).toBeUndefined();
    expect(ltRegistrationCodeProblem("IV-123456", false)).toMatch(/9 digits/);
  });
});

describe("barcodes: EAN-8, UPC-E, UPC-A, EAN-13", () => {
  test.each([
    ["96385074", "EAN-8"],
    ["04252614", "UPC-E of UPC-A 042100005264 (GS1 example)"],
    ["01234565", "UPC-E of UPC-A 012345000065"],
    ["036000291452", "UPC-A"],
    ["4006381333931", "EAN-13"],
    ["ABC-123", "free text"],
  ])("%s (%s) is accepted", (barcode) => {
    expect(barcodeProblem(barcode)).toBeUndefined();
  });

  test.each([
    ["04252615", /EAN-8 and UPC-E/],
    ["96385075", /EAN-8/],
    ["036000291453", /UPC-A/],
    ["4006381333932", /EAN-13/],
  ])("%s is refused", (barcode, message) => {
    expect(barcodeProblem(barcode)).toMatch(message);
  });

  test.each([
    ["04252614", "042100005264"], // last digit 0-2: manufacturer digits then 0000
    ["06543217", "065100004327"], // last digit 1: the same rule
    ["06543238", "065400000328"], // last digit 3: three manufacturer digits, 00000, two item digits
    ["06543249", "065430000029"], // last digit 4: four manufacturer digits, 00000, one item digit
    ["06543257", "065432000057"], // last digit 5-9: five manufacturer digits, 0000, the item digit
  ])("UPC-E %s expands to UPC-A %s", (upcE, upcA) => {
    expect(upcEToUpcA(upcE)).toBe(upcA);
  });
});
