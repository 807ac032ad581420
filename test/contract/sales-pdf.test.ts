// What a Lithuanian buyer and auditor read on a sales document's PDF (issue 25), read back with pdf.js: the labels in
// the partner's document language (lt, en, lt-en), Lithuanian number format on Lithuanian documents ("1 666,66",
// "21 %") and English format on English ones, rates instead of the internal PVM codes, the total in words, the VAT
// in EUR of a document in another currency as posted (with the rate and its date), the issuer, and the reason and
// article of a supply without Lithuanian VAT; page 1 of a 20-line document rendered to PNG by pdftoppm, and no two
// text boxes on it overlapping. Expected strings are written here by hand.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import type { RequestBody } from "../../sdk/typescript/src/index.js";
import { startHarness, type Harness } from "../support/harness.js";
import { overlapping, pdfText, renderFirstPage, textBoxes } from "../support/pdf.js";
import { world, type World } from "../support/world.js";

let h: Harness;
let w: World;
beforeAll(async () => {
  h = await startHarness();
  w = await world(h, {
    company: {
      name: "Pardavėjas UAB",
      vatCode: "LT100001919017",
      iban: "LT121000011101001000",
      invoiceIssuer: { name: "Ona Onaitė", position: "Vyr. buhalterė" },
    },
    partners: [
      { code: "LT", name: "Pirkėjas UAB", vatCode: "LT212154314", countryCode: "LT", documentLanguage: "lt" },
      { code: "EN", name: "Buyer Ltd", vatCode: "GB980780684", countryCode: "GB", documentLanguage: "en" },
      { code: "BI", name: "Dvikalbis UAB", vatCode: "LT212154314", countryCode: "LT" },
      { code: "DE", name: "Käufer GmbH", vatCode: "DE136695976", countryCode: "DE", documentLanguage: "en" },
    ],
  });
  await w.api.reference.exchangeRates.set({ currency: "USD", date: "2026-03-10", rate: "1.0837" });
}, 120_000);
afterAll(() => h.close());

type Line = RequestBody<"sales_invoices_create">["lines"][number];
const LINE: Line = { description: "Konsultacija", quantity: "2", unitPriceExclVat: "833.33", vatRatePercent: "21", vatClassifier: "PVM1" };
const pdfOf = async (partnerCode: string, lines: Line[] = [LINE], over: Partial<RequestBody<"sales_invoices_create">> = {}) => {
  const draft = await w.api.sales.invoices.create({ partnerCode, issueDate: "2026-03-10", lines, ...over });
  const inv = await w.api.sales.invoices.issue({ id: draft.id });
  return { inv, bytes: Buffer.from((await w.api.sales.invoices.pdf({ id: inv.id })).contentBase64, "base64") };
};
const spaced = (s: string) => s.replace(/\s+/g, " "); // the no-break space of "1 666,66" and pdf.js's item gaps as one space

