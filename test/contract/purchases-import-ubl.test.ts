// purchases/invoices/import-ubl and purchases/invoices/attachments/* (issue 25): a supplier's Peppol BIS Billing 3.0
// e-invoice as a purchase draft. Accepted: each of Peppol's own examples (test/fixtures/schemas/peppol/examples, their
// 2017-2018 dates moved to 2026, the years the VAT classifiers here are valid in; nothing else changed), and our own
// `sales/invoices/peppol-xml` export of one company imported by another (same lines, amounts, classifiers; its PDF
// kept byte for byte). Refused, with nothing stored: a file failing EN 16931 / Peppol rules (422 with the rule ids,
// which the official rule sets report too), an unknown supplier (422 unless createSupplier), a second import (409),
// hostile input (not base64, not XML, a DOCTYPE, another root, too large). Tenancy and scopes of the attachments.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import type { RequestBody } from "../../sdk/typescript/src/index.js";
import { ltCompanyCode } from "../support/codes.js";
import { expectApiError } from "../support/expect.js";
import { startHarness, type Harness } from "../support/harness.js";
import { keyWith } from "../support/keys.js";
import { PEPPOL_DIR, peppolFatal } from "../support/peppol.js";
import { world, type World } from "../support/world.js";

let h: Harness;
let seller: World;
let sellerXml: string;
let sellerInvoice: Awaited<ReturnType<World["api"]["sales"]["invoices"]["issue"]>>;
const SELLER_VAT = "LT100001919017";

beforeAll(async () => {
  h = await startHarness();
  seller = await world(h, {
    company: {
      name: "Pardavėjas & Co UAB",
      vatCode: SELLER_VAT,
      address: { line1: "Gedimino pr. 1", city: "Vilnius", postalCode: "LT-01103", countryCode: "LT" },
      iban: "LT121000011101001000",
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
    ],
  });
  type Line = RequestBody<"sales_invoices_create">["lines"][number];
  const lines: Line[] = [
    { description: "Konsultacija", quantity: "3", unit: "val.", unitPriceExclVat: "120.50", vatRatePercent: "21", vatClassifier: "PVM1" },
    { description: "Knyga", quantity: "2", unitPriceExclVat: "15.99", vatRatePercent: "12", vatClassifier: "PVM58" },
    { description: "Vaistai", quantity: "1.5", unit: "kg", unitPriceExclVat: "10.0050", vatRatePercent: "5", vatClassifier: "PVM3" },
    { description: "Kitas 0 % sandoris", quantity: "1", unitPriceExclVat: "40", vatRatePercent: "0", vatClassifier: "PVM14" },
  ];
  const draft = await seller.api.sales.invoices.create({ partnerCode: "PIRK", issueDate: "2026-03-10", dueDate: "2026-03-24", lines });
  sellerInvoice = await seller.api.sales.invoices.issue({ id: draft.id });
  const exported = await seller.api.sales.invoices.peppolXml({ id: sellerInvoice.id, attachPdf: true });
  sellerXml = Buffer.from(exported.contentBase64, "base64").toString("utf8");
}, 180_000);
afterAll(() => h.close());

const b64 = (text: string | Buffer) => Buffer.from(text).toString("base64");
/** The buyer: its own account, with the seller as a supplier partner (by VAT code). */
const buyer = (withSupplier = true) =>
  world(h, withSupplier ? { partners: [{ code: "PARD", name: "Pardavėjas & Co UAB", vatCode: SELLER_VAT, countryCode: "LT", isSupplier: true }] } : {});
const stored = async (w: World) => ({
  invoices: Number((await h.db("purchase_invoices").where({ company_id: w.companyId }).count({ n: "*" }))[0].n),
  lines: Number((await h.db("purchase_invoice_lines").where({ company_id: w.companyId }).count({ n: "*" }))[0].n),
  attachments: Number((await h.db("purchase_invoice_attachments").where({ company_id: w.companyId }).count({ n: "*" }))[0].n),
  partners: Number((await h.db("partners").where({ company_id: w.companyId }).count({ n: "*" }))[0].n),
});
const embeddedPdf = (xml: string) => Buffer.from(/<cbc:EmbeddedDocumentBinaryObject[^>]*>([^<]+)</.exec(xml)![1], "base64");

