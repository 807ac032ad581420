// sales/invoices: drafts (defaults, rules, drafts-only edits), EN 16931 totals (half-up, per rate, the breakdown's
// rounding cent), the tax point (supplyDate) and credit notes at their invoice's, numbers unique across invoices and
// credit notes, issue (gapless numbers under concurrency, the exact journal each document posts, what it checks
// again, partner snapshot, locked months, foreign currency), the events and their deliveries, list (overdue by the
// database's date), PDF text, tenancy and scopes, idempotent issue, and a property: on a fresh company per run,
// every issued document's posting balances, its receivable is its gross in EUR, and refusals leave nothing behind.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { Decimal } from "decimal.js";
import { startHarness, type Harness } from "../support/harness.js";
import { expectApiError, invalid, settle } from "../support/expect.js";
import type { AccountingApi, RequestBody, ResponseData } from "../../sdk/typescript/src/index.js";
import { world, type World } from "../support/world.js";
import { UUID } from "../support/patterns.js";
import { TEST_TIMEOUT_MS } from "../support/timing.js";
import pg from "pg";
import { waitForLockWaiters } from "../support/db-waits.js";

let h: Harness;
beforeAll(async () => {
  // Private webhook URLs: a subscription to 127.0.0.1 records deliveries (nothing is sent: no worker runs here).
  h = await startHarness({ config: { webhookAllowPrivateUrls: true } });
});
afterAll(() => h.close());

type CreateBody = RequestBody<"sales_invoices_create">;
type ListBody = RequestBody<"sales_invoices_list">;
type Filter = NonNullable<ListBody["filter"]>[number];
type Invoice = ResponseData<"sales_invoices_get">;

const ADDRESS = { line1: "Gedimino pr. 1", city: "Vilnius", postalCode: "LT-01103", countryCode: "LT" };

/** A tenant with the lt-standard chart, a customer PIRKEJAS (14-day term), a supplier-only partner and two items. */
const salesWorld = () =>
  world(h, {
    company: { vatCode: "LT100001919017", address: ADDRESS },
    partners: [
      {
        name: "Šiaurės žuvėdra UAB",
        code: "PIRKEJAS",
        vatCode: "LT119511515",
        registrationCode: "300000003",
        countryCode: "LT",
        address: { line1: "Ąžuolų g. 7", city: "Kaunas", postalCode: "LT-44001", countryCode: "LT" },
        paymentTermDays: 14,
      },
      { name: "Tiekėjas UAB", code: "TIEKEJAS", isCustomer: false, isSupplier: true },
    ],
    items: [
      { code: "KONS", name: "Konsultacija", type: "service", unit: "val.", vatRatePercent: "21", salePriceExclVat: "60" },
      { code: "NOPRICE", name: "Be kainos", type: "product", unit: "vnt.", vatRatePercent: "21" },
    ],
  });

const line = (over: Record<string, unknown> = {}) => ({ description: "Paslauga", quantity: "1", unitPriceExclVat: "100", vatRatePercent: "21", ...over });
const draft = (w: World, over: Record<string, unknown> = {}) =>
  w.api.sales.invoices.create({ partnerCode: "PIRKEJAS", issueDate: "2026-03-10", lines: [line()], ...over });
const issued = async (w: World, over: Record<string, unknown> = {}) => w.api.sales.invoices.issue({ id: (await draft(w, over)).id });

/** The text of a PDF as pdf.js extracts it, page by page. */
async function pdfText(bytes: Buffer): Promise<string> {
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  let text = "";
  for (let p = 1; p <= doc.numPages; p++) {
    const content = await (await doc.getPage(p)).getTextContent();
    text += `${content.items.map((i: any) => ("str" in i ? i.str : "")).join(" ")}\n`;
  }
  return text;
}

const invoiceEvents = async (w: World) =>
  (await h.db("webhook_events").where({ company_id: w.companyId }).whereLike("event_type", "sale_invoice.%").orderBy("seq")).map((e) => [e.event_type, e.data]);
const invoiceRows = (w: World) => h.db("sale_invoices").where({ company_id: w.companyId });
const journalOf = async (w: World, transactionId: string | null) => {
  const entries = await h.db("journal_entries").where({ company_id: w.companyId, transaction_id: transactionId }).orderBy("line_no");
  return entries.map((e) => ({
    account: e.account_code,
    debit: new Decimal(e.debit).toFixed(2),
    credit: new Decimal(e.credit).toFixed(2),
    partner: e.partner_code,
    currency: e.currency,
    currencyAmount: e.currency_amount === null ? null : new Decimal(e.currency_amount).toFixed(2),
  }));
};
const E = (
  account: string,
  debit: string,
  credit: string,
  partner: string | null = null,
  currency: string | null = null,
  currencyAmount: string | null = null,
) => ({
  account,
  debit,
  credit,
  partner,
  currency,
  currencyAmount,
});

