// sales/invoices: drafts (defaults, rules, drafts-only edits), EN 16931 totals, issue (gapless numbers under
// concurrency, the exact journal each document posts, partner snapshot, locked months, foreign currency), credit
// notes, list, PDF text, tenancy and scopes, idempotent issue, and a property: every issued document's posting
// balances and its receivable is the document's gross in EUR.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { Decimal } from "decimal.js";
import { startHarness, type ApiResponse, type Harness, type RequestOptions } from "../support/harness.js";
import { expectError } from "../support/expect.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const CREATE = "/v1/sales/invoices/create";
const UPDATE = "/v1/sales/invoices/update";
const DELETE = "/v1/sales/invoices/delete";
const ISSUE = "/v1/sales/invoices/issue";
const GET = "/v1/sales/invoices/get";
const LIST = "/v1/sales/invoices/list";
const PDF = "/v1/sales/invoices/pdf";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface World {
  companyId: string;
  o: RequestOptions;
  call(path: string, body: unknown, extra?: Partial<RequestOptions>): Promise<ApiResponse>;
}

const ADDRESS = { line1: "Gedimino pr. 1", city: "Vilnius", postalCode: "LT-01103", countryCode: "LT" };

/** A tenant with the lt-standard chart, a customer PIRKEJAS (14-day term), a supplier-only partner and two items. */
async function world(): Promise<World> {
  const t = await h.tenant({ vatCode: "LT100001919017", address: ADDRESS });
  const o = { key: t.apiKey, companyId: t.companyId };
  const w: World = { companyId: t.companyId, o, call: (path, body, extra = {}) => h.post(path, body, { ...o, ...extra }) };
  await ok(w, "/v1/ledger/accounts/apply-template", { template: "lt-standard" });
  await ok(w, "/v1/partners/create", {
    name: "Šiaurės žuvėdra UAB",
    code: "PIRKEJAS",
    vatCode: "LT119511515",
    registrationCode: "300000003",
    countryCode: "LT",
    address: { line1: "Ąžuolų g. 7", city: "Kaunas", postalCode: "LT-44001", countryCode: "LT" },
    paymentTermDays: 14,
  });
  await ok(w, "/v1/partners/create", { name: "Tiekėjas UAB", code: "TIEKEJAS", isCustomer: false, isSupplier: true });
  await ok(w, "/v1/catalog/items/create", { code: "KONS", name: "Konsultacija", type: "service", unit: "val.", vatRatePercent: "21", salePriceExclVat: "60" });
  await ok(w, "/v1/catalog/items/create", { code: "NOPRICE", name: "Be kainos", type: "product", unit: "vnt.", vatRatePercent: "21" });
  return w;
}

