// The VAT data of sales documents that the Lithuanian declarations need (issue 24, "The VAT data the declarations
// need", the sales side): the classifier agrees with the buyer (PVM13, PVM12, PVM15, PVM25) at create, update and
// issue; the domestic reverse charge on the seller's side (PVM25 at 0%: no output VAT, its wording on the PDF); the
// triangular flag; debit notes (their own series, the invoice's pairs and tax point, posted like an invoice);
// annulment (the posting reversed on the issue date, the event through the outbox, what refuses it); a company that
// is not a VAT payer (no VAT, "SĄSKAITA FAKTŪRA"); and the 2026 rate change (the rate of the supply date, the month
// of the issue date). Every refusal is a 422 (or 409) naming the field, with nothing stored.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { Decimal } from "decimal.js";
import { startHarness, type Harness } from "../support/harness.js";
import { expectApiError } from "../support/expect.js";
import type { RequestBody } from "../../sdk/typescript/src/index.js";
import { world, type World } from "../support/world.js";
import { keyWith } from "../support/keys.js";
import { ibanOf, newIban } from "../support/bank.js";
import { agreeingPackage, booksWorld } from "../support/books.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

type CreateBody = RequestBody<"sales_invoices_create">;
type Line = CreateBody["lines"][number];

const COMPANY_VAT_CODE = "LT100001919017";
const PARTNERS: RequestBody<"partners_create">[] = [
  { code: "LTVAT", name: "Pirkėjas UAB", vatCode: "LT119511515", registrationCode: "300000003", countryCode: "LT", iban: ibanOf("LT", "7044060001234567") },
  { code: "LTPRIV", name: "Jonas Jonaitis", countryCode: "LT", isPrivatePerson: true },
  { code: "DEVAT", name: "Käufer GmbH", vatCode: "DE136695976", countryCode: "DE" },
  { code: "DEPRIV", name: "Hans Müller", countryCode: "DE", isPrivatePerson: true },
  { code: "USBUY", name: "Buyer Inc.", countryCode: "US" },
  { code: "NOWHERE", name: "Be šalies UAB" },
];

/** A VAT payer (LT) with the lt-standard chart and the buyers of PARTNERS. */
const vatPayer = (over: Partial<RequestBody<"account_companies_create">> = {}) =>
  world(h, {
    company: { vatCode: COMPANY_VAT_CODE, ...over },
    partners: PARTNERS,
    items: [{ code: "KONS", name: "Konsultacija", type: "service", unit: "val.", vatRatePercent: "21", salePriceExclVat: "60" }],
  });

const line = (over: Partial<Line> = {}): Line => ({ description: "Paslauga", quantity: "1", unitPriceExclVat: "100", vatRatePercent: "21", ...over });
const zero = (vatClassifier: string, unitPriceExclVat = "1000"): Line => line({ vatRatePercent: "0", vatClassifier, unitPriceExclVat });

const rowsOf = (w: World) => h.db("sale_invoices").where({ company_id: w.companyId }).orderBy("created_at");
/** What a refused request must not have left: documents, lines, postings, series, events. */
const stored = async (w: World) => ({
  documents: (await rowsOf(w)).map((r) => `${r.type} ${r.status} ${r.number}`),
  lines: Number((await h.db("sale_invoice_lines").where({ company_id: w.companyId }).count({ n: "*" }))[0].n),
  transactions: Number((await h.db("journal_transactions").where({ company_id: w.companyId }).count({ n: "*" }))[0].n),
  series: (await h.db("number_series").where({ company_id: w.companyId })).map((s) => `${s.document_type} ${s.prefix} ${s.next_number}`).sort(),
  events: (await h.db("webhook_events").where({ company_id: w.companyId }).whereLike("event_type", "sale_invoice.%")).map((e) => e.event_type),
});
const journalOf = async (w: World, transactionId: string | null) =>
  (await h.db("journal_entries").where({ company_id: w.companyId, transaction_id: transactionId }).orderBy("line_no")).map((e) => [
    e.account_code,
    new Decimal(e.debit).toFixed(2),
    new Decimal(e.credit).toFixed(2),
  ]);
const issue = async (w: World, body: CreateBody) => w.api.sales.invoices.issue({ id: (await w.api.sales.invoices.create(body)).id });