describe("create (draft)", () => {
  test("a draft has the defaults — due date from the partner's term, EUR, series SF, classifier PVM1 — no number and nothing posted", async () => {
    const w = await salesWorld();
    const body = await draft(w, {
      lines: [line({ itemCode: "KONS", description: undefined, unitPriceExclVat: undefined, vatRatePercent: undefined, quantity: "2.5" })],
    });
    expect(body).toEqual({
      id: expect.stringMatching(UUID),
      type: "invoice",
      status: "draft",
      number: null,
      seriesPrefix: "SF",
      partnerCode: "PIRKEJAS",
      partner: {
        code: "PIRKEJAS",
        name: "Šiaurės žuvėdra UAB",
        vatCode: "LT119511515",
        registrationCode: "300000003",
        countryCode: "LT",
        address: { line1: "Ąžuolų g. 7", city: "Kaunas", postalCode: "LT-44001", countryCode: "LT" },
        isPrivatePerson: false,
      },
      issueDate: "2026-03-10",
      supplyDate: "2026-03-10",
      dueDate: "2026-03-24",
      currency: "EUR",
      rate: null,
      creditedInvoiceId: null,
      triangular: false,
      notes: null,
      netTotal: "150.00",
      vatTotal: "31.50",
      grossTotal: "181.50",
      grossTotalEur: null,
      vatBreakdown: [{ vatRatePercent: "21.00", vatClassifier: "PVM1", taxableAmount: "150.00", vatAmount: "31.50" }],
      paidAmount: "0.00",
      creditedAmount: "0.00",
      outstanding: "0.00",
      journalTransactionId: null,
      annulledAt: null,
      annulmentTransactionId: null,
      sentAt: null,
      lastSendStatus: null,
      lines: [
        {
          lineNo: 1,
          itemCode: "KONS",
          description: "Konsultacija",
          quantity: "2.5",
          unit: "val.",
          unitPriceExclVat: "60",
          discountPercent: "0.00",
          vatRatePercent: "21.00",
          vatClassifier: "PVM1",
          revenueAccountCode: null,
          warehouseCode: null,
          lotNumber: null,
          serials: null,
          returnToStock: false,
          netAmount: "150.00",
        },
      ],
      issuedAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const [row] = await invoiceRows(w);
    expect(row).toMatchObject({ id: body.id, status: "draft", number: null, journal_transaction_id: null, gross_total: "181.50", supply_date: null });
    expect(await h.db("journal_transactions").where({ company_id: w.companyId })).toHaveLength(0);
  });

  test("the draft as created is the draft as read back; its audit record commits with it, and a refused create writes neither", async () => {
    const w = await salesWorld();
    const body = await draft(w, {
      notes: "Ąčę",
      lines: [
        line({ quantity: "1.5", unitPriceExclVat: "19.9999", discountPercent: "2.5" }),
        line({ itemCode: "KONS", description: undefined, unitPriceExclVat: undefined, vatRatePercent: undefined }),
      ],
    });
    expect(await w.api.sales.invoices.get({ id: body.id })).toEqual(body);
    const audit = await h.db("audit_log").where({ company_id: w.companyId, operation: "sales.invoices.create" });
    expect(audit.map((a) => [a.target_ids, a.summary])).toEqual([[[body.id], {}]]);
    await expectApiError(
      w.api.sales.invoices.create({ partnerCode: "NERA", issueDate: "2026-03-10", lines: [line()] }),
      422,
      "unprocessable",
      "sale_invoice.partner_unknown",
    );
    expect(await h.db("audit_log").where({ company_id: w.companyId, operation: "sales.invoices.create" })).toHaveLength(1);
    expect(await invoiceRows(w)).toHaveLength(1);
  });

  // Totals as EN 16931 computes them: line nets rounded to cents, VAT once per rate on their sum.
  test.each([
    [
      "VAT per rate, not per line: 3 × 0.07 at 21% is 0.04 VAT (per line it would be 3 × 0.01)",
      [line({ unitPriceExclVat: "0.07" }), line({ unitPriceExclVat: "0.07" }), line({ unitPriceExclVat: "0.07" })],
      "0.21",
      "0.04",
      "0.25",
    ],
    [
      "a discount rounds the line net half-up: 3 × 19.99 less 12.5% = 52.47375 -> 52.47",
      [line({ quantity: "3", unitPriceExclVat: "19.99", discountPercent: "12.5" })],
      "52.47",
      "11.02",
      "63.49",
    ],
    ["fractional quantity and price: 1.333 × 2.5555 = 3.4064815 -> 3.41", [line({ quantity: "1.3333", unitPriceExclVat: "2.5555" })], "3.41", "0.72", "4.13"],
    // Half-up, not banker's rounding (which rounds a half to the even cent): each case is an exact half cent.
    [
      "a line net of exactly half a cent rounds up: 1 × 0.125 -> 0.13 (banker's: 0.12)",
      [line({ unitPriceExclVat: "0.125", vatRatePercent: "0", vatClassifier: "PVM14" })],
      "0.13",
      "0.00",
      "0.13",
    ],
    ["VAT of exactly half a cent rounds up: 12.50 at 21% = 2.625 -> 2.63 (banker's: 2.62)", [line({ unitPriceExclVat: "12.50" })], "12.50", "2.63", "15.13"],
    ["VAT of exactly half a cent rounds up: 0.50 at 21% = 0.105 -> 0.11 (banker's: 0.10)", [line({ unitPriceExclVat: "0.50" })], "0.50", "0.11", "0.61"],
    [
      "two rates each rounded once: 10.05 at 21% (2.1105) and 10.05 at 12% PVM58 (1.206)",
      [line({ unitPriceExclVat: "10.05" }), line({ unitPriceExclVat: "10.05", vatRatePercent: "12", vatClassifier: "PVM58" })],
      "20.10",
      "3.32",
      "23.42",
    ],
    [
      "a 0% line with its classifier carries no VAT",
      [line({ unitPriceExclVat: "100" }), line({ unitPriceExclVat: "50", vatRatePercent: "0", vatClassifier: "PVM14" })],
      "150.00",
      "21.00",
      "171.00",
    ],
  ])("%s", async (_name, lines, net, vat, gross) => {
    const w = await salesWorld();
    const body = await draft(w, { lines });
    expect([body.netTotal, body.vatTotal, body.grossTotal]).toEqual([net, vat, gross]);
    const [row] = await invoiceRows(w);
    expect([row.net_total, row.vat_total, row.gross_total]).toEqual([net, vat, gross]);
  });

  test("the breakdown splits a rate by classifier and gives the rounding cent to the largest, so it sums to the per-rate VAT", async () => {
    const w = await salesWorld();
    // At 0%: two classifiers; at 21%: 0.05 + 0.05 + 0.05 = 0.15 -> 0.03 VAT (0.0315), classifiers' own shares 0.01 + 0.02.
    const body = await draft(w, {
      lines: [line({ unitPriceExclVat: "0.05" }), line({ unitPriceExclVat: "0.10" })],
    });
    expect(body.vatTotal).toBe("0.03");
    expect(body.vatBreakdown).toEqual([{ vatRatePercent: "21.00", vatClassifier: "PVM1", taxableAmount: "0.15", vatAmount: "0.03" }]);
  });

  test.each([
    ["an unknown partner", { partnerCode: "NERA" }, "sale_invoice.partner_unknown"],
    ["a partner that is not a customer", { partnerCode: "TIEKEJAS" }, "sale_invoice.partner_not_customer"],
    ["an unknown item (reported although the line has no price)", { lines: [{ itemCode: "NERA", quantity: "1" }] }, "sale_invoice.item_unknown"],
    ["an item without a sale price and no price on the line", { lines: [{ itemCode: "NOPRICE", quantity: "1" }] }, "sale_invoice.line_incomplete"],
    ["a line without item, description or rate", { lines: [{ quantity: "1", unitPriceExclVat: "5" }] }, "sale_invoice.invalid_lines"],
    ["a revenue account that does not exist", { lines: [line({ revenueAccountCode: "5999999" })] }, "sale_invoice.account_invalid"],
    ["a revenue account of type expense", { lines: [line({ revenueAccountCode: "6000" })] }, "sale_invoice.account_invalid"],
    ["the 9% rate in 2026 (PVM2 ended on 2025-12-31)", { lines: [line({ vatRatePercent: "9", vatClassifier: "PVM2" })] }, "vat_classifier.not_valid_on_date"],
    ["the 9% rate in 2026 without a classifier", { lines: [line({ vatRatePercent: "9" })] }, "vat_rate.not_valid_on_date"],
    [
      "the 12% rate in 2025 (PVM58 begins on 2026-01-01)",
      { issueDate: "2025-12-20", lines: [line({ vatRatePercent: "12", vatClassifier: "PVM58" })] },
      "vat_classifier.not_valid_on_date",
    ],
    ["0% without a classifier (several share it)", { lines: [line({ vatRatePercent: "0" })] }, "vat_classifier.required"],
    ["an unknown classifier", { lines: [line({ vatClassifier: "PVM999" })] }, "vat_classifier.unknown"],
    ["PVM1 on a reduced rate", { lines: [line({ vatRatePercent: "5", vatClassifier: "PVM1" })] }, "vat_classifier.rate_mismatch"],
    ["a due date before the issue date", { dueDate: "2026-03-09" }, "sale_invoice.due_before_issue"],
    ["an unknown currency", { currency: "ABC" }, "currency.unknown"],
    ["a credit note without the invoice it credits", { type: "credit_note" as const }, "sale_invoice.credit_target_invalid"],
    [
      "an amount beyond what one document may carry",
      { lines: [line({ quantity: "999999999999", unitPriceExclVat: "999999999" })] },
      "sale_invoice.total_too_large",
    ],
    [
      "a buyer's reverse-charge classifier on a sale (PVM21, services bought from the EU)",
      { lines: [line({ vatClassifier: "PVM21" })] },
      "sale_invoice.vat_classifier_not_applicable",
    ],
    ["a supply date after the issue date", { supplyDate: "2026-03-11" }, "sale_invoice.supply_date_invalid"],
    ["returnToStock on an invoice", { lines: [line({ returnToStock: true })] }, "sale_invoice.return_invalid"],
    ["a lot on a line without an item", { lines: [line({ lotNumber: "A" })] }, "sale_invoice.tracking_invalid"],
  ])("%s -> 422, nothing stored", async (_name, over, key) => {
    const w = await salesWorld();
    await expectApiError(
      w.api.sales.invoices.create({ partnerCode: "PIRKEJAS", issueDate: "2026-03-10", lines: [line()], ...over }),
      422,
      "unprocessable",
      key,
    );
    expect(await invoiceRows(w)).toHaveLength(0);
    expect(await h.db("sale_invoice_lines").where({ company_id: w.companyId })).toHaveLength(0);
  });

  test("a December 2025 supply keeps its 9% in 2025, with its classifier", async () => {
    const w = await salesWorld();
    const body = await draft(w, { issueDate: "2025-12-31", lines: [line({ vatRatePercent: "9", vatClassifier: "PVM2" })] });
    expect(body.vatBreakdown).toEqual([{ vatRatePercent: "9.00", vatClassifier: "PVM2", taxableAmount: "100.00", vatAmount: "9.00" }]);
  });

  test.each([
    ["quantity 0", { lines: [line({ quantity: "0" })] }, "lines[0].quantity"],
    ["a negative price", { lines: [line({ unitPriceExclVat: "-1" })] }, "lines[0].unitPriceExclVat"],
    ["no lines", { lines: [] }, "lines"],
    ["a classifier outside the PVM codes", { lines: [line({ vatClassifier: "VAT1" })] }, "lines[0].vatClassifier"],
    // Quantities and unit prices of invoice lines carry at most 4 decimals (the contract says so).
    ["a quantity with 5 decimals", { lines: [line({ quantity: "1.00001" })] }, "lines[0].quantity"],
    ["a unit price with 5 decimals", { lines: [line({ unitPriceExclVat: "0.12345" })] }, "lines[0].unitPriceExclVat"],
  ])("%s -> 400 naming the field", async (_name, over, field) => {
    const w = await salesWorld();
    const body = invalid(Object.assign({ partnerCode: "PIRKEJAS", issueDate: "2026-03-10", lines: [line()] }, over));
    const error = await expectApiError(w.api.sales.invoices.create(body), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual([field]);
    expect(await invoiceRows(w)).toHaveLength(0);
  });
});

describe("drafts only: update and delete", () => {
  test("update replaces lines and recomputes totals; delete removes the draft and its lines", async () => {
    const w = await salesWorld();
    const d = await draft(w);
    const updated = await w.api.sales.invoices.update({
      id: d.id,
      notes: "Ačiū!",
      lines: [line({ unitPriceExclVat: "10" }), line({ unitPriceExclVat: "20" })],
    });
    expect(updated).toMatchObject({ notes: "Ačiū!", netTotal: "30.00", vatTotal: "6.30", grossTotal: "36.30" });
    expect(updated.lines.map((l: any) => l.lineNo)).toEqual([1, 2]);
    expect(await h.db("sale_invoice_lines").where({ company_id: w.companyId, invoice_id: d.id })).toHaveLength(2);
    await w.api.sales.invoices.delete({ id: d.id });
    expect(await invoiceRows(w)).toHaveLength(0);
    expect(await h.db("sale_invoice_lines").where({ company_id: w.companyId })).toHaveLength(0);
  });

  test("an update whose new issue date makes a line's rate invalid is refused, the draft unchanged", async () => {
    const w = await salesWorld();
    const d = await draft(w, { issueDate: "2025-12-30", lines: [line({ vatRatePercent: "9", vatClassifier: "PVM2" })] });
    await expectApiError(w.api.sales.invoices.update({ id: d.id, issueDate: "2026-01-02" }), 422, "unprocessable", "vat_classifier.not_valid_on_date");
    expect((await invoiceRows(w))[0].issue_date).toBe("2025-12-30");
  });

  test.each([
    ["update", (api: AccountingApi, id: string) => api.sales.invoices.update({ id, notes: "pakeista" })],
    ["delete", (api: AccountingApi, id: string) => api.sales.invoices.delete({ id })],
    ["issue again", (api: AccountingApi, id: string) => api.sales.invoices.issue({ id })],
  ])("%s of an issued invoice -> 409 sale_invoice.not_draft, nothing changes", async (_name, send) => {
    const w = await salesWorld();
    const inv = await issued(w);
    const before = await invoiceRows(w);
    await expectApiError(send(w.api, inv.id), 409, "conflict", "sale_invoice.not_draft");

    expect(await invoiceRows(w)).toEqual(before);
    expect(await h.db("journal_transactions").where({ company_id: w.companyId })).toHaveLength(1);
  });

  test("the database itself refuses to change or delete an issued invoice or its lines", async () => {
    const w = await salesWorld();
    const inv = await issued(w);
    await expect(h.db("sale_invoices").where({ id: inv.id }).update({ net_total: "1.00" })).rejects.toThrow(/cannot be changed/);
    await expect(h.db("sale_invoices").where({ id: inv.id }).update({ status: "draft" })).rejects.toThrow(/cannot be changed/);
    await expect(h.db("sale_invoices").where({ id: inv.id }).delete()).rejects.toThrow(/cannot be deleted/);
    await expect(h.db("sale_invoice_lines").where({ invoice_id: inv.id }).update({ quantity: "2" })).rejects.toThrow(/cannot change/);
    await expect(
      h.db("sale_invoice_lines").insert({
        company_id: w.companyId,
        invoice_id: inv.id,
        line_no: 9,
        description: "x",
        quantity: 1,
        unit: "vnt.",
        unit_price: 1,
        vat_rate_percent: 21,
        vat_classifier: "PVM1",
        net_amount: 1,
      }),
    ).rejects.toThrow(/cannot change/);
    await expect(h.db("sale_invoice_lines").where({ invoice_id: inv.id }).delete()).rejects.toThrow(/cannot change/);
    expect((await h.db("sale_invoice_lines").where({ invoice_id: inv.id }).orderBy("line_no")).map((l) => [l.line_no, l.quantity])).toEqual(
      inv.lines.map((l: { lineNo: number; quantity: string }) => [l.lineNo, expect.stringMatching(new RegExp(`^${l.quantity}(\\.0+)?$`))]),
    );
    // Its settlement figures may still move (the bank work pays it).
    await h.db("sale_invoices").where({ id: inv.id }).update({ paid_amount: "1.00", status: "partially_paid" });
  });
});

describe("issue", () => {
  test("numbers SF-1, snapshots the buyer, posts receivable / revenue / VAT exactly, and keeps the snapshot when the partner changes", async () => {
    const w = await salesWorld();
    const d = await draft(w, {
      lines: [
        line({ unitPriceExclVat: "100" }),
        line({ unitPriceExclVat: "50", revenueAccountCode: "5001" }),
        line({ unitPriceExclVat: "10", vatRatePercent: "5", vatClassifier: "PVM3" }),
      ],
    });
    const inv = await w.api.sales.invoices.issue({ id: d.id });
    expect(inv).toMatchObject({
      status: "issued",
      number: "SF-1",
      netTotal: "160.00",
      vatTotal: "32.00",
      grossTotal: "192.00",
      grossTotalEur: "192.00",
      outstanding: "192.00",
      rate: { rate: "1", source: "base", date: "2026-03-10" },
      issuedAt: expect.any(String),
    });
    expect(inv.lines.map((l: any) => l.revenueAccountCode)).toEqual([null, "5001", null]);
    const tx = await h.db("journal_transactions").where({ company_id: w.companyId, id: inv.journalTransactionId }).first();
    expect(tx).toMatchObject({ document_type: "sale_invoice", source_type: "sale_invoice", source_id: inv.id, reference: "SF-1", date: "2026-03-10" });
    // The event, written in the issue's transaction, carries the invoice as issued.
    expect(await invoiceEvents(w)).toEqual([["sale_invoice.issued", inv]]);
    expect(await journalOf(w, inv.journalTransactionId)).toEqual([
      E("2410", "192.00", "0.00", "PIRKEJAS"),
      E("5000", "0.00", "110.00"),
      E("5001", "0.00", "50.00"),
      E("4492", "0.00", "0.50"),
      E("4492", "0.00", "31.50"),
    ]);
    await w.api.partners.update({
      id: (await h.db("partners").where({ company_id: w.companyId, code: "PIRKEJAS" }).first()).id,
      name: "Naujas pavadinimas UAB",
    });
    const again = await w.api.sales.invoices.get({ id: inv.id });
    expect(again.partner.name).toBe("Šiaurės žuvėdra UAB");
    const stillDraft = await draft(w);
    expect((await w.api.sales.invoices.get({ id: stillDraft.id })).partner.name).toBe("Naujas pavadinimas UAB");
  });

  test("a line naming an item takes the item's revenue account unless it names its own; a line without either posts to the rule's", async () => {
    const w = await salesWorld();
    await w.api.catalog.items.create({
      code: "MOKYM",
      name: "Mokymai",
      type: "service",
      unit: "val.",
      vatRatePercent: "21",
      salePriceExclVat: "40",
      revenueAccountCode: "5001",
    });
    const d = await draft(w, {
      lines: [{ itemCode: "MOKYM", quantity: "2" }, { itemCode: "MOKYM", quantity: "1", revenueAccountCode: "5003" }, line({ unitPriceExclVat: "10" })],
    });
    expect(d.lines.map((l: any) => l.revenueAccountCode)).toEqual(["5001", "5003", null]);
    const stored = await h.db("sale_invoice_lines").where({ company_id: w.companyId, invoice_id: d.id }).orderBy("line_no");
    expect(stored.map((l) => l.revenue_account_code)).toEqual(["5001", "5003", null]);
    const inv = await w.api.sales.invoices.issue({ id: d.id });
    expect(await journalOf(w, inv.journalTransactionId)).toEqual([
      E("2410", "157.30", "0.00", "PIRKEJAS"),
      E("5001", "0.00", "80.00"),
      E("5003", "0.00", "40.00"),
      E("5000", "0.00", "10.00"),
      E("4492", "0.00", "27.30"),
    ]);
  });

  test("an item whose revenue account has since become a header account -> 422 on the line, nothing stored", async () => {
    const w = await salesWorld();
    await w.api.catalog.items.create({
      code: "SENAS",
      name: "Senas",
      type: "service",
      unit: "vnt.",
      vatRatePercent: "21",
      salePriceExclVat: "5",
      revenueAccountCode: "5003",
    });
    // A postable account with no postings may become a header account.
    await w.api.ledger.accounts.update({ code: "5003", isPostable: false });
    const error = await expectApiError(
      w.api.sales.invoices.create({ partnerCode: "PIRKEJAS", issueDate: "2026-03-10", lines: [{ itemCode: "SENAS", quantity: "1" }] }),
      422,
      "unprocessable",
      "sale_invoice.account_invalid",
    );
    expect(error.fieldErrors?.["lines[0].revenueAccountCode"][0]).toMatch(/5003 is a header account/);
    expect(await invoiceRows(w)).toHaveLength(0);
  });

  test("50 concurrent issues take SF-1..SF-50: consecutive, no gaps, no duplicates, one posting each", async () => {
    const w = await salesWorld();
    const drafts = [];
    for (let i = 0; i < 50; i++) drafts.push(await draft(w));
    const results = await Promise.all(drafts.map((d) => settle(w.api.sales.invoices.issue({ id: d.id }))));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    const numbers = results.map((r) => Number(r.data!.number!.slice(3))).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(await h.db("journal_transactions").where({ company_id: w.companyId, document_type: "sale_invoice" })).toHaveLength(50);
    const series = await h.db("number_series").where({ company_id: w.companyId, document_type: "sale_invoice" });
    expect(series).toMatchObject([{ prefix: "SF", year: 2026, next_number: "51" }]);
  });

  test("an issue that fails after taking its number gives it back: 20 concurrent issues, 5 failing at commit, number SF-1..SF-15", async () => {
    const w = await salesWorld();
    // A test-only deferred check that fails at COMMIT, after the numbering statement, for the drafts that ask for it.
    await h.db.raw(`
      create or replace function test_fail_at_commit() returns trigger language plpgsql as $$
      begin
        if new.notes = 'fail-at-commit' and new.number is not null then raise exception 'test: failing % at commit', new.number; end if;
        return null;
      end $$;
      drop trigger if exists test_fail_at_commit on sale_invoices;
      create constraint trigger test_fail_at_commit after update on sale_invoices deferrable initially deferred
        for each row execute function test_fail_at_commit();`);
    try {
      const drafts = [];
      for (let i = 0; i < 20; i++) drafts.push(await draft(w, i % 4 === 1 ? { notes: "fail-at-commit" } : {}));
      const results = await Promise.all(drafts.map((d) => settle(w.api.sales.invoices.issue({ id: d.id }))));
      const failing = drafts.map((_, i) => i % 4 === 1);
      expect(results.map((r) => r.status >= 500)).toEqual(failing);
      const numbers = results
        .filter((r) => r.status === 200)
        .map((r) => Number(r.data!.number!.slice(3)))
        .sort((a, b) => a - b);
      expect(numbers).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
      const rows = await invoiceRows(w);
      expect(
        rows
          .filter((r) => r.status === "draft")
          .map((r) => r.id)
          .sort(),
      ).toEqual(
        drafts
          .filter((_, i) => failing[i])
          .map((d) => d.id)
          .sort(),
      );
      expect(
        rows
          .filter((r) => r.status === "issued")
          .map((r) => Number(r.sequence))
          .sort((a, b) => a - b),
      ).toEqual(numbers);
      expect(await h.db("journal_transactions").where({ company_id: w.companyId, document_type: "sale_invoice" })).toHaveLength(15);
      expect((await invoiceEvents(w)).map(([, data]) => (data as { number: string }).number).sort()).toEqual(numbers.map((n) => `SF-${n}`).sort());
      expect(await h.db("audit_log").where({ company_id: w.companyId, operation: "sales.invoices.issue" })).toHaveLength(15);
      const series = await h.db("number_series").where({ company_id: w.companyId, document_type: "sale_invoice" });
      expect(series).toMatchObject([{ prefix: "SF", year: 2026, next_number: "16" }]);
    } finally {
      await h.db.raw("drop trigger if exists test_fail_at_commit on sale_invoices; drop function if exists test_fail_at_commit()");
    }
    // The next issue takes the next number.
    expect((await issued(w)).number).toBe("SF-16");
  });

  test("each year has its own series: SF-1 of 2026 and SF-1 of 2027 are two invoices", async () => {
    const w = await salesWorld();
    const a = await issued(w, { issueDate: "2026-12-31" });
    const b = await issued(w, { issueDate: "2027-01-01" });
    expect([a.number, b.number]).toEqual(["SF-1", "SF-1"]);
    expect((await h.db("number_series").where({ company_id: w.companyId }).orderBy("year")).map((s) => [s.year, s.next_number])).toEqual([
      [2026, "2"],
      [2027, "2"],
    ]);
  });

  test("a line's revenue account that takes no postings any more -> 422 sale_invoice.posting_rejected naming the entry; nothing numbered or posted", async () => {
    const w = await salesWorld();
    await w.api.ledger.accounts.create({ code: "5099", name: "Kitos pajamos", type: "income" });
    const d = await draft(w, { lines: [line(), line({ revenueAccountCode: "5099" })] });
    await w.api.ledger.accounts.update({ code: "5099", isPostable: false });
    const error = await expectApiError(w.api.sales.invoices.issue({ id: d.id }), 422, "unprocessable", "sale_invoice.posting_rejected");
    // Receivable, revenue 5000, revenue 5099, VAT: the third entry names the account.
    expect(error.fieldErrors).toEqual({ "entries[2].accountCode": ["account 5099 is not postable"] });
    expect((await h.db("sale_invoices").where({ id: d.id }).first()).status).toBe("draft");
    expect(await h.db("number_series").where({ company_id: w.companyId, document_type: "sale_invoice" })).toEqual([]);
    expect(await h.db("journal_transactions").where({ company_id: w.companyId })).toEqual([]);
  });

  test("into a locked month -> 409 period.locked; the draft stays a draft and no number is used", async () => {
    const w = await salesWorld();
    const first = await issued(w);
    await w.api.ledger.periods.lock({ month: "2026-04" });
    const d = await draft(w, { issueDate: "2026-04-15" });
    await expectApiError(w.api.sales.invoices.issue({ id: d.id }), 409, "conflict", "period.locked");
    expect((await h.db("sale_invoices").where({ id: d.id }).first()).status).toBe("draft");
    expect((await invoiceEvents(w)).map(([type, data]) => [type, (data as { number: string }).number])).toEqual([["sale_invoice.issued", "SF-1"]]);
    expect(await h.db("journal_transactions").where({ company_id: w.companyId })).toHaveLength(1);
    const next = await issued(w, { issueDate: "2026-05-02" });
    expect([first.number, next.number]).toEqual(["SF-1", "SF-2"]);
  });

  test("an idempotent retry of issue replays the same number; one posting", async () => {
    const w = await salesWorld();
    const d = await draft(w);
    const first = await w.api.sales.invoices.issue.withResponse({ id: d.id }, { idempotencyKey: "issue-1" });
    const replay = await w.api.sales.invoices.issue.withResponse({ id: d.id }, { idempotencyKey: "issue-1" });
    expect(first.response.headers.get("x-idempotent-replay")).toBeNull();
    expect(replay.response.headers.get("x-idempotent-replay")).toBe("true");
    expect(replay.data).toEqual(first.data);
    expect(await h.db("journal_transactions").where({ company_id: w.companyId })).toHaveLength(1);
  });

  test("an invoice that totals 0.00 -> 422 sale_invoice.nothing_to_post, no number used", async () => {
    const w = await salesWorld();
    const d = await draft(w, { lines: [line({ unitPriceExclVat: "0" })] });
    await expectApiError(w.api.sales.invoices.issue({ id: d.id }), 422, "unprocessable", "sale_invoice.nothing_to_post");
    expect(await h.db("number_series").where({ company_id: w.companyId })).toEqual([]);
  });
});

describe("foreign currency", () => {
  test("the company's override of the issue date: lines carry currency, amount and rate; EUR parts sum to the receivable", async () => {
    const w = await salesWorld();
    await w.api.reference.exchangeRates.set({ currency: "USD", date: "2026-03-10", rate: "1.0837" });
    const inv = await issued(w, {
      currency: "USD",
      lines: [line({ unitPriceExclVat: "333.33" }), line({ unitPriceExclVat: "0.99", vatRatePercent: "0", vatClassifier: "PVM14" })],
    });
    // 333.33 + 0.99 = 334.32 net; VAT 70.00 (333.33 × 21% = 69.9993); gross 404.32 USD = 373.09 EUR (404.32 / 1.0837 = 373.093...).
    expect(inv).toMatchObject({
      currency: "USD",
      grossTotal: "404.32",
      grossTotalEur: "373.09",
      rate: { rate: "1.0837", source: "override", date: "2026-03-10" },
    });
    const entries = await journalOf(w, inv.journalTransactionId);
    expect(entries[0]).toEqual(E("2410", "373.09", "0.00", "PIRKEJAS", "USD", "404.32"));
    const credits = entries.slice(1).reduce((s, e) => s.plus(e.credit), new Decimal(0));
    expect(credits.toFixed(2)).toBe("373.09");
    expect(entries.slice(1).map((e) => [e.account, e.currency, e.currencyAmount])).toEqual([
      ["5000", "USD", "334.32"],
      ["4492", "USD", "70.00"],
    ]);
  });

  test("an ECB rate found 3 days back is used and named", async () => {
    const w = await salesWorld();
    await h.db("exchange_rates").insert({ currency_code: "SEK", rate_date: "2026-03-06", rate: "11.2345" });
    const inv = await issued(w, { currency: "SEK", issueDate: "2026-03-09", lines: [line({ unitPriceExclVat: "1000" })] });
    expect(inv.rate).toEqual({ rate: "11.2345", source: "ecb", date: "2026-03-06" });
    expect(inv.grossTotalEur).toBe(new Decimal("1210").dividedBy("11.2345").toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2));
  });

  test("no rate within 7 days -> 422 fx.rate_missing; the draft stays a draft", async () => {
    const w = await salesWorld();
    const d = await draft(w, { currency: "NOK" });
    await expectApiError(w.api.sales.invoices.issue({ id: d.id }), 422, "unprocessable", "fx.rate_missing");
    expect((await h.db("sale_invoices").where({ id: d.id }).first()).status).toBe("draft");
    expect(await h.db("number_series").where({ company_id: w.companyId })).toEqual([]);
  });

  test("a catalog price is not taken as a price in another currency", async () => {
    const w = await salesWorld();
    const error = await expectApiError(
      w.api.sales.invoices.create({ partnerCode: "PIRKEJAS", issueDate: "2026-03-10", currency: "USD", lines: [{ itemCode: "KONS", quantity: "1" }] }),
      422,
      "unprocessable",
      "sale_invoice.line_incomplete",
    );
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["lines[0].unitPriceExclVat"]);
  });
});

describe("credit notes", () => {
  const credit = async (w: World, invoiceId: string, price: string, extra: Record<string, unknown> = {}) =>
    w.api.sales.invoices.issue({
      id: (await draft(w, { type: "credit_note", creditedInvoiceId: invoiceId, lines: [line({ unitPriceExclVat: price })], ...extra })).id,
    });

  test("partial then full: KS-1 and KS-2 post the opposite entries; the invoice's outstanding falls to 0 and it becomes credited", async () => {
    const w = await salesWorld();
    const inv = await issued(w);
    const first = await credit(w, inv.id, "40");
    expect(first).toMatchObject({ type: "credit_note", number: "KS-1", grossTotal: "48.40", outstanding: "0.00", creditedInvoiceId: inv.id });
    expect(await journalOf(w, first.journalTransactionId!)).toEqual([
      E("2410", "0.00", "48.40", "PIRKEJAS"),
      E("5000", "40.00", "0.00"),
      E("4492", "8.40", "0.00"),
    ]);
    expect(await w.api.sales.invoices.get({ id: inv.id })).toMatchObject({ status: "issued", creditedAmount: "48.40", outstanding: "72.60" });
    expect((await invoiceEvents(w)).map(([type, data]) => [type, (data as { number: string }).number])).toEqual([
      ["sale_invoice.issued", "SF-1"],
      ["sale_invoice.credited", "KS-1"],
    ]);
    expect((await invoiceEvents(w))[1][1]).toEqual(first);
    const second = await credit(w, inv.id, "60");
    expect(second.number).toBe("KS-2");
    expect(await w.api.sales.invoices.get({ id: inv.id })).toMatchObject({ status: "credited", creditedAmount: "121.00", outstanding: "0.00" });
  });

  test("crediting more than the gross -> 422 sale_invoice.credit_exceeds_gross, nothing posted", async () => {
    const w = await salesWorld();
    const inv = await issued(w);
    await expectApiError(credit(w, inv.id, "100.01"), 422, "unprocessable", "sale_invoice.credit_exceeds_gross");
    expect(await h.db("journal_transactions").where({ company_id: w.companyId })).toHaveLength(1);
    expect((await w.api.sales.invoices.get({ id: inv.id })).creditedAmount).toBe("0.00");
  });

  test("on a paid invoice the credit note carries what is owed back as its outstanding", async () => {
    const w = await salesWorld();
    const inv = await issued(w);
    // The bank work will record payments; here the settlement columns are set as it will set them.
    await h.db("sale_invoices").where({ id: inv.id }).update({ paid_amount: "121.00", outstanding: "0.00", status: "paid" });
    expect(await credit(w, inv.id, "50")).toMatchObject({ grossTotal: "60.50", outstanding: "60.50" });

    expect(await w.api.sales.invoices.get({ id: inv.id })).toMatchObject({ status: "paid", creditedAmount: "60.50", outstanding: "0.00" });
  });

  test.each([
    ["a draft invoice", async (w: World) => (await draft(w)).id],
    [
      "another partner's invoice",
      async (w: World) => {
        await w.api.partners.create({ name: "Kitas", code: "KITAS" });
        return (await issued(w, { partnerCode: "KITAS" })).id;
      },
    ],
    [
      "an invoice in another currency",
      async (w: World) => {
        await w.api.reference.exchangeRates.set({ currency: "USD", date: "2026-03-10", rate: "1.1" });
        return (await issued(w, { currency: "USD" })).id;
      },
    ],
  ])("crediting %s -> 422 sale_invoice.credit_target_invalid", async (_name, target) => {
    const w = await salesWorld();
    const id = await target(w);
    const before = (await invoiceRows(w)).length;
    await expectApiError(
      w.api.sales.invoices.create({
        type: "credit_note",
        creditedInvoiceId: id,
        partnerCode: "PIRKEJAS",
        issueDate: "2026-03-10",
        currency: "EUR",
        lines: [line()],
      }),
      422,
      "unprocessable",
      "sale_invoice.credit_target_invalid",
    );
    expect(await invoiceRows(w)).toHaveLength(before);
  });
});

describe("the tax point (supplyDate)", () => {
  test("a December 2025 supply invoiced on 2026-01-05 keeps 9% PVM2: accepted, stored, posted, shown in get, list and the PDF", async () => {
    const w = await salesWorld();
    const lines = [line({ vatRatePercent: "9", vatClassifier: "PVM2" })];
    // At the issue date alone the 9% rate is gone.
    await expectApiError(
      w.api.sales.invoices.create({ partnerCode: "PIRKEJAS", issueDate: "2026-01-05", lines }),
      422,
      "unprocessable",
      "vat_classifier.not_valid_on_date",
    );
    const d = await draft(w, { issueDate: "2026-01-05", supplyDate: "2025-12-20", lines });
    expect(d).toMatchObject({ issueDate: "2026-01-05", supplyDate: "2025-12-20", vatTotal: "9.00", grossTotal: "109.00" });
    expect(d.vatBreakdown).toEqual([{ vatRatePercent: "9.00", vatClassifier: "PVM2", taxableAmount: "100.00", vatAmount: "9.00" }]);
    const inv = await w.api.sales.invoices.issue({ id: d.id });
    expect(inv).toMatchObject({ status: "issued", number: "SF-1", issueDate: "2026-01-05", supplyDate: "2025-12-20", grossTotalEur: "109.00" });
    const [row] = await invoiceRows(w);
    expect([row.issue_date, row.supply_date, row.vat_total]).toEqual(["2026-01-05", "2025-12-20", "9.00"]);
    // Posted on the issue date, in the issue date's number series, with the 9% output VAT.
    expect(await h.db("journal_transactions").where({ id: inv.journalTransactionId }).first()).toMatchObject({ date: "2026-01-05", reference: "SF-1" });
    expect(await journalOf(w, inv.journalTransactionId)).toEqual([
      E("2410", "109.00", "0.00", "PIRKEJAS"),
      E("5000", "0.00", "100.00"),
      E("4492", "0.00", "9.00"),
    ]);
    expect((await w.api.sales.invoices.get({ id: inv.id })).supplyDate).toBe("2025-12-20");
    const listed = await w.api.sales.invoices.list({ filter: [{ field: "supplyDate", op: "lte", value: "2025-12-31" }] });
    expect(listed.rows.map((r: any) => [r.id, r.supplyDate])).toEqual([[inv.id, "2025-12-20"]]);
    expect((await w.api.sales.invoices.list({ filter: [{ field: "issueDate", op: "lte", value: "2025-12-31" }] })).rows).toEqual([]);
    const pdf = Buffer.from((await w.api.sales.invoices.pdf({ id: inv.id })).contentBase64, "base64");
    expect(await pdfText(pdf)).toContain("Tiekimo data / Supply date: 2025-12-20");
  });

  test("an update moves the tax point: null makes it the issue date again, and the lines are checked at it (refused, the draft unchanged)", async () => {
    const w = await salesWorld();
    const d = await draft(w, { issueDate: "2026-01-05", supplyDate: "2025-12-20", lines: [line({ vatRatePercent: "9", vatClassifier: "PVM2" })] });
    const error = await expectApiError(w.api.sales.invoices.update({ id: d.id, supplyDate: null }), 422, "unprocessable", "vat_classifier.not_valid_on_date");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["lines[0].vatClassifier"]);
    expect((await invoiceRows(w))[0].supply_date).toBe("2025-12-20");
    const moved = await w.api.sales.invoices.update({ id: d.id, supplyDate: null, lines: [line()] });
    expect([moved.supplyDate, (await invoiceRows(w))[0].supply_date]).toEqual(["2026-01-05", null]);
    await expectApiError(
      w.api.sales.invoices.update({ id: d.id, issueDate: "2026-01-04", supplyDate: "2026-01-05" }),
      422,
      "unprocessable",
      "sale_invoice.supply_date_invalid",
    );
  });
});