describe("the document's language and number format", () => {
  // 2 × 833.33 = 1 666.66; 21 % of it = 349.9986 → 350.00; total 2 016.66.
  test("lt: Lithuanian labels only, 1 666,66 and 21 %, the total in Lithuanian words, the issuer", async () => {
    const text = spaced(await pdfText((await pdfOf("LT")).bytes));
    for (const expected of [
      "PVM SĄSKAITA FAKTŪRA",
      "Išrašymo data: 2026-03-10",
      "1 666,66",
      "21 %",
      "Iš viso",
      "2 016,66 EUR",
      "Suma žodžiais: Du tūkstančiai šešiolika eurų 66 ct",
      "Sąskaitą išrašė: Ona Onaitė, Vyr. buhalterė",
    ])
      expect(text).toContain(expected);
    for (const english of ["VAT INVOICE", "Issue date", "Amount in words", "Issued by", "2,016.66", "PVM1"]) expect(text).not.toContain(english);
  });

  test("the issuer named by the request replaces the company's on this PDF only", async () => {
    const { inv } = await pdfOf("LT");
    const asked = await w.api.sales.invoices.pdf({ id: inv.id, issuer: { name: "Jonas Jonaitis", position: "Direktorius" } });
    const text = spaced(await pdfText(Buffer.from(asked.contentBase64, "base64")));
    expect(text).toContain("Sąskaitą išrašė: Jonas Jonaitis, Direktorius");
    expect(text).not.toContain("Ona Onaitė");
    const plain = spaced(await pdfText(Buffer.from((await w.api.sales.invoices.pdf({ id: inv.id })).contentBase64, "base64")));
    expect(plain).toContain("Sąskaitą išrašė: Ona Onaitė, Vyr. buhalterė");
  });

  test("en: English labels only, 1,666.66 and 21%, the total in English words", async () => {
    const text = spaced(await pdfText((await pdfOf("EN", [{ ...LINE, vatRatePercent: "0", vatClassifier: "PVM15" }])).bytes));
    for (const expected of [
      "VAT INVOICE",
      "Issue date: 2026-03-10",
      "1,666.66",
      "0%",
      "Amount in words: One thousand six hundred sixty-six euros 66 ct",
      "Issued by: Ona Onaitė",
    ])
      expect(text).toContain(expected);
    for (const lithuanian of ["PVM SĄSKAITA", "Išrašymo data", "Suma žodžiais", "1 666,66", "apmokestinama"]) expect(text).not.toContain(lithuanian);
    // A supply outside Lithuania says why, in the document's language: not "taxable".
    expect(text).toContain("0%: supplied outside Lithuania 1,666.66");
    expect(text).toContain("Reverse charge: place of supply outside Lithuania (Art. 58(1)(2) of the Lithuanian VAT law)");
  });

  test("lt-en (the default): both, the reverse-charge heading as the law words it", async () => {
    const text = spaced(await pdfText((await pdfOf("BI", [{ ...LINE, vatRatePercent: "0", vatClassifier: "PVM25" }])).bytes));
    for (const expected of [
      "PVM SĄSKAITA FAKTŪRA / VAT INVOICE",
      "Išrašymo data / Issue date: 2026-03-10",
      "1 666,66",
      "atvirkštinis apmokestinimas / reverse charge 1 666,66",
      "Atvirkštinis apmokestinimas / Reverse charge: PVM apskaičiuoja pirkėjas pagal PVM įstatymo 96 straipsnį / VAT to be accounted for",
      "Suma žodžiais / Amount in words: Vienas tūkstantis šeši šimtai šešiasdešimt šeši eurai 66 ct / One thousand six hundred sixty-six euros 66 ct",
    ])
      expect(text).toContain(expected);
  });
});

describe("a document in another currency", () => {
  test("prints its VAT in EUR as posted, with the rate and its date", async () => {
    const { inv, bytes } = await pdfOf("LT", [{ ...LINE, quantity: "1", unitPriceExclVat: "1000" }], { currency: "USD" });
    // 210.00 USD / 1.0837 = 193.780… → 193.78 EUR, what the posting credited to 4492.
    const posted = await h
      .db("journal_entries")
      .where({ company_id: w.companyId, transaction_id: inv.journalTransactionId, account_code: "4492" })
      .sum({ credit: "credit" })
      .first();
    expect(Number(posted?.credit).toFixed(2)).toBe("193.78");
    const text = spaced(await pdfText(bytes));
    expect(text).toContain("PVM eurais: 193,78 EUR (kursas 1,0837 USD = 1 EUR, 2026-03-10)");
    expect(text).toContain("1 210,00 USD");
    expect(text).toContain("Suma žodžiais: Vienas tūkstantis du šimtai dešimt JAV dolerių 00 ct");
  });
});

describe("layout", () => {
  test("a 20-line bilingual document: page 1 renders to PNG (pdftoppm) and no two text boxes overlap", async () => {
    const lines: Line[] = Array.from({ length: 20 }, (_, i) => ({
      description: `Programavimo darbai pagal sutartį Nr. ${i + 1}, etapas „Ąžuolas“ — ilgas aprašymas, kuris netelpa į vieną eilutę`,
      quantity: String(1 + (i % 7)),
      unitPriceExclVat: (12345.6789 + i).toFixed(4),
      discountPercent: i % 3 === 0 ? "12.5" : "0",
      vatRatePercent: "21",
      vatClassifier: "PVM1",
    }));
    const { bytes } = await pdfOf("BI", lines, { notes: "Apmokėti per 14 dienų; pavėlavus skaičiuojami delspinigiai." });
    const page = renderFirstPage(bytes);
    expect(page.png.subarray(1, 4).toString()).toBe("PNG");
    expect([page.width, page.height]).toEqual([596, 842]); // A4 (595.28 × 841.89 points) at 72 dpi
    const boxes = await textBoxes(bytes, 1);
    expect(boxes.length).toBeGreaterThan(100);
    expect(overlapping(boxes).map(([a, b]) => `${a.text} × ${b.text}`)).toEqual([]);
  });

  test("the overlap check finds text printed over text", () => {
    const box = { text: "a", x: 10, y: 10, width: 40, height: 9 };
    expect(overlapping([box, { ...box, text: "b", x: 30 }])).toHaveLength(1);
    expect(overlapping([box, { ...box, text: "c", y: 19.5 }])).toHaveLength(0);
  });
});
