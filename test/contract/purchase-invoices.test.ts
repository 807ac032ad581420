// purchases/invoices: drafts, the supplier's number unique per supplier, register posting each VAT treatment
// exactly (standard, non-deductible VAT, reverse charge, import/exempt), foreign currency, credit notes,
// drafts-only edits, a locked month, list, tenancy and scopes.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { Decimal } from "decimal.js";
import { startHarness, type ApiResponse, type Harness, type RequestOptions } from "../support/harness.js";
import { expectError } from "../support/expect.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const CREATE = "/v1/purchases/invoices/create";
const UPDATE = "/v1/purchases/invoices/update";
const DELETE = "/v1/purchases/invoices/delete";
const REGISTER = "/v1/purchases/invoices/register";
const GET = "/v1/purchases/invoices/get";
const LIST = "/v1/purchases/invoices/list";

interface World {
  companyId: string;
  rules: Record<string, string>;
  call(path: string, body: unknown, extra?: Partial<RequestOptions>): Promise<ApiResponse>;
}

async function ok(w: Pick<World, "call">, path: string, body: unknown) {
  const res = await w.call(path, body);
  if (res.status !== 200) throw new Error(`${path} ${JSON.stringify(body)} -> ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A tenant with the lt-standard chart, a supplier TIEKEJAS (30-day term), a customer-only partner; the rules' accounts. */
async function world(): Promise<World> {
  const t = await h.tenant();
  const o = { key: t.apiKey, companyId: t.companyId };
  const w = { companyId: t.companyId, rules: {} as Record<string, string>, call: (path: string, body: unknown, extra: Partial<RequestOptions> = {}) => h.post(path, body, { ...o, ...extra }) };
  await ok(w, "/v1/ledger/accounts/apply-template", { template: "lt-standard" });
  await ok(w, "/v1/partners/create", { name: "Tiekėjas UAB", code: "TIEKEJAS", isCustomer: false, isSupplier: true, paymentTermDays: 30, vatCode: "DE123456789", countryCode: "DE" });
  await ok(w, "/v1/partners/create", { name: "Pirkėjas", code: "PIRKEJAS" });
  const rules = await ok(w, "/v1/ledger/posting-rules/list", { pageSize: 100 });
  w.rules = Object.fromEntries(rules.rows.map((r: { rule: string; accountCode: string }) => [r.rule, r.accountCode]));
  return w;
}

const line = (over: Record<string, unknown> = {}) => ({ description: "Prekės", quantity: "1", unitPriceExclVat: "100", vatRatePercent: "21", ...over });
let docSeq = 0;
const draft = (w: World, over: Record<string, unknown> = {}) =>
  ok(w, CREATE, { partnerCode: "TIEKEJAS", documentNumber: `INV-${++docSeq}`, documentDate: "2026-03-10", lines: [line()], ...over });
const registered = async (w: World, over: Record<string, unknown> = {}) => ok(w, REGISTER, { id: (await draft(w, over)).id });

const journalOf = async (w: World, transactionId: string) =>
  (await h.db("journal_entries").where({ company_id: w.companyId, transaction_id: transactionId }).orderBy("line_no")).map((e) => [
    e.account_code,
    new Decimal(e.debit).toFixed(2),
    new Decimal(e.credit).toFixed(2),
    e.partner_code,
    e.currency,
  ]);
const rows = (w: World) => h.db("purchase_invoices").where({ company_id: w.companyId });

describe("create (draft)", () => {
  test("a draft: due date from the supplier's term, standard treatment, no posting; the supplier's number is unique per supplier", async () => {
    const w = await world();
    const d = await draft(w, { documentNumber: "A-1" });
    expect(d).toMatchObject({
      type: "invoice",
      status: "draft",
      documentNumber: "A-1",
      partnerCode: "TIEKEJAS",
      dueDate: "2026-04-09",
      vatTreatment: "standard",
      currency: "EUR",
      netTotal: "100.00",
      vatTotal: "21.00",
      grossTotal: "121.00",
      journalTransactionId: null,
      rate: null,
      lines: [{ lineNo: 1, vatDeductible: true, expenseAccountCode: null, vatClassifier: "PVM1", netAmount: "100.00" }],
    });
    expectError(await w.call(CREATE, { partnerCode: "TIEKEJAS", documentNumber: "A-1", documentDate: "2026-03-11", lines: [line()] }), 409, "conflict", "purchase_invoice.document_number_taken");
    await ok(w, "/v1/partners/create", { name: "Kitas tiekėjas", code: "KITAS", isSupplier: true });
    await draft(w, { partnerCode: "KITAS", documentNumber: "A-1" });
    expect(await rows(w)).toHaveLength(2);
    const other = await draft(w, { documentNumber: "A-2" });
    expectError(await w.call(UPDATE, { id: other.id, documentNumber: "A-1" }), 409, "conflict", "purchase_invoice.document_number_taken");
    expect((await h.db("purchase_invoices").where({ id: other.id }).first()).document_number).toBe("A-2");
  });

  test.each([
    ["a partner that is not a supplier", { partnerCode: "PIRKEJAS" }, "purchase_invoice.partner_not_supplier"],
    ["an unknown partner", { partnerCode: "NERA" }, "purchase_invoice.partner_unknown"],
    ["an income account as the cost", { lines: [line({ expenseAccountCode: "5000" })] }, "purchase_invoice.account_invalid"],
    ["a VAT rate on an import document", { vatTreatment: "import" }, "purchase_invoice.vat_not_applicable"],
    ["a VAT rate on an exempt document", { vatTreatment: "exempt", lines: [line({ vatRatePercent: "5", vatClassifier: "PVM3" })] }, "purchase_invoice.vat_not_applicable"],
    ["the 9% rate in 2026", { lines: [line({ vatRatePercent: "9", vatClassifier: "PVM2" })] }, "vat_classifier.not_valid_on_date"],
    ["a due date before the document date", { dueDate: "2026-03-01" }, "purchase_invoice.due_before_document"],
  ])("%s -> 422, nothing stored", async (_name, over, key) => {
    const w = await world();
    expectError(await w.call(CREATE, { partnerCode: "TIEKEJAS", documentNumber: "X-1", documentDate: "2026-03-10", lines: [line()], ...over }), 422, "unprocessable", key);
    expect(await rows(w)).toHaveLength(0);
    expect(await h.db("purchase_invoice_lines").where({ company_id: w.companyId })).toHaveLength(0);
  });
});

describe("register: the posting of each VAT treatment", () => {
  test("standard: cost per account, input VAT, payable for the gross with the partner", async () => {
    const w = await world();
    const inv = await registered(w, { lines: [line({ unitPriceExclVat: "100" }), line({ unitPriceExclVat: "40" })] });
    expect(inv).toMatchObject({ status: "registered", grossTotal: "169.40", grossTotalEur: "169.40", outstanding: "169.40", rate: { rate: "1", source: "base" } });
    expect(await journalOf(w, inv.journalTransactionId)).toEqual([
      [w.rules["purchases.payables"], "0.00", "169.40", "TIEKEJAS", null],
      [w.rules["purchases.expense"], "140.00", "0.00", null, null],
      [w.rules["purchases.vatReceivable"], "29.40", "0.00", null, null],
    ]);
    const tx = await h.db("journal_transactions").where({ id: inv.journalTransactionId }).first();
    expect(tx).toMatchObject({ document_type: "purchase_invoice", source_type: "purchase_invoice", source_id: inv.id, reference: inv.documentNumber });
    const events = await h.db("webhook_events").where({ company_id: w.companyId, event_type: "purchase_invoice.registered" });
    expect(events.map((e) => e.data)).toEqual([inv]);
  });

  test("non-deductible VAT goes to the non-deductible VAT rule's account; deductible VAT stays input VAT", async () => {
    const w = await world();
    const inv = await registered(w, { lines: [line({ unitPriceExclVat: "100" }), line({ unitPriceExclVat: "50", vatDeductible: false })] });
    // VAT 31.50 on 150.00, shared by net: 21.00 deductible, 10.50 not.
    expect(await journalOf(w, inv.journalTransactionId)).toEqual([
      [w.rules["purchases.payables"], "0.00", "181.50", "TIEKEJAS", null],
      [w.rules["purchases.expense"], "150.00", "0.00", null, null],
      [w.rules["purchases.vatReceivable"], "21.00", "0.00", null, null],
      [w.rules["purchases.vatNonDeductible"], "10.50", "0.00", null, null],
    ]);
  });

  test("reverse charge: the payable is the net; the VAT is self-assessed, input and output", async () => {
    const w = await world();
    const inv = await registered(w, { vatTreatment: "reverse_charge", lines: [line({ unitPriceExclVat: "200" })] });
    expect(inv).toMatchObject({ netTotal: "200.00", vatTotal: "0.00", grossTotal: "200.00", outstanding: "200.00" });
    expect(inv.vatBreakdown).toEqual([{ vatRatePercent: "21.00", vatClassifier: "PVM1", taxableAmount: "200.00", vatAmount: "42.00" }]);
    expect(await journalOf(w, inv.journalTransactionId)).toEqual([
      [w.rules["purchases.payables"], "0.00", "200.00", "TIEKEJAS", null],
      [w.rules["purchases.reverseChargeVatOutput"], "0.00", "42.00", null, null],
      [w.rules["purchases.expense"], "200.00", "0.00", null, null],
      [w.rules["purchases.reverseChargeVatInput"], "42.00", "0.00", null, null],
    ]);
  });

  test("import: no VAT on the document (it is paid at customs); lines default to 0%", async () => {
    const w = await world();
    const inv = await registered(w, { vatTreatment: "import", lines: [{ description: "Įranga", quantity: "2", unitPriceExclVat: "300", vatClassifier: "PVM5" }] });
    expect(inv).toMatchObject({ vatTotal: "0.00", grossTotal: "600.00" });
    expect(await journalOf(w, inv.journalTransactionId)).toEqual([
      [w.rules["purchases.payables"], "0.00", "600.00", "TIEKEJAS", null],
      [w.rules["purchases.expense"], "600.00", "0.00", null, null],
    ]);
  });

  test("foreign currency at the rate of the document date: each side sums to the payable in EUR", async () => {
    const w = await world();
    await ok(w, "/v1/reference/exchange-rates/set", { currency: "USD", date: "2026-03-10", rate: "1.0837" });
    const inv = await registered(w, { currency: "USD", lines: [line({ unitPriceExclVat: "333.33" }), line({ unitPriceExclVat: "10", vatDeductible: false })] });
    const entries = await journalOf(w, inv.journalTransactionId);
    const debit = entries.reduce((s, e) => s.plus(e[1] as string), new Decimal(0));
    const credit = entries.reduce((s, e) => s.plus(e[2] as string), new Decimal(0));
    expect(debit.toFixed(2)).toBe(credit.toFixed(2));
    expect(inv.grossTotalEur).toBe(new Decimal(inv.grossTotal).dividedBy("1.0837").toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2));
    expect(entries[0]).toEqual([w.rules["purchases.payables"], "0.00", inv.grossTotalEur, "TIEKEJAS", "USD"]);
  });

  test("into a locked month -> 409; no rate -> 422 fx.rate_missing; the draft stays a draft", async () => {
    const w = await world();
    await ok(w, "/v1/ledger/periods/lock", { month: "2026-03" });
    const d = await draft(w);
    expectError(await w.call(REGISTER, { id: d.id }), 409, "conflict", "period.locked");
    const usd = await draft(w, { documentDate: "2026-04-10", currency: "CHF" });
    expectError(await w.call(REGISTER, { id: usd.id }), 422, "unprocessable", "fx.rate_missing");
    expect((await rows(w)).map((r) => r.status)).toEqual(["draft", "draft"]);
    expect(await h.db("webhook_events").where({ company_id: w.companyId, event_type: "purchase_invoice.registered" })).toEqual([]);
    expect(await h.db("journal_transactions").where({ company_id: w.companyId })).toHaveLength(0);
  });
});

describe("drafts only, credit notes", () => {
  test("update, delete and register of a registered invoice -> 409 purchase_invoice.not_draft; the database refuses the change too", async () => {
    const w = await world();
    const inv = await registered(w);
    for (const [path, body] of [
      [UPDATE, { id: inv.id, notes: "x" }],
      [DELETE, { id: inv.id }],
      [REGISTER, { id: inv.id }],
    ] as const) {
      expectError(await w.call(path, body), 409, "conflict", "purchase_invoice.not_draft");
    }
    await expect(h.db("purchase_invoices").where({ id: inv.id }).update({ net_total: "1" })).rejects.toThrow(/cannot be changed/);
    expect(await h.db("journal_transactions").where({ company_id: w.companyId })).toHaveLength(1);
  });

  test("a credit note posts the opposite and lowers the invoice's outstanding; more than the gross -> 422", async () => {
    const w = await world();
    const inv = await registered(w);
    const note = await registered(w, { type: "credit_note", creditedInvoiceId: inv.id, lines: [line({ unitPriceExclVat: "100" })] });
    expect(await journalOf(w, note.journalTransactionId)).toEqual([
      [w.rules["purchases.payables"], "121.00", "0.00", "TIEKEJAS", null],
      [w.rules["purchases.expense"], "0.00", "100.00", null, null],
      [w.rules["purchases.vatReceivable"], "0.00", "21.00", null, null],
    ]);
    expect(await ok(w, GET, { id: inv.id })).toMatchObject({ status: "credited", creditedAmount: "121.00", outstanding: "0.00" });
    const more = await draft(w, { type: "credit_note", creditedInvoiceId: inv.id, lines: [line({ unitPriceExclVat: "0.01" })] });
    expectError(await w.call(REGISTER, { id: more.id }), 422, "unprocessable", "purchase_invoice.credit_exceeds_gross");
  });
});

describe("list, tenancy and scopes", () => {
  test("filters and totals; another account sees nothing and gets 404; a purchases:read key cannot register", async () => {
    const w = await world();
    const a = await registered(w, { documentDate: "2026-01-05" });
    const b = await draft(w, { documentDate: "2026-02-05", vatTreatment: "reverse_charge" });
    const list = await ok(w, LIST, { totals: ["grossTotal"], sort: [{ field: "documentDate", dir: "asc" }] });
    expect(list.rows.map((r: any) => r.id)).toEqual([a.id, b.id]);
    expect(list.totals).toEqual({ grossTotal: "221.00" });
    expect((await ok(w, LIST, { filter: [{ field: "vatTreatment", op: "eq", value: "reverse_charge" }] })).rows.map((r: any) => r.id)).toEqual([b.id]);
    const other = await world();
    expectError(await other.call(GET, { id: a.id }), 404, "not_found", "purchase_invoice.not_found");
    expectError(await other.call(REGISTER, { id: b.id }), 404, "not_found", "purchase_invoice.not_found");
    expect((await ok(other, LIST, {})).rows).toEqual([]);
    const read = await ok(w, "/v1/account/api-keys/create", { name: "read", scopes: ["purchases:read"] });
    expectError(await h.post(REGISTER, { id: b.id }, { key: read.key, companyId: w.companyId }), 403, "forbidden");
    expect((await h.db("purchase_invoices").where({ id: b.id }).first()).status).toBe("draft");
  });
});