describe("credit notes at the credited invoice's tax point", () => {
  const decemberInvoice = async (w: World) =>
    issued(w, {
      issueDate: "2026-01-05",
      supplyDate: "2025-12-20",
      lines: [line({ vatRatePercent: "9", vatClassifier: "PVM2" }), line({ unitPriceExclVat: "50" })],
    });

  test("a credit note of January 2026 on a December 2025 9% invoice carries 9% PVM2: its lines are checked at the invoice's tax point", async () => {
    const w = await salesWorld();
    const inv = await decemberInvoice(w);
    // Through the SDK: what an integrator writes.
    const d = await w.api.sales.invoices.create({
      type: "credit_note",
      creditedInvoiceId: inv.id,
      partnerCode: "PIRKEJAS",
      issueDate: "2026-02-02",
      lines: [{ description: "Grąžinimas", quantity: "1", unitPriceExclVat: "40", vatRatePercent: "9", vatClassifier: "PVM2" }],
    });
    expect(d).toMatchObject({ issueDate: "2026-02-02", supplyDate: "2025-12-20", grossTotal: "43.60" });
    const note = await w.api.sales.invoices.issue({ id: d.id });
    expect(note).toMatchObject({ number: "KS-1", supplyDate: "2025-12-20" });
    expect(await journalOf(w, note.journalTransactionId!)).toEqual([
      E("2410", "0.00", "43.60", "PIRKEJAS"),
      E("5000", "40.00", "0.00"),
      E("4492", "3.60", "0.00"),
    ]);
    expect(await w.api.sales.invoices.get({ id: inv.id })).toMatchObject({ creditedAmount: "43.60", outstanding: "125.90" });
  });

  test.each([
    [
      "12% PVM58, which did not exist at the invoice's tax point",
      { lines: [line({ vatRatePercent: "12", vatClassifier: "PVM58" })] },
      "vat_classifier.not_valid_on_date",
      "lines[0].vatClassifier",
    ],
    [
      "a rate the invoice does not carry (5% PVM3)",
      { lines: [line({ vatRatePercent: "5", vatClassifier: "PVM3" })] },
      "sale_invoice.credit_vat_mismatch",
      "lines[0].vatRatePercent",
    ],
    [
      "a 0% line (PVM12), a rate the invoice does not carry",
      { lines: [line({ vatRatePercent: "0", vatClassifier: "PVM12" })] },
      "sale_invoice.credit_vat_mismatch",
      "lines[0].vatRatePercent",
    ],
    ["a supply date of its own", { supplyDate: "2026-01-05" }, "sale_invoice.supply_date_invalid", "supplyDate"],
  ])("%s -> 422 naming the field, nothing stored", async (_name, over, key, field) => {
    const w = await salesWorld();
    const inv = await decemberInvoice(w);
    const error = await expectApiError(
      w.api.sales.invoices.create({
        partnerCode: "PIRKEJAS",
        type: "credit_note",
        creditedInvoiceId: inv.id,
        issueDate: "2026-02-02",
        lines: [line()],
        ...over,
      }),
      422,
      "unprocessable",
      key,
    );
    expect(Object.keys(error.fieldErrors ?? {})).toEqual([field]);
    expect(await invoiceRows(w)).toHaveLength(1);
  });

  test("a credit note whose line was changed in the database to a pair the invoice lacks is refused at issue; nothing is numbered or posted", async () => {
    const w = await salesWorld();
    const inv = await issued(w);
    const d = await draft(w, { type: "credit_note", creditedInvoiceId: inv.id, lines: [line({ unitPriceExclVat: "10" })] });
    await h.db("sale_invoice_lines").where({ invoice_id: d.id }).update({ vat_rate_percent: 5, vat_classifier: "PVM3" });
    const error = await expectApiError(w.api.sales.invoices.issue({ id: d.id }), 422, "unprocessable", "sale_invoice.credit_vat_mismatch");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["lines[0].vatRatePercent"]);
    expect(await h.db("number_series").where({ company_id: w.companyId, document_type: "sale_credit_note" })).toEqual([]);
    expect(await h.db("journal_transactions").where({ company_id: w.companyId })).toHaveLength(1);
  });
});