/** The text of a PDF as pdf.js extracts it. */
async function pdfText(w: World, id: string): Promise<string> {
  const pdf = await w.api.sales.invoices.pdf({ id });
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const doc = await pdfjs.getDocument({ data: new Uint8Array(Buffer.from(pdf.contentBase64, "base64")), useSystemFonts: false }).promise;
  let text = "";
  for (let p = 1; p <= doc.numPages; p++) {
    const content = await (await doc.getPage(p)).getTextContent();
    text += `${content.items.map((i) => ("str" in i ? i.str : "")).join(" ")}\n`;
  }
  return text;
}

describe("item 1: the classifier agrees with the buyer", () => {
  // [classifier, buyer, accepted]; a refused line is the second of the draft, so the field names lines[1].
  const CASES: [string, string, boolean][] = [
    ["PVM13", "DEVAT", true],
    ["PVM13", "LTVAT", false],
    ["PVM13", "DEPRIV", false],
    ["PVM13", "USBUY", false],
    ["PVM12", "USBUY", true],
    ["PVM12", "DEVAT", false],
    ["PVM12", "LTVAT", false],
    ["PVM12", "NOWHERE", false],
    ["PVM15", "DEVAT", true],
    ["PVM15", "USBUY", true],
    ["PVM15", "DEPRIV", true],
    ["PVM15", "LTVAT", false],
    ["PVM15", "LTPRIV", false],
    ["PVM25", "LTVAT", true],
    ["PVM25", "LTPRIV", false],
    ["PVM25", "DEVAT", false],
    ["PVM14", "LTPRIV", true],
  ];
  test.each(CASES)(
    "%s to %s: accepted %s (create and issue), else 422 sale_invoice.classifier_buyer_mismatch naming lines[1].vatClassifier, nothing stored",
    async (classifier, buyer, accepted) => {
      const w = await vatPayer();
      const body: CreateBody = { partnerCode: buyer, issueDate: "2026-03-10", lines: [line(), zero(classifier)] };
      if (accepted) {
        const issued = await issue(w, body);
        expect(issued.lines.map((l) => [l.vatClassifier, l.vatRatePercent])).toEqual([
          ["PVM1", "21.00"],
          [classifier, "0.00"],
        ]);
        expect((await stored(w)).documents).toEqual(["invoice issued SF-1"]);
        return;
      }
      const error = await expectApiError(w.api.sales.invoices.create(body), 422, "unprocessable", "sale_invoice.classifier_buyer_mismatch");
      expect(Object.keys(error.fieldErrors ?? {})).toEqual(["lines[1].vatClassifier"]);
      expect(await stored(w)).toEqual({ documents: [], lines: 0, transactions: 0, series: [], events: [] });
    },
  );

  test("checked again at update: a PVM13 draft moved to a Lithuanian buyer is refused and stays as it was", async () => {
    const w = await vatPayer();
    const draft = await w.api.sales.invoices.create({ partnerCode: "DEVAT", issueDate: "2026-03-10", lines: [zero("PVM13")] });
    const error = await expectApiError(
      w.api.sales.invoices.update({ id: draft.id, partnerCode: "LTVAT" }),
      422,
      "unprocessable",
      "sale_invoice.classifier_buyer_mismatch",
    );
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["lines[0].vatClassifier"]);
    expect((await rowsOf(w)).map((r) => [r.partner_code, r.status])).toEqual([["DEVAT", "draft"]]);
  });

  test("checked again at issue, against the buyer as it is then: the buyer lost its VAT code since the draft -> 422, nothing numbered or posted", async () => {
    const w = await vatPayer();
    const draft = await w.api.sales.invoices.create({ partnerCode: "DEVAT", issueDate: "2026-03-10", lines: [zero("PVM13")] });
    const partner = (await w.api.partners.list({ filter: [{ field: "code", op: "eq", value: "DEVAT" }] })).rows[0];
    await w.api.partners.update({ id: partner.id, vatCode: null });
    const error = await expectApiError(w.api.sales.invoices.issue({ id: draft.id }), 422, "unprocessable", "sale_invoice.classifier_buyer_mismatch");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["lines[0].vatClassifier"]);
    expect(await stored(w)).toMatchObject({ documents: ["invoice draft null"], transactions: 0, series: [], events: [] });
  });
});