async function ok(w: World, path: string, body: unknown, extra: Partial<RequestOptions> = {}) {
  const res = await w.call(path, body, extra);
  if (res.status !== 200) throw new Error(`${path} ${JSON.stringify(body)} -> ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const line = (over: Record<string, unknown> = {}) => ({ description: "Paslauga", quantity: "1", unitPriceExclVat: "100", vatRatePercent: "21", ...over });
const draft = (w: World, over: Record<string, unknown> = {}) => ok(w, CREATE, { partnerCode: "PIRKEJAS", issueDate: "2026-03-10", lines: [line()], ...over });
const issued = async (w: World, over: Record<string, unknown> = {}) => ok(w, ISSUE, { id: (await draft(w, over)).id });

const invoiceEvents = async (w: World) =>
  (await h.db("webhook_events").where({ company_id: w.companyId }).whereLike("event_type", "sale_invoice.%").orderBy("seq")).map((e) => [e.event_type, e.data]);
const invoiceRows = (w: World) => h.db("sale_invoices").where({ company_id: w.companyId });
const journalOf = async (w: World, transactionId: string) => {
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
const E = (account: string, debit: string, credit: string, partner: string | null = null, currency: string | null = null, currencyAmount: string | null = null) => ({
  account,
  debit,
  credit,
  partner,
  currency,
  currencyAmount,
});

describe("create (draft)", () => {
  test("a draft has the defaults — due date from the partner's term, EUR, series SF, classifier PVM1 — no number and nothing posted", async () => {
    const w = await world();
    const body = await draft(w, { lines: [line({ itemCode: "KONS", description: undefined, unitPriceExclVat: undefined, vatRatePercent: undefined, quantity: "2.5" })] });
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
      dueDate: "2026-03-24",
      currency: "EUR",
      rate: null,
      creditedInvoiceId: null,
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
          netAmount: "150.00",
        },
      ],
      issuedAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const [row] = await invoiceRows(w);
    expect(row).toMatchObject({ id: body.id, status: "draft", number: null, journal_transaction_id: null, gross_total: "181.50" });
    expect(await h.db("journal_transactions").where({ company_id: w.companyId })).toHaveLength(0);
  });

  // Totals as EN 16931 computes them: line nets rounded to cents, VAT once per rate on their sum.
  test.each([
    ["VAT per rate, not per line: 3 × 0.07 at 21% is 0.04 VAT (per line it would be 3 × 0.01)", [line({ unitPriceExclVat: "0.07" }), line({ unitPriceExclVat: "0.07" }), line({ unitPriceExclVat: "0.07" })], "0.21", "0.04", "0.25"],
    ["a discount rounds the line net half-up: 3 × 19.99 less 12.5% = 52.47375 -> 52.47", [line({ quantity: "3", unitPriceExclVat: "19.99", discountPercent: "12.5" })], "52.47", "11.02", "63.49"],
    ["fractional quantity and price: 1.333 × 2.555555 = 3.406554815 -> 3.41", [line({ quantity: "1.333", unitPriceExclVat: "2.555555" })], "3.41", "0.72", "4.13"],
    [
      "two rates each rounded once: 10.05 at 21% (2.1105) and 10.05 at 12% PVM58 (1.206)",
      [line({ unitPriceExclVat: "10.05" }), line({ unitPriceExclVat: "10.05", vatRatePercent: "12", vatClassifier: "PVM58" })],
      "20.10",
      "3.32",
      "23.42",
    ],
    ["a 0% line with its classifier carries no VAT", [line({ unitPriceExclVat: "100" }), line({ unitPriceExclVat: "50", vatRatePercent: "0", vatClassifier: "PVM12" })], "150.00", "21.00", "171.00"],
  ])("%s", async (_name, lines, net, vat, gross) => {
    const w = await world();
    const body = await draft(w, { lines });
    expect([body.netTotal, body.vatTotal, body.grossTotal]).toEqual([net, vat, gross]);
    const [row] = await invoiceRows(w);
    expect([row.net_total, row.vat_total, row.gross_total]).toEqual([net, vat, gross]);
  });

  test("the breakdown splits a rate by classifier and gives the rounding cent to the largest, so it sums to the per-rate VAT", async () => {
    const w = await world();
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
    ["the 12% rate in 2025 (PVM58 begins on 2026-01-01)", { issueDate: "2025-12-20", lines: [line({ vatRatePercent: "12", vatClassifier: "PVM58" })] }, "vat_classifier.not_valid_on_date"],
    ["0% without a classifier (several share it)", { lines: [line({ vatRatePercent: "0" })] }, "vat_classifier.required"],
    ["an unknown classifier", { lines: [line({ vatClassifier: "PVM999" })] }, "vat_classifier.unknown"],
    ["PVM1 on a reduced rate", { lines: [line({ vatRatePercent: "5", vatClassifier: "PVM1" })] }, "vat_classifier.rate_mismatch"],
    ["a due date before the issue date", { dueDate: "2026-03-09" }, "sale_invoice.due_before_issue"],
    ["an unknown currency", { currency: "ABC" }, "currency.unknown"],
    ["a credit note without the invoice it credits", { type: "credit_note" }, "sale_invoice.credit_target_invalid"],
    ["an amount beyond what one document may carry", { lines: [line({ quantity: "999999999999", unitPriceExclVat: "999999999" })] }, "sale_invoice.total_too_large"],
  ])("%s -> 422, nothing stored", async (_name, over, key) => {
    const w = await world();
    const res = await w.call(CREATE, { partnerCode: "PIRKEJAS", issueDate: "2026-03-10", lines: [line()], ...over });
    expectError(res, 422, "unprocessable", key);
    expect(await invoiceRows(w)).toHaveLength(0);
    expect(await h.db("sale_invoice_lines").where({ company_id: w.companyId })).toHaveLength(0);
  });

  test("a December 2025 supply keeps its 9% in 2025, with its classifier", async () => {
    const w = await world();
    const body = await draft(w, { issueDate: "2025-12-31", lines: [line({ vatRatePercent: "9", vatClassifier: "PVM2" })] });
    expect(body.vatBreakdown).toEqual([{ vatRatePercent: "9.00", vatClassifier: "PVM2", taxableAmount: "100.00", vatAmount: "9.00" }]);
  });

  test.each([
    ["quantity 0", { lines: [line({ quantity: "0" })] }, "lines[0].quantity"],
    ["a negative price", { lines: [line({ unitPriceExclVat: "-1" })] }, "lines[0].unitPriceExclVat"],
    ["no lines", { lines: [] }, "lines"],
    ["a classifier outside the PVM codes", { lines: [line({ vatClassifier: "VAT1" })] }, "lines[0].vatClassifier"],
  ])("%s -> 400 naming the field", async (_name, over, field) => {
    const w = await world();
    const res = await w.call(CREATE, Object.assign({ partnerCode: "PIRKEJAS", issueDate: "2026-03-10", lines: [line()] }, over));
    expectError(res, 400, "validation");
    expect(Object.keys(res.body.error.fieldErrors)).toContain(field);
    expect(await invoiceRows(w)).toHaveLength(0);
  });
});

describe("drafts only: update and delete", () => {
  test("update replaces lines and recomputes totals; delete removes the draft and its lines", async () => {
    const w = await world();
    const d = await draft(w);
    const updated = await ok(w, UPDATE, { id: d.id, notes: "Ačiū!", lines: [line({ unitPriceExclVat: "10" }), line({ unitPriceExclVat: "20" })] });
    expect(updated).toMatchObject({ notes: "Ačiū!", netTotal: "30.00", vatTotal: "6.30", grossTotal: "36.30" });
    expect(updated.lines.map((l: any) => l.lineNo)).toEqual([1, 2]);
    expect(await h.db("sale_invoice_lines").where({ company_id: w.companyId, invoice_id: d.id })).toHaveLength(2);
    await ok(w, DELETE, { id: d.id });
    expect(await invoiceRows(w)).toHaveLength(0);
    expect(await h.db("sale_invoice_lines").where({ company_id: w.companyId })).toHaveLength(0);
  });

  test("an update whose new issue date makes a line's rate invalid is refused, the draft unchanged", async () => {
    const w = await world();
    const d = await draft(w, { issueDate: "2025-12-30", lines: [line({ vatRatePercent: "9", vatClassifier: "PVM2" })] });
    expectError(await w.call(UPDATE, { id: d.id, issueDate: "2026-01-02" }), 422, "unprocessable", "vat_classifier.not_valid_on_date");
    expect((await invoiceRows(w))[0].issue_date).toBe("2025-12-30");
  });

  test.each([
    ["update", UPDATE, (id: string) => ({ id, notes: "pakeista" })],
    ["delete", DELETE, (id: string) => ({ id })],
    ["issue again", ISSUE, (id: string) => ({ id })],
  ])("%s of an issued invoice -> 409 sale_invoice.not_draft, nothing changes", async (_name, path, body) => {
    const w = await world();
    const inv = await issued(w);
    const before = await invoiceRows(w);
    expectError(await w.call(path, body(inv.id)), 409, "conflict", "sale_invoice.not_draft");
    expect(await invoiceRows(w)).toEqual(before);
    expect(await h.db("journal_transactions").where({ company_id: w.companyId })).toHaveLength(1);
  });

  test("the database itself refuses to change or delete an issued invoice or its lines", async () => {
    const w = await world();
    const inv = await issued(w);
    await expect(h.db("sale_invoices").where({ id: inv.id }).update({ net_total: "1.00" })).rejects.toThrow(/cannot be changed/);
    await expect(h.db("sale_invoices").where({ id: inv.id }).update({ status: "draft" })).rejects.toThrow(/cannot be changed/);
    await expect(h.db("sale_invoices").where({ id: inv.id }).delete()).rejects.toThrow(/cannot be deleted/);
    await expect(h.db("sale_invoice_lines").where({ invoice_id: inv.id }).update({ quantity: "2" })).rejects.toThrow(/cannot change/);
    await expect(h.db("sale_invoice_lines").insert({ company_id: w.companyId, invoice_id: inv.id, line_no: 9, description: "x", quantity: 1, unit: "vnt.", unit_price: 1, vat_rate_percent: 21, vat_classifier: "PVM1", net_amount: 1 })).rejects.toThrow(/cannot change/);
    // Its settlement figures may still move (the bank work pays it).
    await h.db("sale_invoices").where({ id: inv.id }).update({ paid_amount: "1.00", status: "partially_paid" });
  });
});

describe("issue", () => {
  test("numbers SF-1, snapshots the buyer, posts receivable / revenue / VAT exactly, and keeps the snapshot when the partner changes", async () => {
    const w = await world();
    const d = await draft(w, { lines: [line({ unitPriceExclVat: "100" }), line({ unitPriceExclVat: "50", revenueAccountCode: "5001" }), line({ unitPriceExclVat: "10", vatRatePercent: "5", vatClassifier: "PVM3" })] });
    const inv = await ok(w, ISSUE, { id: d.id });
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
    await ok(w, "/v1/partners/update", { id: (await h.db("partners").where({ company_id: w.companyId, code: "PIRKEJAS" }).first()).id, name: "Naujas pavadinimas UAB" });
    const again = await ok(w, GET, { id: inv.id });
    expect(again.partner.name).toBe("Šiaurės žuvėdra UAB");
    const stillDraft = await draft(w);
    expect((await ok(w, GET, { id: stillDraft.id })).partner.name).toBe("Naujas pavadinimas UAB");
  });

  test("50 concurrent issues take SF-1..SF-50: consecutive, no gaps, no duplicates, one posting each", async () => {
    const w = await world();
    const drafts = [];
    for (let i = 0; i < 50; i++) drafts.push(await draft(w));
    const results = await Promise.all(drafts.map((d) => w.call(ISSUE, { id: d.id })));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    const numbers = results.map((r) => Number(r.body.number.slice(3))).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(await h.db("journal_transactions").where({ company_id: w.companyId, document_type: "sale_invoice" })).toHaveLength(50);
    const series = await h.db("number_series").where({ company_id: w.companyId, document_type: "sale_invoice" });
    expect(series).toMatchObject([{ prefix: "SF", year: 2026, next_number: "51" }]);
  });

  test("each year has its own series: SF-1 of 2026 and SF-1 of 2027 are two invoices", async () => {
    const w = await world();
    const a = await issued(w, { issueDate: "2026-12-31" });
    const b = await issued(w, { issueDate: "2027-01-01" });
    expect([a.number, b.number]).toEqual(["SF-1", "SF-1"]);
    expect((await h.db("number_series").where({ company_id: w.companyId }).orderBy("year")).map((s) => [s.year, s.next_number])).toEqual([
      [2026, "2"],
      [2027, "2"],
    ]);
  });

  test("into a locked month -> 409 period.locked; the draft stays a draft and no number is used", async () => {
    const w = await world();
    const first = await issued(w);
    await ok(w, "/v1/ledger/periods/lock", { month: "2026-04" });
    const d = await draft(w, { issueDate: "2026-04-15" });
    expectError(await w.call(ISSUE, { id: d.id }), 409, "conflict", "period.locked");
    expect((await h.db("sale_invoices").where({ id: d.id }).first()).status).toBe("draft");
    expect((await invoiceEvents(w)).map(([type, data]) => [type, (data as { number: string }).number])).toEqual([["sale_invoice.issued", "SF-1"]]);
    expect(await h.db("journal_transactions").where({ company_id: w.companyId })).toHaveLength(1);
    const next = await issued(w, { issueDate: "2026-05-02" });
    expect([first.number, next.number]).toEqual(["SF-1", "SF-2"]);
  });

  test("an idempotent retry of issue replays the same number; one posting", async () => {
    const w = await world();
    const d = await draft(w);
    const first = await w.call(ISSUE, { id: d.id }, { idempotencyKey: "issue-1" });
    const replay = await w.call(ISSUE, { id: d.id }, { idempotencyKey: "issue-1" });
    expect(first.status).toBe(200);
    expect(replay.status).toBe(200);
    expect(replay.headers.get("x-idempotent-replay")).toBe("true");
    expect(replay.body).toEqual(first.body);
    expect(await h.db("journal_transactions").where({ company_id: w.companyId })).toHaveLength(1);
  });

  test("an invoice that totals 0.00 -> 422 sale_invoice.nothing_to_post, no number used", async () => {
    const w = await world();
    const d = await draft(w, { lines: [line({ unitPriceExclVat: "0" })] });
    expectError(await w.call(ISSUE, { id: d.id }), 422, "unprocessable", "sale_invoice.nothing_to_post");
    expect(await h.db("number_series").where({ company_id: w.companyId })).toEqual([]);
  });
});

describe("foreign currency", () => {
  test("the company's override of the issue date: lines carry currency, amount and rate; EUR parts sum to the receivable", async () => {
    const w = await world();
    await ok(w, "/v1/reference/exchange-rates/set", { currency: "USD", date: "2026-03-10", rate: "1.0837" });
    const inv = await issued(w, { currency: "USD", lines: [line({ unitPriceExclVat: "333.33" }), line({ unitPriceExclVat: "0.99", vatRatePercent: "0", vatClassifier: "PVM12" })] });
    // 333.33 + 0.99 = 334.32 net; VAT 70.00 (333.33 × 21% = 69.9993); gross 404.32 USD = 373.09 EUR (404.32 / 1.0837 = 373.093...).
    expect(inv).toMatchObject({ currency: "USD", grossTotal: "404.32", grossTotalEur: "373.09", rate: { rate: "1.0837", source: "override", date: "2026-03-10" } });
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
    const w = await world();
    await h.db("exchange_rates").insert({ currency_code: "SEK", rate_date: "2026-03-06", rate: "11.2345" });
    const inv = await issued(w, { currency: "SEK", issueDate: "2026-03-09", lines: [line({ unitPriceExclVat: "1000" })] });
    expect(inv.rate).toEqual({ rate: "11.2345", source: "ecb", date: "2026-03-06" });
    expect(inv.grossTotalEur).toBe(new Decimal("1210").dividedBy("11.2345").toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2));
  });

  test("no rate within 7 days -> 422 fx.rate_missing; the draft stays a draft", async () => {
    const w = await world();
    const d = await draft(w, { currency: "NOK" });
    expectError(await w.call(ISSUE, { id: d.id }), 422, "unprocessable", "fx.rate_missing");
    expect((await h.db("sale_invoices").where({ id: d.id }).first()).status).toBe("draft");
    expect(await h.db("number_series").where({ company_id: w.companyId })).toEqual([]);
  });

  test("a catalog price is not taken as a price in another currency", async () => {
    const w = await world();
    const res = await w.call(CREATE, { partnerCode: "PIRKEJAS", issueDate: "2026-03-10", currency: "USD", lines: [{ itemCode: "KONS", quantity: "1" }] });
    expectError(res, 422, "unprocessable", "sale_invoice.line_incomplete");
    expect(Object.keys(res.body.error.fieldErrors)).toEqual(["lines[0].unitPriceExclVat"]);
  });
});

describe("credit notes", () => {
  const credit = async (w: World, invoiceId: string, price: string, extra: Record<string, unknown> = {}) =>
    w.call(ISSUE, { id: (await draft(w, { type: "credit_note", creditedInvoiceId: invoiceId, lines: [line({ unitPriceExclVat: price })], ...extra })).id });

  test("partial then full: KS-1 and KS-2 post the opposite entries; the invoice's outstanding falls to 0 and it becomes credited", async () => {
    const w = await world();
    const inv = await issued(w);
    const first = await credit(w, inv.id, "40");
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ type: "credit_note", number: "KS-1", grossTotal: "48.40", outstanding: "0.00", creditedInvoiceId: inv.id });
    expect(await journalOf(w, first.body.journalTransactionId)).toEqual([E("2410", "0.00", "48.40", "PIRKEJAS"), E("5000", "40.00", "0.00"), E("4492", "8.40", "0.00")]);
    expect(await ok(w, GET, { id: inv.id })).toMatchObject({ status: "issued", creditedAmount: "48.40", outstanding: "72.60" });
    expect((await invoiceEvents(w)).map(([type, data]) => [type, (data as { number: string }).number])).toEqual([
      ["sale_invoice.issued", "SF-1"],
      ["sale_invoice.credited", "KS-1"],
    ]);
    expect((await invoiceEvents(w))[1][1]).toEqual(first.body);
    const second = await credit(w, inv.id, "60");
    expect(second.body.number).toBe("KS-2");
    expect(await ok(w, GET, { id: inv.id })).toMatchObject({ status: "credited", creditedAmount: "121.00", outstanding: "0.00" });
  });

  test("crediting more than the gross -> 422 sale_invoice.credit_exceeds_gross, nothing posted", async () => {
    const w = await world();
    const inv = await issued(w);
    const res = await credit(w, inv.id, "100.01");
    expectError(res, 422, "unprocessable", "sale_invoice.credit_exceeds_gross");
    expect(await h.db("journal_transactions").where({ company_id: w.companyId })).toHaveLength(1);
    expect((await ok(w, GET, { id: inv.id })).creditedAmount).toBe("0.00");
  });

  test("on a paid invoice the credit note carries what is owed back as its outstanding", async () => {
    const w = await world();
    const inv = await issued(w);
    // The bank work will record payments; here the settlement columns are set as it will set them.
    await h.db("sale_invoices").where({ id: inv.id }).update({ paid_amount: "121.00", outstanding: "0.00", status: "paid" });
    const res = await credit(w, inv.id, "50");
    expect(res.body).toMatchObject({ grossTotal: "60.50", outstanding: "60.50" });
    expect(await ok(w, GET, { id: inv.id })).toMatchObject({ status: "paid", creditedAmount: "60.50", outstanding: "0.00" });
  });

  test.each([
    ["a draft invoice", async (w: World) => (await draft(w)).id],
    ["another partner's invoice", async (w: World) => {
      await ok(w, "/v1/partners/create", { name: "Kitas", code: "KITAS" });
      return (await issued(w, { partnerCode: "KITAS" })).id;
    }],
    ["an invoice in another currency", async (w: World) => {
      await ok(w, "/v1/reference/exchange-rates/set", { currency: "USD", date: "2026-03-10", rate: "1.1" });
      return (await issued(w, { currency: "USD" })).id;
    }],
  ])("crediting %s -> 422 sale_invoice.credit_target_invalid", async (_name, target) => {
    const w = await world();
    const id = await target(w);
    const before = (await invoiceRows(w)).length;
    expectError(await w.call(CREATE, { type: "credit_note", creditedInvoiceId: id, partnerCode: "PIRKEJAS", issueDate: "2026-03-10", currency: "EUR", lines: [line()] }), 422, "unprocessable", "sale_invoice.credit_target_invalid");
    expect(await invoiceRows(w)).toHaveLength(before);
  });
});

describe("list", () => {
  test("filters on status, partner, dates, overdue; totals over every matching row", async () => {
    const w = await world();
    await ok(w, "/v1/partners/create", { name: "Kitas", code: "KITAS" });
    const a = await issued(w, { issueDate: "2026-01-05", dueDate: "2026-01-10" });
    const b = await issued(w, { issueDate: "2026-02-05", partnerCode: "KITAS", lines: [line({ unitPriceExclVat: "10" })] });
    const c = await draft(w, { issueDate: "2099-01-01" });
    const ids = async (body: unknown) => (await ok(w, LIST, body)).rows.map((r: any) => r.id);
    expect(await ids({})).toEqual([c.id, b.id, a.id]);
    expect(await ids({ filter: [{ field: "status", op: "eq", value: "draft" }] })).toEqual([c.id]);
    expect(await ids({ filter: [{ field: "partnerCode", op: "eq", value: "KITAS" }] })).toEqual([b.id]);
    expect(await ids({ filter: [{ field: "overdue", op: "eq", value: true }] })).toEqual(
      // b is due 2026-02-19 (14 days), a on 2026-01-10; both past today's date once it is after them.
      [b.id, a.id].filter((id) => (id === a.id ? "2026-01-10" : "2026-02-19") < new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Vilnius" }).format(new Date())),
    );
    expect(await ids({ filter: [{ field: "issueDate", op: "gte", value: "2026-02-01" }], sort: [{ field: "issueDate", dir: "asc" }] })).toEqual([b.id, c.id]);
    const totals = await ok(w, LIST, { filter: [{ field: "status", op: "ne", value: "draft" }], totals: ["grossTotal", "outstanding", "netTotal"] });
    expect(totals.totals).toEqual({ grossTotal: "133.10", outstanding: "133.10", netTotal: "110.00" });
    expect(totals.rows[0].lines).toHaveLength(1);
    expectError(await w.call(LIST, { filter: [{ field: "noSuchField", op: "eq", value: 1 }] }), 400, "validation");
  });
});

describe("pdf", () => {
  test("renders seller, buyer, number, lines and totals with every Lithuanian letter, extracted back with pdf.js", async () => {
    const w = await world();
    await ok(w, "/v1/partners/update", { id: (await h.db("partners").where({ company_id: w.companyId, code: "PIRKEJAS" }).first()).id, name: "ĄČĘĖĮŠŲŪŽ ąčęėįšųūž UAB" });
    const inv = await issued(w, { notes: "Apmokėti per 14 dienų", lines: [line({ description: "Žąsų plunksnų pagalvė" })] });
    const res = await ok(w, PDF, { id: inv.id });
    expect(res).toMatchObject({ fileName: "SF-1.pdf", contentType: "application/pdf" });
    const bytes = Buffer.from(res.contentBase64, "base64");
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
    const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
    let text = "";
    for (let p = 1; p <= doc.numPages; p++) {
      const content = await (await doc.getPage(p)).getTextContent();
      text += content.items.map((i: any) => ("str" in i ? i.str : "")).join(" ") + "\n";
    }
    for (const expected of [
      "PVM SĄSKAITA FAKTŪRA",
      "SF-1",
      "ĄČĘĖĮŠŲŪŽ ąčęėįšųūž UAB",
      "LT119511515",
      "300000003",
      "Žąsų plunksnų pagalvė",
      "Bandymas UAB",
      "LT100001919017",
      "121.00 EUR",
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
    const w = await world();
    const other = await world();
    const d = await draft(other);
    for (const [path, body] of [
      [GET, { id: d.id }],
      [ISSUE, { id: d.id }],
      [UPDATE, { id: d.id, notes: "x" }],
      [DELETE, { id: d.id }],
      [PDF, { id: d.id }],
    ] as const) {
      expectError(await w.call(path, body), 404, "not_found", "sale_invoice.not_found");
    }
    expect((await h.db("sale_invoices").where({ id: d.id }).first()).status).toBe("draft");
    expect((await ok(w, LIST, {})).rows).toEqual([]);
  });

  test("a sales:read key lists but cannot create or issue (403); a purchases key cannot read sales", async () => {
    const w = await world();
    const d = await draft(w);
    const read = await ok(w, "/v1/account/api-keys/create", { name: "read", scopes: ["sales:read"] });
    const purchases = await ok(w, "/v1/account/api-keys/create", { name: "p", scopes: ["purchases:write"] });
    const as = (key: string) => ({ key, companyId: w.companyId });
    expect((await h.post(LIST, {}, as(read.key))).status).toBe(200);
    expectError(await h.post(ISSUE, { id: d.id }, as(read.key)), 403, "forbidden");
    expectError(await h.post(CREATE, { partnerCode: "PIRKEJAS", lines: [line()] }, as(read.key)), 403, "forbidden");
    expectError(await h.post(GET, { id: d.id }, as(purchases.key)), 403, "forbidden");
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

  test("every issued invoice's transaction balances and its receivable is the gross in EUR (40 invoices, EUR, USD and JPY)", async () => {
    const w = await world();
    await ok(w, "/v1/reference/exchange-rates/set", { currency: "USD", date: "2026-03-10", rate: "1.08371234" });
    await ok(w, "/v1/reference/exchange-rates/set", { currency: "JPY", date: "2026-03-10", rate: "161.37" });
    const random = rng(20261124);
    const pick = <T,>(xs: T[]) => xs[Math.floor(random() * xs.length)];
    for (let n = 0; n < 40; n++) {
      const currency = pick(["EUR", "USD", "JPY"]);
      const lines = Array.from({ length: 1 + Math.floor(random() * 5) }, () => {
        const rate = pick([
          ["21", "PVM1"],
          ["12", "PVM58"],
          ["5", "PVM3"],
          ["0", "PVM12"],
        ]);
        return line({
          quantity: new Decimal(100 + Math.floor(random() * 1000)).dividedBy(100).toFixed(),
          unitPriceExclVat: new Decimal(1 + Math.floor(random() * 1_000_000)).dividedBy(100).toFixed(2),
          discountPercent: pick(["0", "5", "12.5"]),
          vatRatePercent: rate[0],
          vatClassifier: rate[1],
        });
      });
      const inv = await issued(w, { currency, lines });
      const entries = await journalOf(w, inv.journalTransactionId);
      const debit = entries.reduce((s, e) => s.plus(e.debit), new Decimal(0));
      const credit = entries.reduce((s, e) => s.plus(e.credit), new Decimal(0));
      expect({ n, debit: debit.toFixed(2) }).toEqual({ n, debit: credit.toFixed(2) });
      const expectedEur = new Decimal(inv.grossTotal).dividedBy(inv.rate.rate).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
      expect({ n, receivable: entries[0].debit }).toEqual({ n, receivable: expectedEur });
      expect(inv.grossTotalEur).toBe(expectedEur);
      // Each converted line is within a cent of its exact conversion.
      for (const e of entries.slice(1)) {
        if (e.currencyAmount === null) continue;
        const exact = new Decimal(e.currencyAmount).dividedBy(inv.rate.rate);
        expect(exact.minus(e.credit).abs().lessThan("0.01")).toBe(true);
      }
    }
  });
});
