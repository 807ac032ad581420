// sales/invoices/peppol-xml (issue 25): every e-invoice the product exports here passes the official CEN EN 16931 and
// Peppol BIS Billing 3.0 rule sets (test/support/peppol.ts, run on the file as the API returned it) — a domestic
// invoice at 21, 12 and 5 %, a credit note, intra-Community goods, an EU service under reverse charge, a domestic
// reverse charge, an export, an exempt supply, a USD invoice (with its VAT in EUR as posted) — and carries what the
// document says: its number, parties, endpoints, subtotals per category and totals, read back from the XML and
// compared with values written here by hand. Refusals: a draft (409), a buyer without an address Peppol knows (422),
// another tenant's invoice (404).
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { XMLParser } from "fast-xml-parser";
import type { RequestBody } from "../../sdk/typescript/src/index.js";
import { expectApiError } from "../support/expect.js";
import { startHarness, type Harness } from "../support/harness.js";
import { peppolFatal } from "../support/peppol.js";
import { world, type World } from "../support/world.js";

let h: Harness;
let w: World;
beforeAll(async () => {
  h = await startHarness();
  w = await world(h, {
    company: {
      name: "Pardavėjas & Co UAB",
      vatCode: "LT100001919017",
      address: { line1: "Gedimino pr. 1", city: "Vilnius", postalCode: "LT-01103", countryCode: "LT" },
      iban: "LT121000011101001000",
      email: "saskaitos@pardavejas.lt",
    },
    partners: [
      {
        code: "PIRK",
        name: "Pirkėjas UAB",
        vatCode: "LT212154314",
        registrationCode: "121215434",
        countryCode: "LT",
        address: { line1: "Laisvės al. 10", city: "Kaunas", postalCode: "LT-44001", countryCode: "LT" },
      },
      {
        code: "DEBUY",
        name: "Käufer <GmbH>",
        vatCode: "DE136695976",
        countryCode: "DE",
        address: { line1: "Hauptstr. 5", city: "Berlin", postalCode: "10115", countryCode: "DE" },
      },
      {
        code: "GBBUY",
        name: "Buyer Ltd",
        vatCode: "GB980780684",
        countryCode: "GB",
        address: { line1: "1 High St", city: "London", postalCode: "EC1A 1AA", countryCode: "GB" },
      },
      { code: "USBUY", name: "Buyer Inc.", countryCode: "US" },
    ],
  });
  await w.api.reference.exchangeRates.set({ currency: "USD", date: "2026-03-10", rate: "1.0837" });
}, 120_000);
afterAll(() => h.close());

type Line = RequestBody<"sales_invoices_create">["lines"][number];
const line = (vatClassifier: string, unitPriceExclVat: string, vatRatePercent = "0", over: Partial<Line> = {}): Line => ({
  description: `Prekė ${vatClassifier}`,
  quantity: "1",
  unitPriceExclVat,
  vatRatePercent,
  vatClassifier,
  ...over,
});
const issue = async (partnerCode: string, lines: Line[], over: Partial<RequestBody<"sales_invoices_create">> = {}) => {
  const draft = await w.api.sales.invoices.create({ partnerCode, issueDate: "2026-03-10", lines, ...over });
  return w.api.sales.invoices.issue({ id: draft.id });
};

const parser = new XMLParser({
  ignoreAttributes: false,
  parseTagValue: false,
  parseAttributeValue: false,
  attributeNamePrefix: "@",
  removeNSPrefix: true,
  isArray: (name) => ["TaxSubtotal", "InvoiceLine", "CreditNoteLine", "TaxTotal"].includes(name),
});
interface Exported {
  xml: string;
  doc: Record<string, any>;
}
async function exported(id: string, attachPdf = false): Promise<Exported> {
  const file = await w.api.sales.invoices.peppolXml({ id, attachPdf });
  expect(file.contentType).toBe("application/xml");
  const xml = Buffer.from(file.contentBase64, "base64").toString("utf8");
  const parsed = parser.parse(xml);
  return { xml, doc: parsed.Invoice ?? parsed.CreditNote };
}
const text = (node: any): string => (typeof node === "object" ? String(node["#text"]) : String(node));
const subtotals = (doc: Record<string, any>) =>
  doc.TaxTotal[0].TaxSubtotal.map((s: any) => ({
    category: s.TaxCategory.ID,
    percent: s.TaxCategory.Percent === undefined ? null : text(s.TaxCategory.Percent),
    taxable: text(s.TaxableAmount),
    vat: text(s.TaxAmount),
    reason: s.TaxCategory.TaxExemptionReasonCode ?? null,
  }));