describe("item 2: the domestic reverse charge on the seller's side (PVM25 at 0%, Art. 96)", () => {
  test("to a Lithuanian VAT payer: stored at 0% under PVM25, posted without output VAT, the PDF says Atvirkštinis apmokestinimas and Art. 96", async () => {
    const w = await vatPayer();
    const inv = await issue(w, { partnerCode: "LTVAT", issueDate: "2026-03-10", lines: [zero("PVM25", "1000"), line({ unitPriceExclVat: "200" })] });
    expect(inv).toMatchObject({ netTotal: "1200.00", vatTotal: "42.00", grossTotal: "1242.00" });
    expect(inv.vatBreakdown).toEqual([
      { vatRatePercent: "0.00", vatClassifier: "PVM25", taxableAmount: "1000.00", vatAmount: "0.00" },
      { vatRatePercent: "21.00", vatClassifier: "PVM1", taxableAmount: "200.00", vatAmount: "42.00" },
    ]);
    const row = (await rowsOf(w))[0];
    expect(row.vat_breakdown).toEqual([
      { vatRatePercent: "0.00", vatClassifier: "PVM25", taxableAmount: "1000.00", vatAmount: "0.00" },
      { vatRatePercent: "21.00", vatClassifier: "PVM1", taxableAmount: "200.00", vatAmount: "42.00" },
    ]);
    expect((await h.db("sale_invoice_lines").where({ invoice_id: inv.id }).orderBy("line_no")).map((l) => [l.vat_classifier, l.vat_rate_percent])).toEqual([
      ["PVM25", "0.00"],
      ["PVM1", "21.00"],
    ]);
    // Output VAT only on the 21% line: 42.00 to 4492.
    expect(await journalOf(w, inv.journalTransactionId)).toEqual([
      ["2410", "1242.00", "0.00"],
      ["5000", "0.00", "1200.00"],
      ["4492", "0.00", "42.00"],
    ]);
    const text = await pdfText(w, inv.id);
    expect(text).toContain("Atvirkštinis apmokestinimas / Reverse charge");
    expect(text).toContain("96 straipsnį");
    expect(text).toContain("Art. 96");
  });

  test("PVM25 at another rate than 0% -> 422 vat_classifier.rate_mismatch naming lines[0].vatRatePercent, nothing stored", async () => {
    const w = await vatPayer();
    const error = await expectApiError(
      w.api.sales.invoices.create({ partnerCode: "LTVAT", issueDate: "2026-03-10", lines: [line({ vatClassifier: "PVM25" })] }),
      422,
      "unprocessable",
      "vat_classifier.rate_mismatch",
    );
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["lines[0].vatRatePercent"]);
    expect(await stored(w)).toEqual({ documents: [], lines: 0, transactions: 0, series: [], events: [] });
  });

  test("the buyer's other reverse-charge codes stay refused on a sale (PVM16, PVM21)", async () => {
    const w = await vatPayer();
    for (const classifier of ["PVM16", "PVM21"]) {
      await expectApiError(
        w.api.sales.invoices.create({ partnerCode: "DEVAT", issueDate: "2026-03-10", lines: [line({ vatClassifier: classifier })] }),
        422,
        "unprocessable",
        "sale_invoice.vat_classifier_not_applicable",
      );
    }
    expect((await stored(w)).documents).toEqual([]);
  });
});

