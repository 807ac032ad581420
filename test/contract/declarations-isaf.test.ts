// i.SAF 1.2 (declarations/lt/isaf/generate, issue 24): every file the tests generate is validated against the tax
// authority's XSD (shared/schemas/lt/isaf_1_2.xsd, libxml2 through xmllint-wasm): an empty month, the fixture month
// with invoices, credit notes, every classifier and a USD invoice, and a month split into parts. Its content is
// checked against the documents' own amounts.
import { createHash } from "node:crypto";
import { readdirSync, readlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { startHarness, type Harness } from "../support/harness.js";
import { expectApiError } from "../support/expect.js";
import { validateAgainstXsd } from "../support/xsd.js";
import { world } from "../support/world.js";
import { decode, elementText, type FixtureMonth, fixtureMonth, invoicesOf, sale, totalsOf, vatPayer } from "./declarations-fixture.js";

const XSD = "lt/isaf_1_2.xsd";
let h: Harness;
let small: Harness;
let m: FixtureMonth;

beforeAll(async () => {
  h = await startHarness();
  // Parts of 4 invoices, so that a month of 16 is four parts; the cursor read two rows at a time, so that fetches
  // cut documents of several rows.
  small = await startHarness({ config: { isafPartSize: 4, isafFetchRows: 2 } });
  m = await fixtureMonth(h);
});
afterAll(async () => {
  await h?.close();
  await small?.close();
});

/** Waits (up to 5 s) until `done` holds. */
async function waitFor(done: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((r) => setTimeout(r, 50));
  expect(done()).toBe(true);
}

async function expectValid(xml: string) {
  const result = await validateAgainstXsd(xml, XSD);
  expect(result.errors).toEqual([]);
  expect(result.valid).toBe(true);
}

describe("declarations/lt/isaf/generate", () => {
  test("a month without documents gives a valid file: header only, one part", async () => {
    const file = await m.w.api.declarations.lt.isaf.generate({ period: "2026-08", dataType: "F" });
    expect(file).toMatchObject({
      contentType: "application/xml",
      period: "2026-08",
      dataType: "F",
      parts: 1,
      partNumber: 1,
      invoices: { sales: 0, purchases: 0 },
    });
    const xml = decode(file.contentBase64);
    await expectValid(xml);
    expect(elementText(xml, "RegistrationNumber")).toMatch(/^[0-9]{9}$/);
    expect(elementText(xml, "SelectionStartDate")).toBe("2026-08-01");
    expect(elementText(xml, "SelectionEndDate")).toBe("2026-08-31");
    expect(invoicesOf(xml)).toEqual([]);
    expect(file.sha256).toBe(createHash("sha256").update(Buffer.from(file.contentBase64, "base64")).digest("hex"));
  });

  test("the fixture month validates and carries each document as issued or registered, in EUR", async () => {
    const file = await m.w.api.declarations.lt.isaf.generate({ period: "2026-10", dataType: "F" });
    expect(file.invoices).toEqual({ sales: 14, purchases: 8 });
    const xml = decode(file.contentBase64);
    await expectValid(xml);
    const byNo = new Map(invoicesOf(xml).map((inv) => [elementText(inv, "InvoiceNo")!, inv]));
    expect(byNo.size).toBe(22);
    const inv = (name: string) => byNo.get(m.numbers[name])!;

    // One DocumentTotal per classifier and rate; exempt and outside-scope carry no rate.
    expect(totalsOf(inv("S1"))).toEqual([
      ["100.00", "PVM3", "5.00", "5.00"],
      ["200.00", "PVM58", "12.00", "24.00"],
      ["1000.00", "PVM1", "21.00", "210.00"],
    ]);
    expect(totalsOf(inv("S3"))).toEqual([["150.00", "PVM5", "nil", "0.00"]]);
    expect(totalsOf(inv("S6"))).toEqual([["250.00", "PVM15", "nil", "0.00"]]);
    expect(totalsOf(inv("S4"))).toEqual([["400.00", "PVM12", "0.00", "0.00"]]);
    // The USD invoice in EUR as posted: 307.59 revenue and 64.59 VAT (see the fixture).
    expect(totalsOf(inv("S9"))).toEqual([["307.59", "PVM1", "21.00", "64.59"]]);
    // A credit note: KS, negative, referring to the invoice it credits.
    expect(elementText(inv("KS1"), "InvoiceType")).toBe("KS");
    expect(totalsOf(inv("KS1"))).toEqual([["-100.00", "PVM1", "21.00", "-21.00"]]);
    expect(elementText(inv("KS1"), "ReferenceNo")).toBe(m.numbers.S0);
    expect(elementText(inv("KS1"), "ReferenceDate")).toBe("2026-09-15");
    expect(elementText(inv("S1"), "InvoiceType")).toBe("SF");
    expect(inv("S1")).toContain("<References></References>");
    // The supply date when it differs from the invoice date, else nil.
    expect(elementText(inv("S2"), "VATPointDate")).toBe("2025-12-20");
    expect(totalsOf(inv("S2"))).toEqual([["300.00", "PVM2", "9.00", "27.00"]]);
    expect(inv("S1")).toContain('<VATPointDate xsi:nil="true"/>');
    expect(inv("S1")).toContain("<SpecialTaxation></SpecialTaxation>");
    // Purchases: the VAT charged (deductible or not) and the VAT calculated on a reverse charge; registered in the month.
    expect(totalsOf(inv("P1"))).toEqual([["600.00", "PVM1", "21.00", "126.00"]]);
    expect(totalsOf(inv("P2"))).toEqual([["1000.00", "PVM16", "21.00", "210.00"]]);
    expect(totalsOf(inv("P5"))).toEqual([["200.00", "PVM25", "21.00", "42.00"]]);
    expect(elementText(inv("P3"), "RegistrationAccountDate")).toBe("2026-10-17");
    expect(totalsOf(inv("PK1"))).toEqual([["-50.00", "PVM1", "21.00", "-10.50"]]);
    expect(elementText(inv("PK1"), "ReferenceNo")).toBe("T-0916");
    // Master data: each partner once, named by the invoices; text escaped.
    expect(xml).toContain(
      "<Customer><CustomerID>USBUY</CustomerID><VATRegistrationNumber>ND</VATRegistrationNumber><RegistrationNumber>ND</RegistrationNumber><Country>US</Country><Name>Buyer &lt;Inc.&gt;</Name></Customer>",
    );
    expect(xml).toContain(
      "<CustomerID>PIRK</CustomerID><VATRegistrationNumber>LT212154314</VATRegistrationNumber><RegistrationNumber>121215434</RegistrationNumber><Country>LT</Country>",
    );
    expect(inv("S1")).toContain("<CustomerInfo><CustomerID>PIRK</CustomerID>");
    expect(xml.match(/<Supplier><SupplierID>TIEK<\/SupplierID>/g)).toHaveLength(1);
    expect(inv("P1")).toContain(
      '<SupplierInfo><SupplierID>TIEK</SupplierID><VATRegistrationNumber></VATRegistrationNumber><Country xsi:nil="true"/><Name></Name></SupplierInfo>',
    );
    // A debit note: DS, positive, referring to the invoice it increases.
    expect(elementText(inv("DS1"), "InvoiceType")).toBe("DS");
    expect(totalsOf(inv("DS1"))).toEqual([["200.00", "PVM1", "21.00", "42.00"]]);
    expect(elementText(inv("DS1"), "ReferenceNo")).toBe(m.numbers.S0);
    expect(elementText(inv("DS1"), "ReferenceDate")).toBe("2026-09-15");
    // An annulled invoice: AN, with its amounts as issued.
    expect(elementText(inv("S12"), "InvoiceType")).toBe("AN");
    expect(totalsOf(inv("S12"))).toEqual([["1000.00", "PVM1", "21.00", "210.00"]]);
    // The seller's side of the domestic reverse charge, and a triangular supply (i.SAF has no flag for it).
    expect(totalsOf(inv("S10"))).toEqual([["500.00", "PVM25", "0.00", "0.00"]]);
    expect(totalsOf(inv("S11"))).toEqual([["700.00", "PVM13", "0.00", "0.00"]]);
    // A purchase debit note: DS, referring to the supplier's invoice it increases.
    expect(elementText(inv("PD1"), "InvoiceType")).toBe("DS");
    expect(totalsOf(inv("PD1"))).toEqual([["100.00", "PVM1", "21.00", "21.00"]]);
    expect(elementText(inv("PD1"), "ReferenceNo")).toBe("T-0916");
    expect(elementText(inv("PD1"), "ReferenceDate")).toBe("2026-09-16");
    // An import: the supplier's invoice as registered (the VAT paid to customs is FR0600's box 26, not a total here).
    expect(totalsOf(inv("P6"))).toEqual([["1000.00", "PVM14", "0.00", "0.00"]]);
    // September's documents are not in October.
    expect(byNo.has(m.numbers.S0)).toBe(false);
  });

  test("S and P carry one register each", async () => {
    const s = await m.w.api.declarations.lt.isaf.generate({ period: "2026-10", dataType: "S" });
    const p = await m.w.api.declarations.lt.isaf.generate({ period: "2026-10", dataType: "P" });
    expect([s.invoices, p.invoices]).toEqual([
      { sales: 14, purchases: 0 },
      { sales: 0, purchases: 8 },
    ]);
    for (const f of [s, p]) await expectValid(decode(f.contentBase64));
    expect(decode(s.contentBase64)).not.toContain("<PurchaseInvoices>");
    expect(decode(p.contentBase64)).not.toContain("<SalesInvoices>");
  });

  test("a month of 16 invoices in parts of 4: four valid files, each invoice in exactly one", async () => {
    const w = await vatPayer(small);
    for (let i = 1; i <= 10; i++)
      await sale(w, {
        partnerCode: i % 2 ? "PIRK" : "DEBUY",
        issueDate: `2026-10-${String(i).padStart(2, "0")}`,
        lines: [{ description: "X", quantity: "1", unitPriceExclVat: `${i}0`, vatClassifier: i % 2 ? "PVM1" : "PVM13", vatRatePercent: i % 2 ? "21" : "0" }],
      });
    for (let i = 1; i <= 6; i++)
      await w.api.purchases.invoices.register({
        id: (
          await w.api.purchases.invoices.create({
            partnerCode: "TIEK",
            documentNumber: `P-${i}`,
            documentDate: `2026-10-2${i}`,
            lines: [{ description: "Y", quantity: "1", unitPriceExclVat: "10", vatRatePercent: "21", vatClassifier: "PVM1" }],
          })
        ).id,
      });
    const first = await w.api.declarations.lt.isaf.generate({ period: "2026-10", dataType: "F" });
    expect(first.parts).toBe(4);
    expect(first.invoicesPerPart).toBe(4);
    const seen: string[] = [];
    const counts: unknown[] = [];
    for (let partNumber = 1; partNumber <= 4; partNumber++) {
      const part = await w.api.declarations.lt.isaf.generate({ period: "2026-10", dataType: "F", partNumber });
      const xml = decode(part.contentBase64);
      await expectValid(xml);
      expect(elementText(xml, "NumberOfParts")).toBe("4");
      expect(elementText(xml, "PartNumber")).toBe(String(partNumber));
      counts.push(part.invoices);
      seen.push(...invoicesOf(xml).map((inv) => elementText(inv, "InvoiceNo")!));
      // Master data names only the partners of its part.
      const customers = [...xml.matchAll(/<Customer><CustomerID>([^<]+)<\/CustomerID>/g)].map((x) => x[1]);
      const named = new Set(invoicesOf(xml).flatMap((inv) => [...inv.matchAll(/<CustomerID>([^<]+)<\/CustomerID>/g)].map((x) => x[1])));
      expect(customers.sort()).toEqual([...named].sort());
    }
    expect(counts).toEqual([
      { sales: 4, purchases: 0 },
      { sales: 4, purchases: 0 },
      { sales: 2, purchases: 2 },
      { sales: 0, purchases: 4 },
    ]);
    expect(seen).toHaveLength(16);
    expect(new Set(seen).size).toBe(16);
    await expectApiError(w.api.declarations.lt.isaf.generate({ period: "2026-10", dataType: "F", partNumber: 5 }), 422, "unprocessable", "isaf.part_unknown");
  });

  test("documents of three rows read two rows a fetch: each invoice whole, once, with its own totals", async () => {
    const w = await vatPayer(small);
    // Sale i: three classifiers (21 %, 5 %, exempt) with hand-picked nets; VAT by hand: 21 % of 100·i, 5 % of 40·i.
    const expected = new Map<string, string[][]>();
    for (let i = 1; i <= 5; i++) {
      const { number } = await sale(w, {
        partnerCode: "PIRK",
        issueDate: `2026-11-0${i}`,
        lines: [
          { description: "A", quantity: "1", unitPriceExclVat: `${100 * i}`, vatClassifier: "PVM1", vatRatePercent: "21" },
          { description: "B", quantity: "1", unitPriceExclVat: `${40 * i}`, vatClassifier: "PVM3", vatRatePercent: "5" },
          { description: "C", quantity: "1", unitPriceExclVat: `${7 * i}`, vatClassifier: "PVM5", vatRatePercent: "0" },
        ],
      });
      expected.set(number, [
        [`${100 * i}.00`, "PVM1", "21.00", `${21 * i}.00`],
        [`${40 * i}.00`, "PVM3", "5.00", `${2 * i}.00`],
        [`${7 * i}.00`, "PVM5", "nil", "0.00"],
      ]);
    }
    const seen = new Map<string, string[][]>();
    for (let partNumber = 1; partNumber <= 2; partNumber++) {
      const part = await w.api.declarations.lt.isaf.generate({ period: "2026-11", dataType: "S", partNumber });
      expect(part.parts).toBe(2);
      const xml = decode(part.contentBase64);
      await expectValid(xml);
      for (const inv of invoicesOf(xml)) {
        const no = elementText(inv, "InvoiceNo")!;
        expect(seen.has(no)).toBe(false);
        seen.set(no, totalsOf(inv).sort((a, b) => (a[1]! < b[1]! ? -1 : 1)) as string[][]);
      }
    }
    expect(seen).toEqual(expected);
  });

  test("a part is answered from a temporary file that nothing keeps: unlinked when made, closed when the answer ends or is dropped", async () => {
    // The harness's server runs in this process: its open files are this process's.
    const spills = () =>
      readdirSync("/proc/self/fd").filter((fd) => {
        try {
          return /\/isaf-[0-9a-f-]+\.xml \(deleted\)$/.test(readlinkSync(`/proc/self/fd/${fd}`));
        } catch {
          return false;
        }
      }).length;
    const named = () => readdirSync(tmpdir()).filter((f) => /^isaf-/.test(f));
    expect(spills()).toBe(0);
    const request = () =>
      fetch(`${h.url}/v1/declarations/lt/isaf/generate`, {
        method: "POST",
        headers: { authorization: `Bearer ${m.w.apiKey}`, "x-company-id": m.w.companyId, "content-type": "application/json" },
        body: JSON.stringify({ period: "2026-10", dataType: "F" }),
      });
    // The answer is read from its file (which never has a name in the temporary folder) …
    const answered = await request();
    expect(answered.status).toBe(200);
    expect(named()).toEqual([]);
    const whole = (await answered.json()) as { contentBase64: string; sha256: string };
    expect(createHash("sha256").update(Buffer.from(whole.contentBase64, "base64")).digest("hex")).toBe(whole.sha256);
    // … and closed when it is done.
    await waitFor(() => spills() === 0);
    // A client that goes away before reading: the file is closed all the same.
    const dropped = await request();
    expect(dropped.status).toBe(200);
    await dropped.body?.cancel();
    await waitFor(() => spills() === 0);
    expect(named()).toEqual([]);
  });

  test("refusals: a month before i.SAF, a partner without the country i.SAF needs, a company without a VAT code, a company of another country", async () => {
    await expectApiError(m.w.api.declarations.lt.isaf.generate({ period: "2016-08", dataType: "F" }), 422, "unprocessable", "isaf.period_unsupported");

    const w = await vatPayer(h);
    const nowhere = await w.api.partners.create({ code: "NOWHERE", name: "Be šalies" });
    await sale(w, {
      partnerCode: "NOWHERE",
      issueDate: "2026-10-05",
      lines: [{ description: "X", quantity: "1", unitPriceExclVat: "10", vatRatePercent: "21" }],
    });
    const error = await expectApiError(
      w.api.declarations.lt.isaf.generate({ period: "2026-10", dataType: "S" }),
      422,
      "unprocessable",
      "isaf.partner_incomplete",
    );
    expect(error.params).toEqual({ partners: [{ code: "NOWHERE", problem: expect.stringContaining("country") }] });
    // The partner's country, once set, is used for documents issued before it.
    await w.api.partners.update({ id: nowhere.id, countryCode: "LT" });
    await expectValid(decode((await w.api.declarations.lt.isaf.generate({ period: "2026-10", dataType: "S" })).contentBase64));

    const noVat = await world(h);
    const e = await expectApiError(
      noVat.api.declarations.lt.isaf.generate({ period: "2026-10", dataType: "F" }),
      422,
      "unprocessable",
      "declaration.vat_code_missing",
    );
    expect(e.message).toContain("VAT code");

    const lv = await world(h, { company: { countryCode: "LV", name: "Latvija SIA" }, chart: false });
    await expectApiError(lv.api.declarations.lt.isaf.generate({ period: "2026-10", dataType: "F" }), 422, "unprocessable", "jurisdiction.mismatch");
  });
});