describe("our own export, imported by the buyer", () => {
  test("the same lines, amounts, classifiers and dates; the e-invoice and its PDF kept byte for byte; registers", async () => {
    const b = await buyer();
    const result = await b.api.purchases.invoices.importUbl({ contentBase64: b64(sellerXml) });
    const inv = result.invoice;
    expect(result.supplierCreated).toBe(false);
    expect(inv).toMatchObject({
      type: "invoice",
      status: "draft",
      partnerCode: "PARD",
      documentNumber: sellerInvoice.number,
      documentDate: "2026-03-10",
      supplyDate: "2026-03-10",
      dueDate: "2026-03-24",
      currency: "EUR",
      vatTreatment: "standard",
      netTotal: sellerInvoice.netTotal,
      vatTotal: sellerInvoice.vatTotal,
      grossTotal: sellerInvoice.grossTotal,
    });
    // Written out: 361.50 + 31.98 + 15.01 + 40.00 = 448.49; VAT 75.92 + 3.84 + 0.75 = 80.51.
    expect([inv.netTotal, inv.vatTotal, inv.grossTotal]).toEqual(["448.49", "80.51", "529.00"]);
    expect(inv.lines.map((l) => [l.description, l.quantity, l.unit, l.unitPriceExclVat, l.vatRatePercent, l.vatClassifier, l.netAmount])).toEqual([
      ["Konsultacija", "3", "val.", "120.5", "21.00", "PVM1", "361.50"],
      ["Knyga", "2", "vnt.", "15.99", "12.00", "PVM58", "31.98"],
      ["Vaistai", "1.5", "kg", "10.005", "5.00", "PVM3", "15.01"],
      ["Kitas 0 % sandoris", "1", "vnt.", "40", "0.00", "PVM14", "40.00"],
    ]);
    expect(inv.lines.map((l) => [l.netAmount, l.vatRatePercent])).toEqual(sellerInvoice.lines.map((l) => [l.netAmount, l.vatRatePercent]));
    expect(inv.vatBreakdown).toEqual(sellerInvoice.vatBreakdown);

    // The e-invoice and its embedded PDF, as kept.
    expect(result.attachments.map((a) => [a.kind, a.fileName, a.contentType, a.invoiceId])).toEqual([
      ["einvoice", `${sellerInvoice.number}.xml`, "application/xml", inv.id],
      ["embedded", expect.stringMatching(/\.pdf$/), "application/pdf", inv.id],
    ]);
    const [xmlFile, pdfFile] = await Promise.all(result.attachments.map((a) => b.api.purchases.invoices.attachments.get({ id: a.id })));
    expect(Buffer.from(xmlFile.contentBase64, "base64").equals(Buffer.from(sellerXml, "utf8"))).toBe(true);
    const pdf = embeddedPdf(sellerXml);
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(Buffer.from(pdfFile.contentBase64, "base64").equals(pdf)).toBe(true);
    expect(pdfFile.sizeBytes).toBe(pdf.length);
    const listed = await b.api.purchases.invoices.attachments.list({ filter: [{ field: "invoiceId", op: "eq", value: inv.id }] });
    expect(listed.rows.map((a) => a.id)).toEqual(result.attachments.map((a) => a.id));
    expect(await stored(b)).toEqual({ invoices: 1, lines: 4, attachments: 2, partners: 1 });

    const registered = await b.api.purchases.invoices.register({ id: inv.id });
    expect(registered).toMatchObject({ status: "registered", grossTotalEur: "529.00", outstanding: "529.00" });

    // The same document again: 409, nothing more stored.
    await expectApiError(b.api.purchases.invoices.importUbl({ contentBase64: b64(sellerXml) }), 409, "conflict", "purchase_invoice.document_number_taken");
    expect(await stored(b)).toEqual({ invoices: 1, lines: 4, attachments: 2, partners: 1 });

    // Tenancy: another account's key sees neither the attachment nor the list's rows.
    const other = await world(h);
    await expectApiError(other.api.purchases.invoices.attachments.get({ id: pdfFile.id }), 404, "not_found", "purchase_invoice_attachment.not_found");
    expect((await other.api.purchases.invoices.attachments.list({})).rows).toEqual([]);
    // A key of the buyer's account restricted to another company of it.
    const second = await b.api.account.companies.create({ name: "Antra UAB", code: ltCompanyCode(), countryCode: "LT" });
    const restricted = await keyWith(h, b.apiKey, ["purchases:read"], { companyIds: [second.id] });
    await expectApiError(h.sdk(restricted.key, b.companyId).purchases.invoices.attachments.get({ id: pdfFile.id }), 404, "not_found");
    await expectApiError(h.sdk(restricted.key, second.id).purchases.invoices.attachments.get({ id: pdfFile.id }), 404, "not_found");
  });

  test("VAT the supplier rounded otherwise (within the rules' tolerance) than once per rate: 422 ubl_totals_differ, nothing stored", async () => {
    const b = await buyer();
    const before = await stored(b);
    // 361.50 × 21 % = 75.915 → 75.92 here; the file says 75.93 (BR-CO-17 lets a difference below 1 pass).
    const xml = sellerXml
      .replace('<cbc:TaxAmount currencyID="EUR">75.92<', '<cbc:TaxAmount currencyID="EUR">75.93<')
      .replace('<cbc:TaxAmount currencyID="EUR">80.51<', '<cbc:TaxAmount currencyID="EUR">80.52<')
      .replace('<cbc:TaxInclusiveAmount currencyID="EUR">529.00<', '<cbc:TaxInclusiveAmount currencyID="EUR">529.01<')
      .replace('<cbc:PayableAmount currencyID="EUR">529.00<', '<cbc:PayableAmount currencyID="EUR">529.01<');
    expect(xml.match(/75\.93|80\.52|529\.01/g)).toHaveLength(4);
    const error = await expectApiError(
      b.api.purchases.invoices.importUbl({ contentBase64: b64(xml) }),
      422,
      "unprocessable",
      "purchase_invoice.ubl_totals_differ",
    );
    expect(error.params).toEqual({ document: { vatTotal: "80.52", grossTotal: "529.01" }, computed: { vatTotal: "80.51", grossTotal: "529.00" } });
    expect(await stored(b)).toEqual(before);
  });

  test("scopes: importing needs purchases:write; reading the attachments purchases:read", async () => {
    const b = await buyer();
    const readOnly = await keyWith(h, b.apiKey, ["purchases:read"], { companyId: b.companyId });
    await expectApiError(readOnly.api.purchases.invoices.importUbl({ contentBase64: b64(sellerXml) }), 403, "forbidden");
    expect(await stored(b)).toMatchObject({ invoices: 0, attachments: 0 });
    const salesOnly = await keyWith(h, b.apiKey, ["sales:write"], { companyId: b.companyId });
    await expectApiError(salesOnly.api.purchases.invoices.importUbl({ contentBase64: b64(sellerXml) }), 403, "forbidden");
    const writer = await keyWith(h, b.apiKey, ["purchases:write"], { companyId: b.companyId });
    const { attachments } = await writer.api.purchases.invoices.importUbl({ contentBase64: b64(sellerXml) });
    expect((await readOnly.api.purchases.invoices.attachments.get({ id: attachments[0].id })).kind).toBe("einvoice");
    await expectApiError(salesOnly.api.purchases.invoices.attachments.get({ id: attachments[0].id }), 403, "forbidden");
    await expectApiError(salesOnly.api.purchases.invoices.attachments.list({}), 403, "forbidden");
  });

  test("an unknown supplier is 422 naming it, storing nothing; with createSupplier it becomes a supplier partner", async () => {
    const b = await buyer(false);
    const before = await stored(b);
    const error = await expectApiError(
      b.api.purchases.invoices.importUbl({ contentBase64: b64(sellerXml) }),
      422,
      "unprocessable",
      "purchase_invoice.ubl_supplier_unknown",
    );
    expect(error.params).toMatchObject({ name: "Pardavėjas & Co UAB", vatCodes: [SELLER_VAT] });
    expect(await stored(b)).toEqual(before);
    const created = await b.api.purchases.invoices.importUbl({ contentBase64: b64(sellerXml), createSupplier: true });
    expect(created.supplierCreated).toBe(true);
    expect(created.invoice.partnerCode).toBe(SELLER_VAT);
    const partner = await b.api.partners.get({ code: SELLER_VAT });
    expect(partner).toMatchObject({ name: "Pardavėjas & Co UAB", vatCode: SELLER_VAT, countryCode: "LT", isSupplier: true, isCustomer: false });
    expect(partner.address).toEqual({ line1: "Gedimino pr. 1", city: "Vilnius", postalCode: "LT-01103", countryCode: "LT" });
    expect(await stored(b)).toEqual({ ...before, invoices: 1, lines: 4, attachments: 2, partners: before.partners + 1 });
  });
});