describe("numbers unique across invoices and credit notes", () => {
  test("a credit note may not take an invoice series' prefix, nor an invoice a credit-note series' prefix (create and update)", async () => {
    const w = await salesWorld();
    const inv = await issued(w);
    const error = await expectApiError(
      w.api.sales.invoices.create({
        partnerCode: "PIRKEJAS",
        type: "credit_note",
        creditedInvoiceId: inv.id,
        issueDate: "2026-03-10",
        seriesPrefix: "SF",
        lines: [line({ unitPriceExclVat: "1" })],
      }),
      422,
      "unprocessable",
      "sale_invoice.prefix_in_use",
    );
    expect(error.fieldErrors).toEqual({ seriesPrefix: [expect.stringContaining("invoices")] });
    const note = await w.api.sales.invoices.issue({
      id: (await draft(w, { type: "credit_note", creditedInvoiceId: inv.id, lines: [line({ unitPriceExclVat: "1" })] })).id,
    });
    expect(note.number).toBe("KS-1");
    await expectApiError(
      w.api.sales.invoices.create({ partnerCode: "PIRKEJAS", issueDate: "2026-03-10", seriesPrefix: "KS", lines: [line()] }),
      422,
      "unprocessable",
      "sale_invoice.prefix_in_use",
    );
    const other = await draft(w);
    await expectApiError(w.api.sales.invoices.update({ id: other.id, seriesPrefix: "KS" }), 422, "unprocessable", "sale_invoice.prefix_in_use");
    expect((await h.db("sale_invoices").where({ id: other.id }).first()).series_prefix).toBe("SF");
  });

  test("drafts of both types on one prefix before either was issued: the second to be issued is refused before it takes a number", async () => {
    const w = await salesWorld();
    const first = await issued(w, { seriesPrefix: "A1" });
    const note = await draft(w, { type: "credit_note", creditedInvoiceId: first.id, seriesPrefix: "B1", lines: [line({ unitPriceExclVat: "1" })] });
    const invoice = await draft(w, { seriesPrefix: "B1" });
    await w.api.sales.invoices.issue({ id: invoice.id });
    await expectApiError(w.api.sales.invoices.issue({ id: note.id }), 422, "unprocessable", "sale_invoice.prefix_in_use");
    expect(
      (await h.db("number_series").where({ company_id: w.companyId }).orderBy(["document_type", "prefix"])).map((r) => [r.document_type, r.prefix]),
    ).toEqual([
      ["sale_invoice", "A1"],
      ["sale_invoice", "B1"],
    ]);
    expect((await h.db("sale_invoices").where({ id: note.id }).first()).status).toBe("draft");
  });

  test("the database refuses a second document of the year showing the same number (a series made around the rule): 409, nothing posted", async () => {
    const w = await salesWorld();
    const inv = await issued(w);
    const note = await draft(w, { type: "credit_note", creditedInvoiceId: inv.id, lines: [line({ unitPriceExclVat: "1" })] });
    await h.db("sale_invoices").where({ id: note.id }).update({ series_prefix: "SF" });
    await h.db("number_series").insert({ company_id: w.companyId, document_type: "sale_credit_note", prefix: "SF", year: 2026, next_number: 1 });
    await expectApiError(w.api.sales.invoices.issue({ id: note.id }), 409, "conflict", "sale_invoice.number_taken");
    expect((await h.db("sale_invoices").where({ id: note.id }).first()).status).toBe("draft");
    expect(await h.db("journal_transactions").where({ company_id: w.companyId })).toHaveLength(1);
    expect((await w.api.sales.invoices.get({ id: inv.id })).creditedAmount).toBe("0.00");
  });
});