describe("Peppol BIS 3.0 export passes the official rules", () => {
  test("a domestic invoice at 21, 12 and 5 %: subtotals per rate, the company code as endpoint, IBAN for payment", async () => {
    const inv = await issue("PIRK", [
      line("PVM1", "100", "21", { quantity: "2" }),
      line("PVM58", "50", "12"),
      line("PVM3", "10.5", "5", { quantity: "3", discountPercent: "10" }),
    ]);
    const { xml, doc } = await exported(inv.id);
    expect(peppolFatal(xml)).toEqual([]);
    expect(text(doc.ID)).toBe(inv.number);
    expect(text(doc.InvoiceTypeCode)).toBe("380");
    expect(doc.AccountingSupplierParty.Party.EndpointID).toMatchObject({ "@schemeID": "0200" });
    expect(doc.AccountingCustomerParty.Party.EndpointID).toEqual({ "#text": "121215434", "@schemeID": "0200" });
    expect(text(doc.PaymentMeans.PayeeFinancialAccount.ID)).toBe("LT121000011101001000");
    // 200 × 21 % = 42.00; 50 × 12 % = 6.00; 3 × 10.5 × 0.9 = 28.35, × 5 % = 1.4175 → 1.42.
    expect(subtotals(doc)).toEqual([
      { category: "S", percent: "5.00", taxable: "28.35", vat: "1.42", reason: null },
      { category: "S", percent: "12.00", taxable: "50.00", vat: "6.00", reason: null },
      { category: "S", percent: "21.00", taxable: "200.00", vat: "42.00", reason: null },
    ]);
    expect(text(doc.LegalMonetaryTotal.TaxInclusiveAmount)).toBe("327.77");
    expect(doc.InvoiceLine.map((l: any) => text(l.Price.PriceAmount))).toEqual(["100", "50", "9.45"]);
  }, 240_000);

  test("a credit note is a CreditNote referring to the invoice it credits", async () => {
    const inv = await issue("PIRK", [line("PVM1", "100", "21")]);
    const draft = await w.api.sales.invoices.create({
      partnerCode: "PIRK",
      type: "credit_note",
      issueDate: "2026-03-12",
      creditedInvoiceId: inv.id,
      lines: [line("PVM1", "40", "21")],
    });
    const credit = await w.api.sales.invoices.issue({ id: draft.id });
    const { xml, doc } = await exported(credit.id);
    expect(peppolFatal(xml)).toEqual([]);
    expect(text(doc.CreditNoteTypeCode)).toBe("381");
    expect(text(doc.BillingReference.InvoiceDocumentReference.ID)).toBe(inv.number);
    expect(subtotals(doc)).toEqual([{ category: "S", percent: "21.00", taxable: "40.00", vat: "8.40", reason: null }]);
    expect(text(doc.LegalMonetaryTotal.PayableAmount)).toBe("48.40");
  }, 240_000);

  test("intra-Community goods (K) and an EU service under reverse charge (AE) to a German VAT payer, by its VAT code", async () => {
    const inv = await issue("DEBUY", [line("PVM13", "1000"), line("PVM15", "250", "0", { description: "Konsultacija" })]);
    const { xml, doc } = await exported(inv.id);
    expect(peppolFatal(xml)).toEqual([]);
    expect(doc.AccountingCustomerParty.Party.EndpointID).toEqual({ "#text": "DE136695976", "@schemeID": "9930" });
    expect(doc.AccountingCustomerParty.Party.PartyLegalEntity.RegistrationName).toBe("Käufer <GmbH>");
    expect(xml).toContain("Käufer &lt;GmbH&gt;");
    expect(doc.Delivery.DeliveryLocation.Address.Country.IdentificationCode).toBe("DE");
    expect(subtotals(doc)).toEqual([
      { category: "K", percent: "0.00", taxable: "1000.00", vat: "0.00", reason: "VATEX-EU-IC" },
      { category: "AE", percent: "0.00", taxable: "250.00", vat: "0.00", reason: "VATEX-EU-AE" },
    ]);
  }, 240_000);

  test("a domestic reverse charge (PVM25) is AE; an export (PVM12) and a service outside the EU (PVM15) are G; an exempt supply (PVM5) is E", async () => {
    const reverse = await issue("PIRK", [line("PVM25", "500", "0", { description: "Statybos darbai" })]);
    const exported1 = await exported(reverse.id);
    expect(peppolFatal(exported1.xml)).toEqual([]);
    expect(subtotals(exported1.doc)).toEqual([{ category: "AE", percent: "0.00", taxable: "500.00", vat: "0.00", reason: "VATEX-EU-AE" }]);

    const exportSale = await issue("GBBUY", [line("PVM12", "300"), line("PVM15", "200", "0", { description: "Service" })]);
    const exported2 = await exported(exportSale.id);
    expect(peppolFatal(exported2.xml)).toEqual([]);
    expect(exported2.doc.AccountingCustomerParty.Party.EndpointID).toEqual({ "#text": "GB980780684", "@schemeID": "9932" });
    expect(subtotals(exported2.doc)).toEqual([{ category: "G", percent: "0.00", taxable: "500.00", vat: "0.00", reason: "VATEX-EU-G" }]);

    const exempt = await issue("PIRK", [line("PVM5", "80")]);
    const exported3 = await exported(exempt.id);
    expect(peppolFatal(exported3.xml)).toEqual([]);
    expect(subtotals(exported3.doc)).toEqual([{ category: "E", percent: "0.00", taxable: "80.00", vat: "0.00", reason: null }]);
  }, 240_000);

  test("a USD invoice carries its VAT in EUR as posted (BT-111) and the PDF when asked", async () => {
    const inv = await issue("PIRK", [line("PVM1", "1000", "21")], { currency: "USD" });
    const { xml, doc } = await exported(inv.id, true);
    expect(peppolFatal(xml)).toEqual([]);
    expect(doc.DocumentCurrencyCode).toBe("USD");
    expect(doc.TaxCurrencyCode).toBe("EUR");
    const vatEur = doc.TaxTotal.find((t: any) => t.TaxAmount["@currencyID"] === "EUR");
    // What the posting credited to 4492: 210 USD / 1.0837 = 193.7806… → 193.78 (read from the journal here).
    const posted = await h
      .db("journal_entries")
      .where({ company_id: w.companyId, transaction_id: inv.journalTransactionId, account_code: "4492" })
      .sum({ credit: "credit" })
      .first();
    expect(text(vatEur.TaxAmount)).toBe(Number(posted?.credit).toFixed(2));
    expect(text(vatEur.TaxAmount)).toBe("193.78");
    const attachment = doc.AdditionalDocumentReference.Attachment.EmbeddedDocumentBinaryObject;
    expect(attachment["@mimeCode"]).toBe("application/pdf");
    expect(Buffer.from(text(attachment), "base64").subarray(0, 5).toString()).toBe("%PDF-");
  }, 240_000);
});