describe("item 3: the triangular flag", () => {
  test("a PVM13 sale to an EU VAT payer: stored, returned, listed by it; a credit note takes it", async () => {
    const w = await vatPayer();
    const inv = await issue(w, { partnerCode: "DEVAT", issueDate: "2026-03-10", triangular: true, lines: [zero("PVM13", "800")] });
    expect(inv.triangular).toBe(true);
    await issue(w, { partnerCode: "DEVAT", issueDate: "2026-03-11", lines: [zero("PVM13", "100")] });
    expect((await rowsOf(w)).map((r) => [r.number, r.triangular])).toEqual([
      ["SF-1", true],
      ["SF-2", false],
    ]);
    const listed = await w.api.sales.invoices.list({ filter: [{ field: "triangular", op: "eq", value: true }] });
    expect(listed.rows.map((r) => [r.number, r.triangular])).toEqual([["SF-1", true]]);
    const credit = await issue(w, {
      type: "credit_note",
      creditedInvoiceId: inv.id,
      partnerCode: "DEVAT",
      issueDate: "2026-04-02",
      lines: [zero("PVM13", "100")],
    });
    expect(credit.triangular).toBe(true);
    expect((await h.db("sale_invoices").where({ id: credit.id }).first()).triangular).toBe(true);
  });

  test.each<[string, Partial<CreateBody>]>([
    ["no 0% line (PVM1 only)", { partnerCode: "DEVAT", lines: [line()] }],
    ["a 0% line that is not PVM13 (PVM14 beside PVM13)", { partnerCode: "DEVAT", lines: [zero("PVM13"), zero("PVM14")] }],
    ["PVM15 services only", { partnerCode: "DEVAT", lines: [zero("PVM15")] }],
    ["a buyer without an EU VAT code (PVM14 to a private person)", { partnerCode: "LTPRIV", lines: [zero("PVM14")] }],
  ])("triangular on %s -> 422 sale_invoice.triangular_invalid naming triangular, nothing stored", async (_name, over) => {
    const w = await vatPayer();
    const error = await expectApiError(
      w.api.sales.invoices.create({ partnerCode: "DEVAT", issueDate: "2026-03-10", lines: [line()], triangular: true, ...over }),
      422,
      "unprocessable",
      "sale_invoice.triangular_invalid",
    );
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["triangular"]);
    expect(await stored(w)).toEqual({ documents: [], lines: 0, transactions: 0, series: [], events: [] });
  });

  test("set at update, refused when the lines stop fitting; a credit note cannot change its invoice's", async () => {
    const w = await vatPayer();
    const draft = await w.api.sales.invoices.create({ partnerCode: "DEVAT", issueDate: "2026-03-10", lines: [zero("PVM13")] });
    expect((await w.api.sales.invoices.update({ id: draft.id, triangular: true })).triangular).toBe(true);
    await expectApiError(w.api.sales.invoices.update({ id: draft.id, lines: [line()] }), 422, "unprocessable", "sale_invoice.triangular_invalid");
    expect((await rowsOf(w)).map((r) => [r.triangular, r.net_total])).toEqual([[true, "1000.00"]]);
    const inv = await w.api.sales.invoices.issue({ id: draft.id });
    const error = await expectApiError(
      w.api.sales.invoices.create({
        type: "credit_note",
        creditedInvoiceId: inv.id,
        partnerCode: "DEVAT",
        issueDate: "2026-04-02",
        triangular: false,
        lines: [zero("PVM13", "10")],
      }),
      422,
      "unprocessable",
      "sale_invoice.triangular_invalid",
    );
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["triangular"]);
  });
});