describe("a partner or item deleted while a draft is being written", () => {
  // The deletion is committed while the create waits on it: the draft sees them gone (422), never a foreign-key 500.
  const racing = async (w: World, remove: (c: pg.Client) => Promise<unknown>, body: RequestBody<"sales_invoices_create">, key: string) => {
    const blocker = new pg.Client({ connectionString: h.connectionString });
    await blocker.connect();
    try {
      await blocker.query("begin");
      await remove(blocker);
      const request = expectApiError(w.api.sales.invoices.create(body), 422, "unprocessable", key);
      await waitForLockWaiters(h.db, { count: 1, excludePid: (blocker as any).processID, what: "the create waiting on the deletion" });
      await blocker.query("commit");
      await request;
    } finally {
      await blocker.end();
    }
  };

  test("the partner", async () => {
    const w = await salesWorld();
    await w.api.partners.create({ name: "Laikinas UAB", code: "LAIKINAS" });
    await racing(
      w,
      (c) => c.query("delete from partners where company_id = $1 and code = 'LAIKINAS'", [w.companyId]),
      { partnerCode: "LAIKINAS", issueDate: "2026-03-10", lines: [line()] },
      "sale_invoice.partner_unknown",
    );
    expect(await invoiceRows(w)).toEqual([]);
  });

  test("an item", async () => {
    const w = await salesWorld();
    await w.api.catalog.items.create({ code: "LAIK", name: "Laikina", type: "service", unit: "vnt.", vatRatePercent: "21", salePriceExclVat: "5" });
    await racing(
      w,
      (c) => c.query("delete from catalog_items where company_id = $1 and code = 'LAIK'", [w.companyId]),
      { partnerCode: "PIRKEJAS", issueDate: "2026-03-10", lines: [{ itemCode: "LAIK", quantity: "1" }] },
      "sale_invoice.item_unknown",
    );
    expect(await invoiceRows(w)).toEqual([]);
  });
});