describe("files that fail the rules: 422 with the rule ids, as the official rule sets report them; nothing stored", () => {
  // `oracle`: the rules the official rule sets report too (all of ours, but R120: the compiled Peppol XSLT here reports
  // no R120 for this file, where the rule's published text — net = quantity × price ± 0.02 — fails it).
  const cases: { name: string; edit: (xml: string) => string; rules: string[]; oracle?: string[] }[] = [
    {
      name: "a total with VAT that is not the sum",
      edit: (x) => x.replace(/<cbc:TaxInclusiveAmount currencyID="EUR">529.00</, '<cbc:TaxInclusiveAmount currencyID="EUR">530.00<'),
      rules: ["BR-CO-15", "BR-CO-16"],
    },
    {
      name: "a line net amount that is not quantity × price, nor in the sums",
      edit: (x) => x.replace(/<cbc:LineExtensionAmount currencyID="EUR">361.50</, '<cbc:LineExtensionAmount currencyID="EUR">361.60<'),
      rules: ["BR-CO-10", "PEPPOL-EN16931-R120"],
      oracle: ["BR-CO-10"],
    },
    { name: "no issue date", edit: (x) => x.replace(/<cbc:IssueDate>[^<]*<\/cbc:IssueDate>/, ""), rules: ["BR-03"] },
    { name: "no business process", edit: (x) => x.replace(/<cbc:ProfileID>[^<]*<\/cbc:ProfileID>/, ""), rules: ["PEPPOL-EN16931-R001"] },
    // A day that does not exist: what the UBL schema refuses (the rule sets leave dates to it), under our own id.
    {
      name: "an issue date that does not exist",
      edit: (x) => x.replace("<cbc:IssueDate>2026-03-10<", "<cbc:IssueDate>2026-02-30<"),
      rules: ["UBL-SCHEMA"],
      oracle: [],
    },
  ];
  test.each(cases)(
    "$name",
    async ({ edit, rules, oracle }) => {
      const b = await buyer();
      const before = await stored(b);
      const broken = edit(sellerXml);
      expect(broken).not.toBe(sellerXml);
      const error = await expectApiError(
        b.api.purchases.invoices.importUbl({ contentBase64: b64(broken) }),
        422,
        "unprocessable",
        "purchase_invoice.ubl_rules_failed",
      );
      expect(error.params?.rules).toEqual(rules);
      expect(((error.params?.failures ?? []) as { rule: string }[]).map((f) => f.rule)).toEqual(expect.arrayContaining(rules));
      // The official rule sets fail the file on the same rules (the oracle; our checks are our own code).
      const expected = oracle ?? rules;
      const official = new Set(expected.length ? peppolFatal(broken).map((a) => a.id) : []);
      for (const rule of expected) expect([rule, official.has(rule)]).toEqual([rule, true]);
      expect(await stored(b)).toEqual(before);
    },
    120_000,
  );
});