describe("item 6: sale debit notes", () => {
  test("a debit note of an issued invoice: its own series DS, the invoice's tax point, posted like an invoice, in the month of its own issue date; the invoice is unchanged", async () => {
    const w = await vatPayer();
    const inv = await issue(w, {
      partnerCode: "LTVAT",
      issueDate: "2026-03-10",
      lines: [line(), line({ vatRatePercent: "12", vatClassifier: "PVM58", unitPriceExclVat: "50" })],
    });
    const debit = await issue(w, {
      type: "debit_note",
      creditedInvoiceId: inv.id,
      partnerCode: "LTVAT",
      issueDate: "2026-04-02",
      lines: [line({ unitPriceExclVat: "20" })],
    });
    expect(debit).toMatchObject({
      type: "debit_note",
      status: "issued",
      number: "DS-1",
      seriesPrefix: "DS",
      creditedInvoiceId: inv.id,
      issueDate: "2026-04-02",
      supplyDate: "2026-03-10",
      netTotal: "20.00",
      vatTotal: "4.20",
      grossTotal: "24.20",
      outstanding: "24.20",
    });
    expect(await journalOf(w, debit.journalTransactionId)).toEqual([
      ["2410", "24.20", "0.00"],
      ["5000", "0.00", "20.00"],
      ["4492", "0.00", "4.20"],
    ]);
    const [invoiceRow, debitRow] = await rowsOf(w);
    expect(debitRow).toMatchObject({ type: "debit_note", credited_invoice_id: inv.id, issue_date: "2026-04-02", supply_date: "2026-03-10", number: "DS-1" });
    expect(invoiceRow).toMatchObject({ status: "issued", credited_amount: "0.00", outstanding: "177.00" });
    expect((await stored(w)).series).toEqual(["sale_debit_note DS 2", "sale_invoice SF 2"]);
    expect((await h.db("journal_transactions").where({ id: debit.journalTransactionId }).first()).source_type).toBe("sale_debit_note");
    expect((await stored(w)).events).toEqual(["sale_invoice.issued", "sale_invoice.issued"]);
    expect(await pdfText(w, debit.id)).toContain("DEBETINĖ PVM SĄSKAITA FAKTŪRA / DEBIT NOTE");
  });

  test("a debit note of a December 2025 9% invoice issued in January 2026 keeps PVM2 at 9% (the invoice's tax point)", async () => {
    const w = await vatPayer();
    const inv = await issue(w, { partnerCode: "LTVAT", issueDate: "2025-12-15", lines: [line({ vatRatePercent: "9", vatClassifier: "PVM2" })] });
    const debit = await issue(w, {
      type: "debit_note",
      creditedInvoiceId: inv.id,
      partnerCode: "LTVAT",
      issueDate: "2026-01-12",
      lines: [line({ vatRatePercent: "9", vatClassifier: "PVM2", unitPriceExclVat: "10" })],
    });
    expect(debit).toMatchObject({ issueDate: "2026-01-12", supplyDate: "2025-12-15", vatTotal: "0.90" });
  });

  test.each<[string, (invoiceId: string, creditId: string) => Partial<CreateBody>, string, string | undefined]>([
    [
      "a rate/classifier pair the invoice does not carry (5% PVM3)",
      (id) => ({ creditedInvoiceId: id, lines: [line({ vatRatePercent: "5", vatClassifier: "PVM3" })] }),
      "sale_invoice.credit_vat_mismatch",
      "lines[0].vatRatePercent",
    ],
    ["no creditedInvoiceId", () => ({}), "sale_invoice.credit_target_invalid", undefined],
    ["a credit note as its target", (_id, creditId) => ({ creditedInvoiceId: creditId }), "sale_invoice.credit_target_invalid", undefined],
    [
      "returnToStock on a line",
      (id) => ({ creditedInvoiceId: id, lines: [line({ returnToStock: true })] }),
      "sale_invoice.return_invalid",
      "lines[0].returnToStock",
    ],
    ["a supply date of its own", (id) => ({ creditedInvoiceId: id, supplyDate: "2026-03-20" }), "sale_invoice.supply_date_invalid", "supplyDate"],
  ])("%s -> 422 naming the field, nothing stored", async (_name, over, key, field) => {
    const w = await vatPayer();
    const inv = await issue(w, { partnerCode: "LTVAT", issueDate: "2026-03-10", lines: [line()] });
    const credit = await issue(w, {
      type: "credit_note",
      creditedInvoiceId: inv.id,
      partnerCode: "LTVAT",
      issueDate: "2026-03-12",
      lines: [line({ unitPriceExclVat: "1" })],
    });
    const before = await stored(w);
    const error = await expectApiError(
      w.api.sales.invoices.create({
        type: "debit_note",
        partnerCode: "LTVAT",
        issueDate: "2026-04-02",
        lines: [line({ unitPriceExclVat: "20" })],
        ...over(inv.id, credit.id),
      }),
      422,
      "unprocessable",
      key,
    );
    if (field) expect(Object.keys(error.fieldErrors ?? {})).toEqual([field]);
    expect(await stored(w)).toEqual(before);
  });

  test("debit notes and invoices never share a prefix: a debit note numbered from SF -> 422 sale_invoice.prefix_in_use", async () => {
    const w = await vatPayer();
    const inv = await issue(w, { partnerCode: "LTVAT", issueDate: "2026-03-10", lines: [line()] });
    const error = await expectApiError(
      w.api.sales.invoices.create({
        type: "debit_note",
        creditedInvoiceId: inv.id,
        seriesPrefix: "SF",
        partnerCode: "LTVAT",
        issueDate: "2026-04-02",
        lines: [line()],
      }),
      422,
      "unprocessable",
      "sale_invoice.prefix_in_use",
    );
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["seriesPrefix"]);
  });
});