describe("issue checks again what may have changed since the draft", () => {
  test("an item deactivated after the draft was written: 422 sale_invoice.item_inactive naming the line, nothing numbered or posted", async () => {
    const w = await salesWorld();
    const d = await draft(w, { lines: [line(), { itemCode: "KONS", quantity: "1" }] });
    const item = await h.db("catalog_items").where({ company_id: w.companyId, code: "KONS" }).first();
    await w.api.catalog.items.update({ id: item.id, active: false });
    const error = await expectApiError(w.api.sales.invoices.issue({ id: d.id }), 422, "unprocessable", "sale_invoice.item_inactive");
    expect(error.fieldErrors).toEqual({ "lines[1].itemCode": ["item KONS is not active any more"] });
    expect((await h.db("sale_invoices").where({ id: d.id }).first()).status).toBe("draft");
    expect(await h.db("number_series").where({ company_id: w.companyId })).toEqual([]);
    expect(await h.db("journal_transactions").where({ company_id: w.companyId })).toEqual([]);
    await w.api.catalog.items.update({ id: item.id, active: true });
    expect((await w.api.sales.invoices.issue({ id: d.id })).number).toBe("SF-1");
  });

  test("a line whose classifier no longer fits a sale (changed in the database) is refused at issue, naming it", async () => {
    const w = await salesWorld();
    const d = await draft(w);
    await h.db("sale_invoice_lines").where({ invoice_id: d.id }).update({ vat_classifier: "PVM16" });
    const error = await expectApiError(w.api.sales.invoices.issue({ id: d.id }), 422, "unprocessable", "sale_invoice.vat_classifier_not_applicable");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["lines[0].vatClassifier"]);

    expect(await h.db("journal_transactions").where({ company_id: w.companyId })).toEqual([]);
  });
});

describe("events go through the one outbox writer", () => {
  test("a subscribed company: each event of an issue gets its delivery and job exactly as emitEvent makes them, in emission order", async () => {
    const w = await salesWorld();
    const sub = await w.api.webhooks.subscriptions.create({ url: "http://127.0.0.1:9/hook", eventTypes: ["*"] });
    const [{ seq: before }] = await h.db("webhook_events").where({ company_id: w.companyId }).max({ seq: "seq" });
    await w.api.partners.create({ name: "Kitas", code: "KITAS" }); // written by emitEvent
    const inv = await issued(w); // written by the issue's one statement
    const events = await h
      .db("webhook_events")
      .where({ company_id: w.companyId })
      .where("seq", ">", before ?? 0)
      .orderBy("seq");
    expect(events.map((e) => [e.event_type, e.version])).toEqual([
      ["partner.created", "2026-11-23"],
      ["journal_transaction.posted", "2026-11-23"],
      ["sale_invoice.issued", "2026-11-23"],
    ]);
    expect(events[2].data).toEqual(inv);
    const deliveries = await h
      .db("webhook_deliveries")
      .where({ company_id: w.companyId })
      .whereIn(
        "event_id",
        events.map((e) => e.id),
      );
    const jobs = await h
      .db("graphile_worker.jobs as j")
      .join("graphile_worker._private_jobs as p", "p.id", "j.id")
      .whereIn(
        "j.key",
        deliveries.map((d) => `whd:${d.id}`),
      )
      .select("j.id", "j.key", "j.task_identifier", "j.queue_name", "j.priority", "j.max_attempts", "j.attempts", "p.payload");
    // What a delivery and its job look like, apart from their own ids and times: the same for every event.
    const shape = (e: Record<string, any>) => {
      const rows = deliveries.filter((d) => d.event_id === e.id);
      return rows.map((d) => {
        const job = jobs.find((j) => j.key === `whd:${d.id}`);
        const { id: _id, event_id: _e, created_at: _c, next_attempt_at, event_seq, event_type, ...rest } = d;
        return {
          delivery: { ...rest, event: [event_seq, event_type], scheduled: next_attempt_at !== null },
          job: job && {
            task: job.task_identifier,
            queue: job.queue_name,
            priority: job.priority,
            maxAttempts: job.max_attempts,
            attempts: job.attempts,
            payload: job.payload,
          },
        };
      });
    };
    const expected = (e: Record<string, any>) => [
      {
        delivery: { ...shape(events[0])[0].delivery, event: [e.seq, e.event_type] },
        job: {
          ...shape(events[0])[0].job!,
          payload: { companyId: w.companyId, subscriptionId: sub.id, deliveryId: deliveries.find((d) => d.event_id === e.id)!.id },
        },
      },
    ];
    expect(shape(events[0])).toEqual([
      {
        delivery: expect.objectContaining({ subscription_id: sub.id, status: "pending", attempts: 0, scheduled: true }),
        job: expect.objectContaining({ task: "deliver_webhook", queue: `webhooks:${sub.id}` }),
      },
    ]);
    for (const e of events.slice(1)) expect({ type: e.event_type, shape: shape(e) }).toEqual({ type: e.event_type, shape: expected(e) });
    // One subscription's queue takes the issue's jobs in the order of its events.
    const issueJobs = events.slice(1).map((e) => jobs.find((j) => j.key === `whd:${deliveries.find((d) => d.event_id === e.id)!.id}`)!.id);
    expect([...issueJobs].sort((a, b) => Number(a) - Number(b))).toEqual(issueJobs);
  });
});

describe("list", () => {
  test("filters on status, partner, dates, overdue; totals over every matching row", async () => {
    const w = await salesWorld();
    await w.api.partners.create({ name: "Kitas", code: "KITAS" });
    const a = await issued(w, { issueDate: "2026-01-05", dueDate: "2026-01-10" });
    const b = await issued(w, { issueDate: "2026-02-05", partnerCode: "KITAS", lines: [line({ unitPriceExclVat: "10" })] });
    const c = await draft(w, { issueDate: "2099-01-01" });
    const ids = async (body: ListBody) => (await w.api.sales.invoices.list(body)).rows.map((r) => r.id);
    expect(await ids({})).toEqual([c.id, b.id, a.id]);
    expect(await ids({ filter: [{ field: "status", op: "eq", value: "draft" }] })).toEqual([c.id]);
    expect(await ids({ filter: [{ field: "partnerCode", op: "eq", value: "KITAS" }] })).toEqual([b.id]);
    expect(await ids({ filter: [{ field: "issueDate", op: "gte", value: "2026-02-01" }], sort: [{ field: "issueDate", dir: "asc" }] })).toEqual([b.id, c.id]);
    const totals = await w.api.sales.invoices.list({
      filter: [{ field: "status", op: "ne", value: "draft" }],
      totals: ["grossTotal", "outstanding", "netTotal"],
    });
    expect(totals.totals).toEqual({ grossTotal: "133.10", outstanding: "133.10", netTotal: "110.00" });
    expect(totals.rows[0].lines).toHaveLength(1);
    await expectApiError(w.api.sales.invoices.list(invalid({ filter: [{ field: "noSuchField", op: "eq", value: 1 }] })), 400, "validation");
  });

  test("overdue: issued with something outstanding and due before the database's today (Vilnius), whatever the JS clock says", async () => {
    const w = await salesWorld();
    // Dates relative to the database's own day (TEST-AUDIT 7): the API judges "overdue" by it.
    const { rows } = await h.db.raw(
      `select ((now() at time zone 'Europe/Vilnius')::date - 20)::text as issued, ((now() at time zone 'Europe/Vilnius')::date - 1)::text as yesterday,
              (now() at time zone 'Europe/Vilnius')::date::text as today`,
    );
    const { issued: issueDate, yesterday, today } = rows[0];
    const overdue = await issued(w, { issueDate, dueDate: yesterday });
    const dueToday = await issued(w, { issueDate, dueDate: today });
    const paid = await issued(w, { issueDate, dueDate: yesterday });
    await h
      .db("sale_invoices")
      .where({ id: paid.id })
      .update({ paid_amount: h.db.raw("gross_total"), outstanding: 0, status: "paid" });
    const notIssued = await draft(w, { issueDate, dueDate: yesterday });
    const ids = async (value: boolean) =>
      (await w.api.sales.invoices.list({ filter: [{ field: "overdue", op: "eq", value }], sort: [{ field: "createdAt", dir: "asc" }] })).rows.map(
        (r: any) => r.id,
      );
    expect(await ids(true)).toEqual([overdue.id]);
    expect(await ids(false)).toEqual([dueToday.id, paid.id, notIssued.id]);
    // The same through the open-documents rollup, with totals.
    expect((await w.api.sales.invoices.list({ filter: [{ field: "overdue", op: "eq", value: true }], totals: ["outstanding"] })).totals).toEqual({
      outstanding: "121.00",
    });
  });
});