describe("refusals", () => {
  test("a draft has no e-invoice: 409 sale_invoice.not_issued", async () => {
    const draft = await w.api.sales.invoices.create({ partnerCode: "PIRK", issueDate: "2026-03-10", lines: [line("PVM1", "10", "21")] });
    await expectApiError(w.api.sales.invoices.peppolXml({ id: draft.id }), 409, "conflict", "sale_invoice.not_issued");
  });

  test("a buyer with neither a Lithuanian company code nor a VAT code Peppol knows: 422 peppol.endpoint_unknown naming it", async () => {
    const inv = await issue("USBUY", [line("PVM12", "100")]);
    const error = await expectApiError(w.api.sales.invoices.peppolXml({ id: inv.id }), 422, "unprocessable", "peppol.endpoint_unknown");
    expect(error.params).toEqual({ party: "The buyer USBUY" });
  });

  test("a buyer's own Peppol id (partner peppolId) is its EndpointID, also where none could be derived; removed, the derived one is back", async () => {
    // USBUY has neither a Lithuanian company code nor a VAT code Peppol knows: with its GLN it can receive.
    const partner = await w.api.partners.get({ code: "USBUY" });
    await w.api.partners.update({ id: partner.id, peppolId: "0088:7300010000001" });
    const inv = await issue("USBUY", [line("PVM12", "100")]);
    const { xml, doc } = await exported(inv.id);
    expect(peppolFatal(xml)).toEqual([]);
    expect(doc.AccountingCustomerParty.Party.EndpointID).toEqual({ "#text": "7300010000001", "@schemeID": "0088" });
    const pirk = await w.api.partners.get({ code: "PIRK" });
    await w.api.partners.update({ id: pirk.id, peppolId: "9937:LT212154314" });
    const domestic = await issue("PIRK", [line("PVM1", "10", "21")]);
    expect((await exported(domestic.id)).doc.AccountingCustomerParty.Party.EndpointID).toEqual({ "#text": "LT212154314", "@schemeID": "9937" });
    await w.api.partners.update({ id: pirk.id, peppolId: null });
    expect((await exported(domestic.id)).doc.AccountingCustomerParty.Party.EndpointID).toEqual({ "#text": "121215434", "@schemeID": "0200" });
    await w.api.partners.update({ id: partner.id, peppolId: null });
  }, 120_000);

  test("another tenant's invoice is not found", async () => {
    const inv = await issue("PIRK", [line("PVM1", "10", "21")]);
    const other = await world(h, { chart: false });
    await expectApiError(other.api.sales.invoices.peppolXml({ id: inv.id }), 404, "not_found", "sale_invoice.not_found");
  });
});