describe("item 7: annulment", () => {
  test("an unpaid, uncorrected invoice: keeps its number, its posting reversed on its issue date, annulled, nothing outstanding, sale_invoice.annulled through the outbox; idempotent", async () => {
    const w = await vatPayer();
    const inv = await issue(w, { partnerCode: "LTVAT", issueDate: "2026-03-10", lines: [line()] });
    const first = await w.api.sales.invoices.annul.withResponse({ id: inv.id }, { idempotencyKey: "annul-1" });
    const replay = await w.api.sales.invoices.annul.withResponse({ id: inv.id }, { idempotencyKey: "annul-1" });
    expect(replay.response.headers.get("x-idempotent-replay")).toBe("true");
    expect(replay.data).toEqual(first.data);
    const annulled = first.data;
    expect(annulled).toMatchObject({
      status: "annulled",
      number: "SF-1",
      outstanding: "0.00",
      grossTotal: "121.00",
      journalTransactionId: inv.journalTransactionId,
    });
    expect(annulled.annulledAt).not.toBeNull();
    const row = (await rowsOf(w))[0];
    expect(row).toMatchObject({ status: "annulled", number: "SF-1", outstanding: "0.00", annulment_transaction_id: annulled.annulmentTransactionId });
    const reversal = await h.db("journal_transactions").where({ id: annulled.annulmentTransactionId }).first();
    expect(reversal).toMatchObject({ document_type: "reversal", reverses_id: inv.journalTransactionId, reference: "SF-1" });
    expect(reversal.date).toBe("2026-03-10");
    expect(await journalOf(w, annulled.annulmentTransactionId)).toEqual([
      ["2410", "0.00", "121.00"],
      ["5000", "100.00", "0.00"],
      ["4492", "21.00", "0.00"],
    ]);
    const events = await h.db("webhook_events").where({ company_id: w.companyId }).whereLike("event_type", "sale_invoice.%").orderBy("seq");
    expect(events.map((e) => [e.event_type, e.data.status])).toEqual([
      ["sale_invoice.issued", "issued"],
      ["sale_invoice.annulled", "annulled"],
    ]);
    // One reversal, whatever the retries.
    expect(await h.db("journal_transactions").where({ company_id: w.companyId, document_type: "reversal" })).toHaveLength(1);
    expect(await pdfText(w, inv.id)).toContain("ANULIUOTA / ANNULLED");
    // Annulled for good: a second annul, a credit note against it.
    await expectApiError(w.api.sales.invoices.annul({ id: inv.id }), 409, "conflict", "sale_invoice.already_annulled");
    await expectApiError(
      w.api.sales.invoices.create({ type: "credit_note", creditedInvoiceId: inv.id, partnerCode: "LTVAT", issueDate: "2026-03-12", lines: [line()] }),
      422,
      "unprocessable",
      "sale_invoice.credit_target_invalid",
    );
    // The database keeps it as annulled.
    await expect(h.db("sale_invoices").where({ id: inv.id }).update({ status: "issued" })).rejects.toThrow(/annulled document cannot be changed/);
  });

  test("a debit note is annulled the same way", async () => {
    const w = await vatPayer();
    const inv = await issue(w, { partnerCode: "LTVAT", issueDate: "2026-03-10", lines: [line()] });
    const debit = await issue(w, {
      type: "debit_note",
      creditedInvoiceId: inv.id,
      partnerCode: "LTVAT",
      issueDate: "2026-03-20",
      lines: [line({ unitPriceExclVat: "5" })],
    });
    const annulled = await w.api.sales.invoices.annul({ id: debit.id });
    expect(annulled).toMatchObject({ status: "annulled", number: "DS-1" });
    expect((await h.db("journal_transactions").where({ id: annulled.annulmentTransactionId }).first()).date).toBe("2026-03-20");
  });

  test("refused with 409 naming why, nothing changed: a draft, a paid invoice, a credited one, a credit note, one that took stock, a locked month", async () => {
    const w = await world(h, {
      company: { vatCode: COMPANY_VAT_CODE },
      partners: PARTNERS,
      items: [{ code: "PREKE", name: "Prekė", type: "product", unit: "vnt.", vatRatePercent: "21", salePriceExclVat: "10" }],
      warehouses: [{ code: "CENTR", name: "Centrinis sandėlis" }],
      bankAccounts: [{ name: "Swedbank EUR", iban: newIban(), bic: "HABALT22" }],
    });
    const draft = await w.api.sales.invoices.create({ partnerCode: "LTVAT", issueDate: "2026-03-10", lines: [line()] });
    const paid = await issue(w, { partnerCode: "LTVAT", issueDate: "2026-03-10", lines: [line()] });
    await w.api.bank.transactions.import({
      bankAccountId: w.bankAccounts[0].id,
      transactions: [{ bookingDate: "2026-03-20", amount: "121.00", bankReference: "PAY-1" }],
    });
    const [tx] = (await w.api.bank.transactions.list({})).rows;
    await w.api.bank.transactions.match({ transactionId: tx.id, allocations: [{ saleInvoiceId: paid.id, amount: "121.00" }] });
    const credited = await issue(w, { partnerCode: "LTVAT", issueDate: "2026-03-10", lines: [line()] });
    const credit = await issue(w, {
      type: "credit_note",
      creditedInvoiceId: credited.id,
      partnerCode: "LTVAT",
      issueDate: "2026-03-11",
      lines: [line({ unitPriceExclVat: "10" })],
    });
    await w.api.inventory.stock.receive({
      warehouseCode: "CENTR",
      date: "2026-03-01",
      counterAccountCode: "4430",
      lines: [{ itemCode: "PREKE", quantity: "5", unitCost: "4" }],
    });
    const goods = await issue(w, { partnerCode: "LTVAT", issueDate: "2026-03-10", lines: [{ itemCode: "PREKE", quantity: "2" }] });
    const locked = await issue(w, { partnerCode: "LTVAT", issueDate: "2026-02-10", lines: [line()] });
    await w.api.ledger.periods.lock({ month: "2026-02" });
    const before = { rows: await rowsOf(w), transactions: (await stored(w)).transactions };
    for (const [id, status, key] of [
      [draft.id, 409, "sale_invoice.not_issued"],
      [paid.id, 409, "sale_invoice.annul_paid"],
      [credited.id, 409, "sale_invoice.annul_credited"],
      [credit.id, 409, "sale_invoice.annul_credit_note"],
      [goods.id, 409, "sale_invoice.annul_stock_taken"],
      [locked.id, 409, "period.locked"],
    ] as const) {
      await expectApiError(w.api.sales.invoices.annul({ id }), status, "conflict", key);
    }
    await expectApiError(w.api.sales.invoices.annul({ id: "00000000-0000-4000-8000-000000000000" }), 404, "not_found", "sale_invoice.not_found");
    expect({ rows: await rowsOf(w), transactions: (await stored(w)).transactions }).toEqual(before);
    expect((await stored(w)).events.filter((e) => e === "sale_invoice.annulled")).toEqual([]);
  });

  test("an open invoice imported with the historical books -> 409 sale_invoice.annul_migrated (its posting is the opening balance), nothing changed", async () => {
    const b = await booksWorld(h);
    await b.api.account.companies.update({ id: b.companyId, vatCode: COMPANY_VAT_CODE });
    await b.api.migration.books.import(agreeingPackage());
    const [imported] = await h.db("sale_invoices").where({ company_id: b.companyId, migrated: true }).orderBy("number");
    const before = await h.db("journal_transactions").where({ company_id: b.companyId });
    await expectApiError(b.api.sales.invoices.annul({ id: imported.id }), 409, "conflict", "sale_invoice.annul_migrated");
    expect((await h.db("sale_invoices").where({ id: imported.id }).first()).status).toBe(imported.status);
    expect(await h.db("journal_transactions").where({ company_id: b.companyId })).toEqual(before);
  });

  test("scope: annul needs sales:write", async () => {
    const w = await vatPayer();
    const inv = await issue(w, { partnerCode: "LTVAT", issueDate: "2026-03-10", lines: [line()] });
    const reader = await keyWith(h, w.apiKey, ["sales:read"], { companyId: w.companyId });
    await expectApiError(reader.api.sales.invoices.annul({ id: inv.id }), 403, "forbidden");
    expect((await rowsOf(w))[0].status).toBe("issued");
    const other = await vatPayer();
    await expectApiError(other.api.sales.invoices.annul({ id: inv.id }), 404, "not_found", "sale_invoice.not_found");
  });
});