describe("list totals from the rollup (sale_invoice_totals)", () => {
  test("stay exact through create, update, issue, credit note, payment-like settlement updates and delete", async () => {
    const w = await salesWorld();
    await w.api.partners.create({ name: "Kitas", code: "KITAS" });
    const rollup = async () =>
      (
        await h.db.raw(
          `select status, type, partner_code, currency, series_prefix, month::text, sum(documents)::int as n, sum(net_total)::text as net, sum(vat_total)::text as vat,
                  sum(gross_total)::text as gross, sum(outstanding)::text as outstanding
             from sale_invoice_totals where company_id = ? group by 1, 2, 3, 4, 5, 6
           having sum(documents) <> 0 or sum(net_total) <> 0 or sum(gross_total) <> 0 or sum(outstanding) <> 0 order by 1, 2, 3, 4, 5, 6`,
          [w.companyId],
        )
      ).rows;
    const actual = async () =>
      (
        await h.db.raw(
          `select status, type, partner_code, currency, series_prefix, date_trunc('month', issue_date)::date::text as month, count(*)::int as n, sum(net_total)::text as net,
                  sum(vat_total)::text as vat, sum(gross_total)::text as gross, sum(outstanding)::text as outstanding
             from sale_invoices where company_id = ? group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5, 6`,
          [w.companyId],
        )
      ).rows;
    // List requests the rollup answers, each with the SQL condition that selects the same invoices.
    const cases: [Filter[], string, (string | string[])[]][] = [
      [[], "true", []],
      [[{ field: "status", op: "eq", value: "issued" }], "status = ?", ["issued"]],
      [[{ field: "status", op: "in", value: ["issued", "partially_paid", "paid"] }], "status = any(?)", [["issued", "partially_paid", "paid"]]],
      [[{ field: "partnerCode", op: "eq", value: "KITAS" }], "partner_code = ?", ["KITAS"]],
      [[{ field: "type", op: "ne", value: "credit_note" }], "type <> ?", ["credit_note"]],
      [
        [
          { field: "issueDate", op: "gte", value: "2026-01-01" },
          { field: "issueDate", op: "lte", value: "2026-01-31" },
        ],
        "issue_date between ? and ?",
        ["2026-01-01", "2026-01-31"],
      ],
      [[{ field: "issueDate", op: "gte", value: "2026-01-15" }], "issue_date >= ?", ["2026-01-15"]], // not whole months: aggregated
      [
        [
          { field: "overdue", op: "eq", value: false },
          { field: "currency", op: "eq", value: "EUR" },
        ],
        "not (status in ('issued', 'partially_paid') and outstanding > 0 and due_date < (now() at time zone 'Europe/Vilnius')::date)",
        [],
      ],
    ];
    const OVERDUE = "status in ('issued', 'partially_paid') and outstanding > 0 and due_date < (now() at time zone 'Europe/Vilnius')::date";
    cases.push(
      [[{ field: "overdue", op: "eq", value: true }], OVERDUE, []],
      [
        [
          { field: "overdue", op: "eq", value: true },
          { field: "partnerCode", op: "in", value: ["PIRKEJAS"] },
          { field: "dueDate", op: "lte", value: "2026-01-31" },
        ],
        `${OVERDUE} and partner_code = ? and due_date <= ?`,
        ["PIRKEJAS", "2026-01-31"],
      ],
    );
    // The open documents by due date (sale_invoice_open_totals) against the documents themselves.
    const openGroups = async (table: string, where: string) =>
      (
        await h.db.raw(
          `select status, type, partner_code, currency, series_prefix, due_date::text, ${table === "sale_invoices" ? "count(*)" : "sum(documents)"}::int as n,
                  sum(gross_total)::text as gross, sum(outstanding)::text as outstanding
             from ${table} where company_id = ? and ${where} group by 1, 2, 3, 4, 5, 6
           having ${table === "sale_invoices" ? "true" : "sum(documents) <> 0 or sum(gross_total) <> 0 or sum(outstanding) <> 0"} order by 1, 2, 3, 4, 5, 6`,
          [w.companyId],
        )
      ).rows;
    const check = async (step: string) => {
      expect({ step, groups: await rollup() }).toEqual({ step, groups: await actual() });
      expect({ step, open: await openGroups("sale_invoice_open_totals", "true") }).toEqual({
        step,
        open: await openGroups("sale_invoices", "status in ('issued', 'partially_paid') and outstanding > 0"),
      });
      for (const [filter, condition, bindings] of cases) {
        const listed = await w.api.sales.invoices.list({ filter, totals: ["netTotal", "vatTotal", "grossTotal", "outstanding"], pageSize: 1 });
        const { rows } = await h.db.raw(
          `select count(*)::int as n, coalesce(sum(net_total), 0) as net, coalesce(sum(vat_total), 0) as vat, coalesce(sum(gross_total), 0) as gross,
                  coalesce(sum(outstanding), 0) as outstanding from sale_invoices where company_id = ? and ${condition}`,
          [w.companyId, ...bindings],
        );
        const m = (v: string) => new Decimal(v).toFixed(2);
        expect({ step, filter, total: listed.total, totals: listed.totals }).toEqual({
          step,
          filter,
          total: rows[0].n,
          totals: { netTotal: m(rows[0].net), vatTotal: m(rows[0].vat), grossTotal: m(rows[0].gross), outstanding: m(rows[0].outstanding) },
        });
      }
    };
    await check("empty");
    const a = await draft(w, {
      issueDate: "2026-01-05",
      lines: [line({ unitPriceExclVat: "100.05" }), line({ quantity: "3", unitPriceExclVat: "7.333", vatRatePercent: "12", vatClassifier: "PVM58" })],
    });
    const b = await draft(w, { issueDate: "2026-02-05", partnerCode: "KITAS", lines: [line({ unitPriceExclVat: "10" })] });
    const c = await draft(w, { issueDate: "2026-01-20", lines: [line({ unitPriceExclVat: "50" })] });
    await check("three drafts");
    await w.api.sales.invoices.update({
      id: c.id,
      issueDate: "2026-03-01",
      dueDate: "2026-03-15",
      partnerCode: "KITAS",
      lines: [line({ unitPriceExclVat: "55.55" })],
    });
    await check("draft updated (month, partner, amount)");
    await w.api.sales.invoices.issue({ id: a.id });
    await w.api.sales.invoices.issue({ id: b.id });
    await check("two issued");
    const credit = await w.api.sales.invoices.create({
      type: "credit_note",
      creditedInvoiceId: a.id,
      partnerCode: "PIRKEJAS",
      issueDate: "2026-02-10",
      lines: [line({ unitPriceExclVat: "20" })],
    });
    await w.api.sales.invoices.issue({ id: credit.id });
    await check("credit note issued");
    // What the bank module does: settlement columns only, straight in SQL.
    await h
      .db("sale_invoices")
      .where({ id: b.id })
      .update({ paid_amount: h.db.raw("gross_total"), outstanding: 0, status: "paid" });
    await check("paid in full");
    await h
      .db("sale_invoices")
      .where({ id: a.id })
      .update({ paid_amount: "20.00", outstanding: h.db.raw("outstanding - 20"), status: "partially_paid" });
    await check("paid in part");
    await h.db("sale_invoices").where({ company_id: w.companyId }).whereIn("status", ["paid", "partially_paid"]).update({ updated_at: h.db.fn.now() });
    await check("a change that moves no figure");
    await w.api.sales.invoices.delete({ id: c.id });
    await check("draft deleted");

    // Which lists read a rollup: 1000 documents added to each rollup by hand show in those lists' counts only.
    for (const [table, column, value] of [
      ["sale_invoice_totals", "month", "2026-01-01"],
      ["sale_invoice_open_totals", "due_date", "2026-01-19"],
    ]) {
      await h.db.raw(
        `insert into ${table} (company_id, status, type, partner_code, currency, series_prefix, ${column}, stripe, documents, net_total, vat_total, gross_total, outstanding)
         values (?, 'issued', 'invoice', 'PIRKEJAS', 'EUR', 'SF', ?, 15, 1000, 0, 0, 0, 0)
         on conflict (company_id, status, type, partner_code, currency, series_prefix, ${column}, stripe) do update set documents = ${table}.documents + 1000`,
        [w.companyId, value],
      );
    }
    const count = async (filter: Filter[]) => (await w.api.sales.invoices.list({ filter, totals: ["grossTotal"], pageSize: 1 })).total;
    const stored = async (condition: string) =>
      Number((await h.db("sale_invoices").where({ company_id: w.companyId }).whereRaw(condition).count({ n: "*" }))[0].n);
    const routed: [Filter[], string, number][] = [
      [[], "true", 1000],
      [[{ field: "partnerCode", op: "eq", value: "PIRKEJAS" }], "partner_code = 'PIRKEJAS'", 1000],
      [
        [
          { field: "issueDate", op: "gte", value: "2026-01-01" },
          { field: "issueDate", op: "lte", value: "2026-01-31" },
        ],
        "issue_date between '2026-01-01' and '2026-01-31'",
        1000,
      ],
      [[{ field: "overdue", op: "eq", value: true }], OVERDUE, 1000],
      [[{ field: "issueDate", op: "gte", value: "2026-01-02" }], "issue_date >= '2026-01-02'", 0],
      [[{ field: "number", op: "contains", value: "SF" }], "strpos(number, 'SF') > 0", 0],
      [[{ field: "overdue", op: "eq", value: false }], `not (${OVERDUE})`, 0],
    ];
    for (const [filter, condition, extra] of routed)
      expect({ filter, total: await count(filter) }).toEqual({ filter, total: (await stored(condition)) + extra });
  });
});

