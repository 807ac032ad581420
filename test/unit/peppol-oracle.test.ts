// The Peppol oracle itself (test/support/peppol.ts) before anything relies on it: Peppol's own examples pass both
// rule sets, and the README's broken variants fail with the rules it names (a wrong VAT amount in the total and its
// breakdown: BR-CO-15, BR-CO-17, BR-S-09; a wrong ProfileID: PEPPOL-EN16931-R007). An oracle that passes everything would otherwise prove nothing.
import { describe, expect, test } from "@jest/globals";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PEPPOL_DIR, peppolFatal } from "../support/peppol.js";

const examples = readdirSync(join(PEPPOL_DIR, "examples")).filter((f) => f.endsWith(".xml"));
const base = readFileSync(join(PEPPOL_DIR, "examples/base-example.xml"), "utf8");

describe("the Peppol BIS 3.0 and EN 16931 oracle", () => {
  test.each(examples)(
    "Peppol's example %s has no fatal assert",
    (file) => {
      expect(peppolFatal(readFileSync(join(PEPPOL_DIR, "examples", file), "utf8"))).toEqual([]);
    },
    180_000,
  );

  test("a wrong VAT amount in the total and its breakdown fails BR-CO-15, BR-CO-17 and BR-S-09; in the total alone, BR-CO-14", () => {
    const right = '<cbc:TaxAmount currencyID="EUR">331.25</cbc:TaxAmount>';
    const wrong = '<cbc:TaxAmount currencyID="EUR">332.25</cbc:TaxAmount>';
    expect(base.split(right)).toHaveLength(3); // the document's total and its one subtotal
    const both = new Set(peppolFatal(base.replaceAll(right, wrong)).map((a) => a.id));
    for (const id of ["BR-CO-15", "BR-CO-17", "BR-S-09"]) expect(both).toContain(id);
    const totalOnly = new Set(peppolFatal(base.replace(right, wrong)).map((a) => a.id));
    for (const id of ["BR-CO-14", "BR-CO-15"]) expect(totalOnly).toContain(id);
  }, 180_000);

  test("a wrong ProfileID fails PEPPOL-EN16931-R007", () => {
    const broken = base.replace(/<cbc:ProfileID>[^<]*<\/cbc:ProfileID>/, "<cbc:ProfileID>urn:example:not-a-process</cbc:ProfileID>");
    expect(broken).not.toBe(base);
    expect(peppolFatal(broken).map((a) => a.id)).toContain("PEPPOL-EN16931-R007");
  }, 180_000);
});