describe("item 8: a company that is not a VAT payer (no vatCode)", () => {
  const notPayer = () =>
    world(h, {
      partners: PARTNERS,
      items: [{ code: "KONS", name: "Konsultacija", type: "service", unit: "val.", vatRatePercent: "21", salePriceExclVat: "60" }],
    });

  test.each<[string, Line, string]>([
    ["a 21% rate", line(), "lines[0].vatRatePercent"],
    ["a classifier at 0%", zero("PVM5"), "lines[0].vatClassifier"],
  ])("%s -> 422 sale_invoice.company_not_vat_payer naming %s, nothing stored", async (_name, l, field) => {
    const w = await notPayer();
    const error = await expectApiError(
      w.api.sales.invoices.create({ partnerCode: "LTVAT", issueDate: "2026-03-10", lines: [l] }),
      422,
      "unprocessable",
      "sale_invoice.company_not_vat_payer",
    );
    expect(Object.keys(error.fieldErrors ?? {})).toEqual([field]);
    expect(await stored(w)).toEqual({ documents: [], lines: 0, transactions: 0, series: [], events: [] });
  });

  test("its lines take no VAT (an item's 21% becomes 0, no classifier); posted without VAT; the PDF says SĄSKAITA FAKTŪRA, no VAT column or total", async () => {
    const w = await notPayer();
    const inv = await issue(w, {
      partnerCode: "LTVAT",
      issueDate: "2026-03-10",
      lines: [
        { itemCode: "KONS", quantity: "2" },
        { description: "Kelionė", quantity: "1", unitPriceExclVat: "30", vatRatePercent: "0" },
      ],
    });
    expect(inv).toMatchObject({ netTotal: "150.00", vatTotal: "0.00", grossTotal: "150.00", vatBreakdown: [] });
    expect(inv.lines.map((l) => [l.vatRatePercent, l.vatClassifier])).toEqual([
      ["0.00", null],
      ["0.00", null],
    ]);
    expect((await h.db("sale_invoice_lines").where({ invoice_id: inv.id }).orderBy("line_no")).map((l) => [l.vat_rate_percent, l.vat_classifier])).toEqual([
      ["0.00", null],
      ["0.00", null],
    ]);
    expect(await journalOf(w, inv.journalTransactionId)).toEqual([
      ["2410", "150.00", "0.00"],
      ["5000", "0.00", "150.00"],
    ]);
    const text = await pdfText(w, inv.id);
    expect(text).toContain("SĄSKAITA FAKTŪRA / INVOICE");
    expect(text).not.toContain("PVM SĄSKAITA");
    expect(text).not.toContain("PVM %");
    expect(text).not.toContain("PVM / VAT");
  });

  test("checked again at issue: a draft with VAT written while the company was a VAT payer, issued after its VAT code was removed -> 422, nothing posted", async () => {
    const w = await vatPayer();
    const draft = await w.api.sales.invoices.create({ partnerCode: "LTVAT", issueDate: "2026-03-10", lines: [line()] });
    await w.api.account.companies.update({ id: w.companyId, vatCode: null });
    const error = await expectApiError(w.api.sales.invoices.issue({ id: draft.id }), 422, "unprocessable", "sale_invoice.company_not_vat_payer");
    expect(Object.keys(error.fieldErrors ?? {}).sort()).toEqual(["lines[0].vatClassifier", "lines[0].vatRatePercent"]);
    expect(await stored(w)).toMatchObject({ documents: ["invoice draft null"], transactions: 0, series: [] });
  });
});