describe("pdf", () => {
  test("renders seller, buyer, number, lines and totals with every Lithuanian letter, extracted back with pdf.js", async () => {
    const w = await salesWorld();
    await w.api.partners.update({
      id: (await h.db("partners").where({ company_id: w.companyId, code: "PIRKEJAS" }).first()).id,
      name: "ĄČĘĖĮŠŲŪŽ ąčęėįšųūž UAB",
    });
    const inv = await issued(w, { notes: "Apmokėti per 14 dienų", lines: [line({ description: "Žąsų plunksnų pagalvė" })] });
    const res = await w.api.sales.invoices.pdf({ id: inv.id });
    expect(res).toMatchObject({ fileName: "SF-1.pdf", contentType: "application/pdf" });
    const bytes = Buffer.from(res.contentBase64, "base64");
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    const text = await pdfText(bytes);
    for (const expected of [
      "PVM SĄSKAITA FAKTŪRA",
      "SF-1",
      "ĄČĘĖĮŠŲŪŽ ąčęėįšųūž UAB",
      "LT119511515",
      "300000003",
      "Žąsų plunksnų pagalvė",
      "Bandymas UAB",
      "LT100001919017",
      "121,00 EUR", // Lithuanian number format on a Lithuanian (lt-en) document
      "21 %",
      "Šimtas dvidešimt vienas euras 00 ct / One hundred twenty-one euros 00 ct",
      "2026-03-10",
      "2026-03-24",
      "Apmokėti per 14 dienų",
    ]) {
      expect(text).toContain(expected);
    }
  });
});

describe("tenancy and scopes", () => {
  test("another account's invoice is 404 on get, issue, update, delete and pdf; nothing changes", async () => {
    const w = await salesWorld();
    const other = await salesWorld();
    const d = await draft(other);
    const invoices = w.api.sales.invoices;
    for (const call of [
      invoices.get({ id: d.id }),
      invoices.issue({ id: d.id }),
      invoices.update({ id: d.id, notes: "x" }),
      invoices.delete({ id: d.id }),
      invoices.pdf({ id: d.id }),
    ]) {
      await expectApiError(call, 404, "not_found", "sale_invoice.not_found");
    }
    expect((await h.db("sale_invoices").where({ id: d.id }).first()).status).toBe("draft");
    expect((await w.api.sales.invoices.list({})).rows).toEqual([]);
  });

  test("a sales:read key lists but cannot create or issue (403); a purchases key cannot read sales", async () => {
    const w = await salesWorld();
    const d = await draft(w);
    const read = await w.api.account.apiKeys.create({ name: "read", scopes: ["sales:read"] });
    const purchases = await w.api.account.apiKeys.create({ name: "p", scopes: ["purchases:write"] });
    const reader = h.sdk(read.key, w.companyId);
    expect((await reader.sales.invoices.list({})).rows.map((r) => r.id)).toEqual([d.id]);
    await expectApiError(reader.sales.invoices.issue({ id: d.id }), 403, "forbidden");
    await expectApiError(reader.sales.invoices.create({ partnerCode: "PIRKEJAS", issueDate: "2026-03-10", lines: [line()] }), 403, "forbidden");
    await expectApiError(h.sdk(purchases.key, w.companyId).sales.invoices.get({ id: d.id }), 403, "forbidden");
    expect((await h.db("sale_invoices").where({ id: d.id }).first()).status).toBe("draft");
  });
});

describe("property: random invoices", () => {
  // A small deterministic generator (mulberry32), so a failure names its seed and replays.
  const rng = (seed: number) => () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  /** The transaction of a document: it balances and its receivable line is the document's gross in EUR. */
  const checkPosting = async (w: World, doc: any, run: number, side: "debit" | "credit") => {
    const entries = await journalOf(w, doc.journalTransactionId);
    const debit = entries.reduce((s, e) => s.plus(e.debit), new Decimal(0));
    const credit = entries.reduce((s, e) => s.plus(e.credit), new Decimal(0));
    expect({ run, number: doc.number, debit: debit.toFixed(2) }).toEqual({ run, number: doc.number, debit: credit.toFixed(2) });
    const expectedEur = new Decimal(doc.grossTotal).dividedBy(doc.rate.rate).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
    expect({ run, number: doc.number, receivable: entries[0][side] }).toEqual({ run, number: doc.number, receivable: expectedEur });
    expect(doc.grossTotalEur).toBe(expectedEur);
    // Each converted line is within a cent of its exact conversion.
    for (const e of entries.slice(1)) {
      if (e.currencyAmount === null) continue;
      const exact = new Decimal(e.currencyAmount).dividedBy(doc.rate.rate);
      expect({
        run,
        off: exact
          .minus(side === "debit" ? e.credit : e.debit)
          .abs()
          .lessThan("0.01"),
      }).toEqual({ run, off: true });
    }
  };
  const counts = async (w: World) => ({
    documents: (await invoiceRows(w)).length,
    issued: (await invoiceRows(w).whereNot("status", "draft")).length,
    transactions: (await h.db("journal_transactions").where({ company_id: w.companyId })).length,
    series: (await h.db("number_series").where({ company_id: w.companyId })).map((r) => `${r.document_type} ${r.next_number}`).sort(),
  });

  test(
    "on a fresh company per run: invoices and credit notes post balanced transactions whose receivable is the gross in EUR; refusals answer 422 and leave nothing",
    async () => {
      const PAIRS = [
        ["21", "PVM1"],
        ["12", "PVM58"],
        ["5", "PVM3"],
        ["0", "PVM14"],
      ];
      // Requests that must be refused (422, key), each built from the run's invoice.
      const REFUSALS: { name: string; key: string; at: "create" | "issue"; body: (inv: Invoice) => Partial<CreateBody> }[] = [
        {
          name: "9% after 2025",
          key: "vat_classifier.not_valid_on_date",
          at: "create",
          body: () => ({ lines: [line({ vatRatePercent: "9", vatClassifier: "PVM2" })] }),
        },
        {
          name: "a buyer's reverse-charge code",
          key: "sale_invoice.vat_classifier_not_applicable",
          at: "create",
          body: () => ({ lines: [line({ vatClassifier: "PVM16" })] }),
        },
        {
          name: "a credit note above the gross",
          key: "sale_invoice.credit_exceeds_gross",
          at: "issue",
          body: (inv) => ({
            type: "credit_note",
            creditedInvoiceId: inv.id,
            currency: inv.currency,
            lines: [
              line({
                unitPriceExclVat: new Decimal(inv.grossTotal).plus("0.01").toFixed(2),
                vatRatePercent: inv.lines[0].vatRatePercent,
                vatClassifier: inv.lines[0].vatClassifier,
              }),
            ],
          }),
        },
        {
          name: "a credit note with a pair its invoice lacks",
          key: "sale_invoice.credit_vat_mismatch",
          at: "create",
          body: (inv) => ({
            type: "credit_note",
            creditedInvoiceId: inv.id,
            currency: inv.currency,
            lines: [line({ vatRatePercent: "0", vatClassifier: "PVM12" })],
          }),
        },
      ];
      for (let run = 0; run < 12; run++) {
        const random = rng(20261124 + run);
        const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
        const w = await salesWorld();
        await w.api.reference.exchangeRates.set({ currency: "USD", date: "2026-03-10", rate: "1.08371234" });
        await w.api.reference.exchangeRates.set({ currency: "JPY", date: "2026-03-10", rate: "161.37" });
        const currency = pick(["EUR", "USD", "JPY"]);
        const lines = Array.from({ length: 1 + Math.floor(random() * 4) }, () => {
          const [rate, classifier] = pick(PAIRS);
          return line({
            quantity: new Decimal(100 + Math.floor(random() * 1000)).dividedBy(100).toFixed(),
            unitPriceExclVat: new Decimal(1 + Math.floor(random() * 1_000_000)).dividedBy(100).toFixed(2),
            discountPercent: pick(["0", "5", "12.5"]),
            vatRatePercent: rate,
            vatClassifier: classifier,
          });
        });
        const inv = await issued(w, { currency, lines });
        await checkPosting(w, inv, run, "debit");

        const refusal = pick(REFUSALS);
        const before = await counts(w);
        const body = { partnerCode: "PIRKEJAS", issueDate: "2026-03-10", lines: [line()], ...refusal.body(inv) };
        const res = await settle(
          refusal.at === "create" ? w.api.sales.invoices.create(body) : w.api.sales.invoices.issue({ id: (await w.api.sales.invoices.create(body)).id }),
        );
        expect({ run, refusal: refusal.name, status: res.status, key: res.error?.key }).toEqual({
          run,
          refusal: refusal.name,
          status: 422,
          key: refusal.key,
        });
        // Nothing issued, numbered or posted (a refused issue leaves its draft, which is deleted to compare).
        if (refusal.at === "issue") await w.api.sales.invoices.delete({ id: (await invoiceRows(w).where({ status: "draft" }).first()).id });
        expect({ run, after: await counts(w) }).toEqual({ run, after: before });

        // A credit note of part of the invoice: a random share of each of some of its lines, same rate and classifier.
        const part = lines
          .filter(() => random() < 0.7)
          .map((l) => ({
            ...l,
            quantity: new Decimal(l.quantity)
              .times(pick(["0.25", "0.5", "1"]))
              .toDecimalPlaces(4, Decimal.ROUND_DOWN)
              .toFixed(),
          }));
        const noteLines = part.length ? part : [lines[0]];
        const note = await w.api.sales.invoices.issue({
          id: (await draft(w, { type: "credit_note", creditedInvoiceId: inv.id, currency, lines: noteLines })).id,
        });
        await checkPosting(w, note, run, "credit");
        const after = await w.api.sales.invoices.get({ id: inv.id });
        expect({ run, credited: after.creditedAmount, outstanding: after.outstanding }).toEqual({
          run,
          credited: note.grossTotal,
          outstanding: new Decimal(inv.grossTotal).minus(note.grossTotal).toFixed(2),
        });
      }
    },
    4 * TEST_TIMEOUT_MS,
  );
});