describe("hostile input: 4xx, never 500, nothing stored", () => {
  const doctype = () =>
    `<?xml version="1.0"?><!DOCTYPE Invoice [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${sellerXml.replace(/^<\?xml[^>]*\?>/, "").replace("<cbc:Name>Konsultacija", "<cbc:Name>&xxe;")}`;
  const cases: { name: string; content: () => string; status: number; key: string }[] = [
    { name: "not base64", content: () => "not base64!", status: 400, key: "request.invalid" },
    { name: "not XML", content: () => b64("%PDF-1.4 hello"), status: 422, key: "purchase_invoice.ubl_unreadable" },
    {
      name: "XML that is not well-formed",
      content: () => b64('<?xml version="1.0"?><Invoice><a></Invoice>'),
      status: 422,
      key: "purchase_invoice.ubl_unreadable",
    },
    { name: "a DOCTYPE with an external entity (XXE)", content: () => b64(doctype()), status: 422, key: "purchase_invoice.ubl_unreadable" },
    {
      name: "another root element",
      content: () => b64('<?xml version="1.0"?><Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>'),
      status: 422,
      key: "purchase_invoice.ubl_unreadable",
    },
    {
      name: "an Invoice outside the UBL namespace",
      content: () => b64(sellerXml.replace("xsd:Invoice-2", "xsd:Invoice-9")),
      status: 422,
      key: "purchase_invoice.ubl_unreadable",
    },
    {
      name: "a NUL character in a text",
      content: () => b64(sellerXml.replace("<cbc:Name>Konsultacija", "<cbc:Name>Konsul\u0000tacija")),
      status: 422,
      key: "purchase_invoice.ubl_unreadable",
    },
    {
      name: "bytes that are not UTF-8",
      content: () => b64(Buffer.concat([Buffer.from(sellerXml.slice(0, 200)), Buffer.from([0xff, 0xfe, 0x00])])),
      status: 422,
      key: "purchase_invoice.ubl_unreadable",
    },
    {
      name: "nesting 100 000 deep",
      content: () => b64(`<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">${"<a>".repeat(100_000)}${"</a>".repeat(100_000)}</Invoice>`),
      status: 422,
      key: "purchase_invoice.ubl_unreadable",
    },
    {
      name: "an empty UBL Invoice",
      content: () => b64('<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"></Invoice>'),
      status: 422,
      key: "purchase_invoice.ubl_rules_failed",
    },
  ];
  test.each(cases)("$name", async ({ content, status, key }) => {
    const b = await buyer();
    const before = await stored(b);
    const res = await h.post("/v1/purchases/invoices/import-ubl", { contentBase64: content() }, b.o);
    expect([res.status, res.body.error?.key]).toEqual([status, key]);
    expect(await stored(b)).toEqual(before);
  });

  test("more lines than a purchase document holds: 422, nothing stored", async () => {
    const b = await buyer();
    const before = await stored(b);
    // The 0 % line (40.00) 497 times more: 501 lines, the sums kept right (+19 880.00).
    const zeroLine = /<cac:InvoiceLine>(?:(?!<\/cac:InvoiceLine>)[\s\S])*Kitas 0 % sandoris[\s\S]*?<\/cac:InvoiceLine>/.exec(sellerXml)![0];
    const xml = sellerXml
      .replace(zeroLine, zeroLine.repeat(498))
      .replace(/<cbc:LineExtensionAmount currencyID="EUR">448.49</, '<cbc:LineExtensionAmount currencyID="EUR">20328.49<')
      .replace(/<cbc:TaxExclusiveAmount currencyID="EUR">448.49</, '<cbc:TaxExclusiveAmount currencyID="EUR">20328.49<')
      .replace(/<cbc:TaxInclusiveAmount currencyID="EUR">529.00</, '<cbc:TaxInclusiveAmount currencyID="EUR">20409.00<')
      .replace(/<cbc:PayableAmount currencyID="EUR">529.00</, '<cbc:PayableAmount currencyID="EUR">20409.00<')
      .replace(/<cbc:TaxableAmount currencyID="EUR">40.00<\/cbc:TaxableAmount>/, '<cbc:TaxableAmount currencyID="EUR">19920.00</cbc:TaxableAmount>');
    const error = await expectApiError(
      b.api.purchases.invoices.importUbl({ contentBase64: b64(xml) }),
      422,
      "unprocessable",
      "purchase_invoice.ubl_too_many_lines",
    );
    expect(error.params).toEqual({ lines: 501, maxLines: 500 });
    expect(await stored(b)).toEqual(before);
  });

  test("a file above the limit is 413", async () => {
    const b = await buyer();
    const res = await h.post("/v1/purchases/invoices/import-ubl", { contentBase64: "A".repeat(14_200_000) }, b.o);
    expect([res.status, res.body.error?.key]).toEqual([413, "request.body_too_large"]);
    expect(await stored(b)).toMatchObject({ invoices: 0, attachments: 0 });
  });
});