describe("the 2026 rate change: the rate of the supply date, the month of the issue date", () => {
  test("a December 2025 supply invoiced on 2026-01-05: 9% PVM2 accepted, 12% PVM58 refused; stored and posted on the issue date (January), supply date kept for VATPointDate", async () => {
    const w = await vatPayer();
    const body = (l: Line): CreateBody => ({ partnerCode: "LTVAT", issueDate: "2026-01-05", supplyDate: "2025-12-20", lines: [l] });
    const error = await expectApiError(
      w.api.sales.invoices.create(body(line({ vatRatePercent: "12", vatClassifier: "PVM58" }))),
      422,
      "unprocessable",
      "vat_classifier.not_valid_on_date",
    );
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["lines[0].vatClassifier"]);
    expect(await stored(w)).toEqual({ documents: [], lines: 0, transactions: 0, series: [], events: [] });

    const inv = await issue(w, body(line({ vatRatePercent: "9", vatClassifier: "PVM2", unitPriceExclVat: "300" })));
    expect(inv).toMatchObject({ issueDate: "2026-01-05", supplyDate: "2025-12-20", vatTotal: "27.00", grossTotal: "327.00" });
    expect((await rowsOf(w))[0]).toMatchObject({ issue_date: "2026-01-05", supply_date: "2025-12-20" });
    const posting = await h.db("journal_transactions").where({ id: inv.journalTransactionId }).first();
    expect(posting.date).toBe("2026-01-05");
    expect(await journalOf(w, inv.journalTransactionId)).toEqual([
      ["2410", "327.00", "0.00"],
      ["5000", "0.00", "300.00"],
      ["4492", "0.00", "27.00"],
    ]);
    // Declared in January (the month of InvoiceDate), with the supply date as VATPointDate; not in December.
    const january = Buffer.from((await w.api.declarations.lt.isaf.generate({ period: "2026-01", dataType: "S" })).contentBase64, "base64").toString();
    expect(january).toContain("<InvoiceNo>SF-1</InvoiceNo>");
    expect(january).toContain("<VATPointDate>2025-12-20</VATPointDate>");
    expect(january).toMatch(/<TaxCode>PVM2<\/TaxCode>\s*<TaxPercentage>9(\.00)?<\/TaxPercentage>/);
    const december = Buffer.from((await w.api.declarations.lt.isaf.generate({ period: "2025-12", dataType: "S" })).contentBase64, "base64").toString();
    expect(december).not.toContain("SF-1");
  });
});