describe("Peppol's own examples are accepted", () => {
  /** The example with its dates in 2026 (the classifiers' years here); nothing else changed. */
  const example = (file: string) =>
    readFileSync(join(PEPPOL_DIR, "examples", file), "utf8").replace(
      /<cbc:(IssueDate|DueDate|TaxPointDate|ActualDeliveryDate)>20\d\d-/g,
      (_all, tag: string) => `<cbc:${tag}>2026-`,
    );
  const cases = [
    // A GB supplier's own 25 % VAT is not Lithuanian input VAT: the document is exempt, its lines PVM15 and the
    // supplier's VAT one more line of the cost. Line 2 is negative: the lines of S 25 % and the charge are one line.
    {
      file: "base-example.xml",
      number: "Snippet1",
      currency: "EUR",
      treatment: "exempt",
      net: "1656.25",
      gross: "1656.25",
      lines: [
        ["PVM15", "1325.00"],
        ["PVM15", "331.25"],
      ],
      supplier: "GB1232434",
    },
    {
      file: "Vat-category-S.xml",
      number: "Snippet1",
      currency: "EUR",
      treatment: "exempt",
      net: "8550.00",
      gross: "8550.00",
      // S 25 %: 4000 + 900 + charge 200 − allowance 100 in one line; S 15 %: its line as it is; then the two VATs.
      lines: [
        ["PVM15", "5000.00"],
        ["PVM15", "2000.00"],
        ["PVM15", "1250.00"],
        ["PVM15", "300.00"],
      ],
      supplier: "GB1232434",
    },
    {
      file: "vat-category-E.xml",
      number: "Vat-Z",
      currency: "GBP",
      treatment: "exempt",
      net: "1200.00",
      gross: "1200.00",
      lines: [["PVM5", "1200.00"]],
      supplier: "GB928741974",
    },
    {
      file: "vat-category-Z.xml",
      number: "Vat-Z",
      currency: "GBP",
      treatment: "exempt",
      net: "1200.00",
      gross: "1200.00",
      lines: [["PVM14", "1200.00"]],
      supplier: "GB928741974",
    },
    {
      file: "vat-category-O.xml",
      number: "Vat-O",
      currency: "SEK",
      treatment: "exempt",
      net: "3200.00",
      gross: "3200.00",
      lines: [["PVM15", "3200.00"]],
      supplier: null,
    },
  ];
  test.each(cases)("$file", async (c) => {
    const b = await buyer(false);
    const xml = example(c.file);
    const { invoice, supplierCreated, attachments } = await b.api.purchases.invoices.importUbl({ contentBase64: b64(xml), createSupplier: true });
    expect(supplierCreated).toBe(true);
    expect(invoice).toMatchObject({
      documentNumber: c.number,
      currency: c.currency,
      vatTreatment: c.treatment,
      netTotal: c.net,
      vatTotal: "0.00",
      grossTotal: c.gross,
    });
    expect(invoice.lines.map((l) => [l.vatClassifier, l.netAmount])).toEqual(c.lines);
    expect(invoice.lines.every((l) => l.vatRatePercent === "0.00")).toBe(true);
    const partner = await b.api.partners.get({ code: invoice.partnerCode });
    expect(partner.vatCode).toBe(c.supplier);
    expect(partner.isSupplier).toBe(true);
    expect(attachments.map((a) => a.kind)).toEqual(["einvoice"]);
    const kept = await b.api.purchases.invoices.attachments.get({ id: attachments[0].id });
    expect(Buffer.from(kept.contentBase64, "base64").toString("utf8")).toBe(xml);
  });

  test("base-creditnote-correction.xml credits the registered base-example.xml", async () => {
    const b = await buyer(false);
    const { invoice } = await b.api.purchases.invoices.importUbl({ contentBase64: b64(example("base-example.xml")), createSupplier: true });
    const xml = example("base-creditnote-correction.xml");
    // Before its invoice is registered the credit note has nothing to credit.
    await expectApiError(b.api.purchases.invoices.importUbl({ contentBase64: b64(xml) }), 422, "unprocessable", "purchase_invoice.credit_target_invalid");
    await b.api.purchases.invoices.register({ id: invoice.id });
    const credit = await b.api.purchases.invoices.importUbl({ contentBase64: b64(xml) });
    expect(credit.supplierCreated).toBe(false);
    expect(credit.invoice).toMatchObject({ type: "credit_note", creditedInvoiceId: invoice.id, partnerCode: invoice.partnerCode, grossTotal: "1656.25" });
    const registered = await b.api.purchases.invoices.register({ id: credit.invoice.id });
    expect(registered.status).toBe("registered");
    expect((await b.api.purchases.invoices.get({ id: invoice.id })).outstanding).toBe("0.00");
  });
});
