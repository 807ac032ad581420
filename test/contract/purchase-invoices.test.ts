// purchases/invoices: drafts, the supplier's number unique per supplier, register posting each VAT treatment
// exactly (standard, non-deductible VAT, reverse charge at the standard rate with its classifiers, import/exempt),
// the classifiers each treatment carries, the tax point (supplyDate), foreign currency (override and ECB, exact
// entries), credit notes (at the invoice's tax point, on a paid invoice, their event), partner snapshot, idempotent
// register, drafts-only edits, a locked month, list, tenancy and scopes.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { Decimal } from "decimal.js";
import { startHarness, type Harness } from "../support/harness.js";
import { expectApiError, invalid } from "../support/expect.js";
import { world, type World } from "../support/world.js";
import { keyWith } from "../support/keys.js";
import type { RequestBody } from "../../sdk/typescript/src/index.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

type CreateBody = RequestBody<"purchases_invoices_create">;

type PurchasesWorld = World & { rules: Record<string, string> };

/** A tenant with the lt-standard chart, a supplier TIEKEJAS (30-day term), a customer-only partner; the rules' accounts. */
async function purchasesWorld(): Promise<PurchasesWorld> {
  const w = await world(h, {
    partners: [
      { name: "Tiekėjas UAB", code: "TIEKEJAS", isCustomer: false, isSupplier: true, paymentTermDays: 30, vatCode: "DE123456789", countryCode: "DE" },
      { name: "Pirkėjas", code: "PIRKEJAS" },
      { name: "Vietinis tiekėjas UAB", code: "LTTIEK", isCustomer: false, isSupplier: true, countryCode: "LT" },
      { name: "US Supplier Inc.", code: "USTIEK", isCustomer: false, isSupplier: true, countryCode: "US" },
    ],
    items: [
      { code: "PREKE", name: "Prekė", type: "product", unit: "vnt.", vatRatePercent: "21" },
      { code: "PASL", name: "Paslauga", type: "service", unit: "val.", vatRatePercent: "21" },
    ],
  });
  const rules = await w.api.ledger.postingRules.list({ pageSize: 100 });
  return { ...w, rules: Object.fromEntries(rules.rows.map((r) => [r.rule, r.accountCode])) };
}

const line = (over: Record<string, unknown> = {}) => ({ description: "Prekės", quantity: "1", unitPriceExclVat: "100", vatRatePercent: "21", ...over });
let docSeq = 0;
const draft = (w: PurchasesWorld, over: Record<string, unknown> = {}) =>
  w.api.purchases.invoices.create({ partnerCode: "TIEKEJAS", documentNumber: `INV-${++docSeq}`, documentDate: "2026-03-10", lines: [line()], ...over });
const registered = async (w: PurchasesWorld, over: Record<string, unknown> = {}) => w.api.purchases.invoices.register({ id: (await draft(w, over)).id });

const journalOf = async (w: PurchasesWorld, transactionId: string | null) =>
  (await h.db("journal_entries").where({ company_id: w.companyId, transaction_id: transactionId }).orderBy("line_no")).map((e) => [
    e.account_code,
    new Decimal(e.debit).toFixed(2),
    new Decimal(e.credit).toFixed(2),
    e.partner_code,
    e.currency,
  ]);
const rows = (w: PurchasesWorld) => h.db("purchase_invoices").where({ company_id: w.companyId });

describe("create (draft)", () => {
  test("a draft: due date from the supplier's term, standard treatment, no posting; the supplier's number is unique per supplier", async () => {
    const w = await purchasesWorld();
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
    await expectApiError(
      w.api.purchases.invoices.create({ partnerCode: "TIEKEJAS", documentNumber: "A-1", documentDate: "2026-03-11", lines: [line()] }),
      409,
      "conflict",
      "purchase_invoice.document_number_taken",
    );
    await w.api.partners.create({ name: "Kitas tiekėjas", code: "KITAS", isSupplier: true });
    await draft(w, { partnerCode: "KITAS", documentNumber: "A-1" });
    expect(await rows(w)).toHaveLength(2);
    const other = await draft(w, { documentNumber: "A-2" });
    await expectApiError(w.api.purchases.invoices.update({ id: other.id, documentNumber: "A-1" }), 409, "conflict", "purchase_invoice.document_number_taken");
    expect((await h.db("purchase_invoices").where({ id: other.id }).first()).document_number).toBe("A-2");
  });

  test.each<[string, Partial<CreateBody>, string]>([
    ["a partner that is not a supplier", { partnerCode: "PIRKEJAS" }, "purchase_invoice.partner_not_supplier"],
    ["an unknown partner", { partnerCode: "NERA" }, "purchase_invoice.partner_unknown"],
    ["an income account as the cost", { lines: [line({ expenseAccountCode: "5000" })] }, "purchase_invoice.account_invalid"],
    ["a VAT rate on an import document", { vatTreatment: "import" }, "purchase_invoice.vat_not_applicable"],
    [
      "a VAT rate on an exempt document",
      { vatTreatment: "exempt", lines: [line({ vatRatePercent: "5", vatClassifier: "PVM3" })] },
      "purchase_invoice.vat_not_applicable",
    ],
    ["the 9% rate in 2026", { lines: [line({ vatRatePercent: "9", vatClassifier: "PVM2" })] }, "vat_classifier.not_valid_on_date"],
    ["a due date before the document date", { dueDate: "2026-03-01" }, "purchase_invoice.due_before_document"],
  ])("%s -> 422, nothing stored", async (_name, over, key) => {
    const w = await purchasesWorld();
    await expectApiError(
      w.api.purchases.invoices.create({ partnerCode: "TIEKEJAS", documentNumber: "X-1", documentDate: "2026-03-10", lines: [line()], ...over }),
      422,
      "unprocessable",
      key,
    );
    expect(await rows(w)).toHaveLength(0);
    expect(await h.db("purchase_invoice_lines").where({ company_id: w.companyId })).toHaveLength(0);
  });
});

describe("register: the posting of each VAT treatment", () => {
  test("standard: cost per account, input VAT, payable for the gross with the partner", async () => {
    const w = await purchasesWorld();
    const inv = await registered(w, { lines: [line({ unitPriceExclVat: "100" }), line({ unitPriceExclVat: "40" })] });
    expect(inv).toMatchObject({
      status: "registered",
      grossTotal: "169.40",
      grossTotalEur: "169.40",
      outstanding: "169.40",
      rate: { rate: "1", source: "base" },
    });
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
    const w = await purchasesWorld();
    const inv = await registered(w, { lines: [line({ unitPriceExclVat: "100" }), line({ unitPriceExclVat: "50", vatDeductible: false })] });
    // VAT 31.50 on 150.00, shared by net: 21.00 deductible, 10.50 not.
    expect(await journalOf(w, inv.journalTransactionId)).toEqual([
      [w.rules["purchases.payables"], "0.00", "181.50", "TIEKEJAS", null],
      [w.rules["purchases.expense"], "150.00", "0.00", null, null],
      [w.rules["purchases.vatReceivable"], "21.00", "0.00", null, null],
      [w.rules["purchases.vatNonDeductible"], "10.50", "0.00", null, null],
    ]);
  });

  test("reverse charge: the payable is the net; the VAT is self-assessed at the standard rate, input and output, under the acquisition's classifier", async () => {
    const w = await purchasesWorld();
    // A service from a German VAT payer: PVM21 (not PVM1, an ordinary domestic supply); the rate left out is 21%.
    const inv = await registered(w, {
      vatTreatment: "reverse_charge",
      lines: [{ description: "Konsultacija", quantity: "1", unitPriceExclVat: "200", vatClassifier: "PVM21" }],
    });
    expect(inv).toMatchObject({ netTotal: "200.00", vatTotal: "0.00", grossTotal: "200.00", outstanding: "200.00" });
    expect(inv.lines.map((l: any) => [l.vatRatePercent, l.vatClassifier])).toEqual([["21.00", "PVM21"]]);
    expect(inv.vatBreakdown).toEqual([{ vatRatePercent: "21.00", vatClassifier: "PVM21", taxableAmount: "200.00", vatAmount: "42.00" }]);
    expect(await journalOf(w, inv.journalTransactionId)).toEqual([
      [w.rules["purchases.payables"], "0.00", "200.00", "TIEKEJAS", null],
      [w.rules["purchases.reverseChargeVatOutput"], "0.00", "42.00", null, null],
      [w.rules["purchases.expense"], "200.00", "0.00", null, null],
      [w.rules["purchases.reverseChargeVatInput"], "42.00", "0.00", null, null],
    ]);
  });

  test("import: no VAT on the document (it is paid at customs); lines default to 0%", async () => {
    const w = await purchasesWorld();
    const inv = await registered(w, {
      vatTreatment: "import",
      lines: [{ description: "Įranga", quantity: "2", unitPriceExclVat: "300", vatClassifier: "PVM5" }],
    });
    expect(inv).toMatchObject({ vatTotal: "0.00", grossTotal: "600.00" });
    expect(await journalOf(w, inv.journalTransactionId)).toEqual([
      [w.rules["purchases.payables"], "0.00", "600.00", "TIEKEJAS", null],
      [w.rules["purchases.expense"], "600.00", "0.00", null, null],
    ]);
  });

  test("foreign currency at the company's rate of the document date: the exact entries, each side summing to the payable in EUR", async () => {
    const w = await purchasesWorld();
    await w.api.reference.exchangeRates.set({ currency: "USD", date: "2026-03-10", rate: "1.0837" });
    const inv = await registered(w, { currency: "USD", lines: [line({ unitPriceExclVat: "333.33" }), line({ unitPriceExclVat: "10", vatDeductible: false })] });
    // Nets 343.33 USD, VAT 72.10 (343.33 × 21% = 72.0993) shared by net: 70.00 deductible, 2.10 not; payable 415.43 USD
    // = 383.34 EUR (415.43 / 1.0837 = 383.3441...). The debits in EUR: 343.33 / 1.0837 = 316.8128 -> 316.81, 70.00 ->
    // 64.5935 -> 64.59, 2.10 -> 1.9378 -> 1.94: 383.34 together.
    expect(inv).toMatchObject({ grossTotal: "415.43", grossTotalEur: "383.34", rate: { rate: "1.0837", source: "override", date: "2026-03-10" } });
    const entries = await h.db("journal_entries").where({ company_id: w.companyId, transaction_id: inv.journalTransactionId }).orderBy("line_no");
    expect(entries.map((e) => [e.account_code, e.debit, e.credit, e.partner_code, e.currency, e.currency_amount, e.rate])).toEqual([
      [w.rules["purchases.payables"], "0.00", "383.34", "TIEKEJAS", "USD", "415.43", "1.08370000"],
      [w.rules["purchases.expense"], "316.81", "0.00", null, "USD", "343.33", "1.08370000"],
      [w.rules["purchases.vatReceivable"], "64.59", "0.00", null, "USD", "70.00", "1.08370000"],
      [w.rules["purchases.vatNonDeductible"], "1.94", "0.00", null, "USD", "2.10", "1.08370000"],
    ]);
  });

  test("an ECB rate found 3 days back is used and named", async () => {
    const w = await purchasesWorld();
    await h.db("exchange_rates").insert({ currency_code: "SEK", rate_date: "2026-03-06", rate: "11.2345" });
    const inv = await registered(w, { currency: "SEK", documentDate: "2026-03-09", lines: [line({ unitPriceExclVat: "1000" })] });
    // 1210.00 SEK / 11.2345 = 107.7039... EUR.
    expect(inv).toMatchObject({ rate: { rate: "11.2345", source: "ecb", date: "2026-03-06" }, grossTotal: "1210.00", grossTotalEur: "107.70" });
    expect((await journalOf(w, inv.journalTransactionId))[0]).toEqual([w.rules["purchases.payables"], "0.00", "107.70", "TIEKEJAS", "SEK"]);
  });

  test("into a locked month -> 409; no rate -> 422 fx.rate_missing; the draft stays a draft", async () => {
    const w = await purchasesWorld();
    const d = await draft(w);
    await w.api.ledger.periods.lock({ month: "2026-03" });
    await expectApiError(w.api.purchases.invoices.register({ id: d.id }), 409, "conflict", "period.locked");
    const usd = await draft(w, { documentDate: "2026-04-10", currency: "CHF" });
    await expectApiError(w.api.purchases.invoices.register({ id: usd.id }), 422, "unprocessable", "fx.rate_missing");
    expect((await rows(w)).map((r) => r.status)).toEqual(["draft", "draft"]);
    expect(await h.db("webhook_events").where({ company_id: w.companyId, event_type: "purchase_invoice.registered" })).toEqual([]);
    expect(await h.db("journal_transactions").where({ company_id: w.companyId })).toHaveLength(0);
  });
});

describe("the VAT classifiers each treatment carries", () => {
  // Reverse charge: by default the classifier the supplier's country and the item's type name; never PVM1.
  test.each([
    {
      name: "an EU supplier's goods: PVM16 (intra-Community acquisition)",
      partner: "TIEKEJAS",
      line: { itemCode: "PREKE", quantity: "1", unitPriceExclVat: "100" },
      classifier: "PVM16",
    },
    { name: "an EU supplier's service: PVM21", partner: "TIEKEJAS", line: { itemCode: "PASL", quantity: "1", unitPriceExclVat: "100" }, classifier: "PVM21" },
    {
      name: "a domestic supplier: PVM25 (domestic reverse charge)",
      partner: "LTTIEK",
      line: { itemCode: "PASL", quantity: "1", unitPriceExclVat: "100" },
      classifier: "PVM25",
    },
    {
      name: "a service from outside the EU: PVM20",
      partner: "USTIEK",
      line: { itemCode: "PASL", quantity: "1", unitPriceExclVat: "100" },
      classifier: "PVM20",
    },
    {
      name: "a line without an item naming its classifier, no rate: the standard rate",
      partner: "TIEKEJAS",
      line: { description: "X", quantity: "1", unitPriceExclVat: "100", vatClassifier: "PVM16" },
      classifier: "PVM16",
    },
  ])("reverse charge, $name", async ({ partner, line: l, classifier }) => {
    const w = await purchasesWorld();
    const inv = await registered(w, { partnerCode: partner, vatTreatment: "reverse_charge", lines: [l] });
    expect(inv.lines.map((x: any) => [x.vatRatePercent, x.vatClassifier])).toEqual([["21.00", classifier]]);
    expect(inv.vatBreakdown).toEqual([{ vatRatePercent: "21.00", vatClassifier: classifier, taxableAmount: "100.00", vatAmount: "21.00" }]);
    const stored = await h.db("purchase_invoice_lines").where({ company_id: w.companyId, invoice_id: inv.id });
    expect(stored.map((x) => [x.vat_rate_percent, x.vat_classifier])).toEqual([["21.00", classifier]]);
    expect(await journalOf(w, inv.journalTransactionId)).toEqual([
      [w.rules["purchases.payables"], "0.00", "100.00", partner, null],
      [w.rules["purchases.reverseChargeVatOutput"], "0.00", "21.00", null, null],
      [w.rules["purchases.expense"], "100.00", "0.00", null, null],
      [w.rules["purchases.reverseChargeVatInput"], "21.00", "0.00", null, null],
    ]);
  });

  test.each<{ name: string; over: Partial<CreateBody> & Pick<CreateBody, "lines">; key: string; field: string }>([
    {
      name: "reverse charge, a line without an item and no classifier (goods or services?)",
      over: { vatTreatment: "reverse_charge", lines: [line()] },
      key: "vat_classifier.required",
      field: "lines[0].vatClassifier",
    },
    {
      name: "reverse charge, goods from outside the EU (an import)",
      over: { partnerCode: "USTIEK", vatTreatment: "reverse_charge", lines: [{ itemCode: "PREKE", quantity: "1", unitPriceExclVat: "5" }] },
      key: "vat_classifier.required",
      field: "lines[0].vatClassifier",
    },
    {
      name: "reverse charge with PVM1 (an ordinary domestic supply)",
      over: { vatTreatment: "reverse_charge", lines: [line({ vatClassifier: "PVM1" })] },
      key: "purchase_invoice.vat_classifier_not_applicable",
      field: "lines[0].vatClassifier",
    },
    {
      name: "reverse charge at 0% (which would self-assess nothing)",
      over: { vatTreatment: "reverse_charge", lines: [line({ vatRatePercent: "0", vatClassifier: "PVM21" })] },
      key: "purchase_invoice.reverse_charge_rate",
      field: "lines[0].vatRatePercent",
    },
    {
      name: "reverse charge at a reduced rate",
      over: { vatTreatment: "reverse_charge", lines: [line({ vatRatePercent: "5", vatClassifier: "PVM16" })] },
      key: "purchase_invoice.reverse_charge_rate",
      field: "lines[0].vatRatePercent",
    },
    {
      name: "an acquisition code on a standard purchase",
      over: { lines: [line({ vatClassifier: "PVM16" })] },
      key: "purchase_invoice.vat_classifier_not_applicable",
      field: "lines[0].vatClassifier",
    },
    {
      name: "an acquisition code on an import (PVM21 carries 21%; an import line 0%)",
      over: { vatTreatment: "import", lines: [line({ vatRatePercent: "0", vatClassifier: "PVM21" })] },
      key: "vat_classifier.rate_mismatch",
      field: "lines[0].vatRatePercent",
    },
    {
      name: "an exempt purchase: PVM12 at 0% is fine, PVM1 at 0% is not",
      over: { vatTreatment: "exempt", lines: [line({ vatRatePercent: "0", vatClassifier: "PVM12" }), line({ vatRatePercent: "0", vatClassifier: "PVM1" })] },
      key: "vat_classifier.rate_mismatch",
      field: "lines[1].vatRatePercent",
    },
  ])("$name -> 422 $key naming $field, nothing stored", async ({ over, key, field }) => {
    const w = await purchasesWorld();
    const error = await expectApiError(
      w.api.purchases.invoices.create({ partnerCode: "TIEKEJAS", documentNumber: "X-1", documentDate: "2026-03-10", ...over }),
      422,
      "unprocessable",
      key,
    );
    expect(Object.keys(error.fieldErrors ?? {})).toEqual([field]);
    expect(await rows(w)).toHaveLength(0);
  });

  // Two classifiers sharing 21%: VAT is rounded once for the rate, and the rounding cent goes to the classifier with
  // the largest taxable amount (src/invoicing/totals.ts), so the breakdown sums to the VAT self-assessed.
  test.each([
    {
      name: "up: 0.06 (0.0126 -> 0.01) + 0.07 (0.0147 -> 0.01) = 0.13 (0.0273 -> 0.03): PVM21, the larger, takes the cent",
      nets: ["0.06", "0.07"],
      vat: ["0.01", "0.02"],
      total: "0.03",
    },
    {
      name: "down: 0.03 (0.0063 -> 0.01) + 0.04 (0.0084 -> 0.01) = 0.07 (0.0147 -> 0.01): PVM21, the larger, gives it back",
      nets: ["0.03", "0.04"],
      vat: ["0.01", "0.00"],
      total: "0.01",
    },
  ])("the rounding cent of a rate shared by PVM16 and PVM21, $name", async ({ nets, vat, total }) => {
    const w = await purchasesWorld();
    const inv = await registered(w, {
      vatTreatment: "reverse_charge",
      lines: [
        { itemCode: "PREKE", quantity: "1", unitPriceExclVat: nets[0] },
        { itemCode: "PASL", quantity: "1", unitPriceExclVat: nets[1] },
      ],
    });
    expect(inv.vatBreakdown).toEqual([
      { vatRatePercent: "21.00", vatClassifier: "PVM16", taxableAmount: nets[0], vatAmount: vat[0] },
      { vatRatePercent: "21.00", vatClassifier: "PVM21", taxableAmount: nets[1], vatAmount: vat[1] },
    ]);
    const net = new Decimal(nets[0]).plus(nets[1]).toFixed(2);
    expect(await journalOf(w, inv.journalTransactionId)).toEqual([
      [w.rules["purchases.payables"], "0.00", net, "TIEKEJAS", null],
      [w.rules["purchases.reverseChargeVatOutput"], "0.00", total, null, null],
      [w.rules["purchases.expense"], net, "0.00", null, null],
      [w.rules["purchases.reverseChargeVatInput"], total, "0.00", null, null],
    ]);
  });
});

describe("the tax point (supplyDate)", () => {
  test("a December 2025 supply documented on 2026-01-05 keeps 9% PVM2: stored, registered and posted on the document date", async () => {
    const w = await purchasesWorld();
    const lines = [line({ vatRatePercent: "9", vatClassifier: "PVM2" })];
    await expectApiError(
      w.api.purchases.invoices.create({ partnerCode: "TIEKEJAS", documentNumber: "D-1", documentDate: "2026-01-05", lines }),
      422,
      "unprocessable",
      "vat_classifier.not_valid_on_date",
    );
    // Through the SDK: what an integrator writes.
    const d = await w.api.purchases.invoices.create({
      partnerCode: "TIEKEJAS",
      documentNumber: "D-1",
      documentDate: "2026-01-05",
      supplyDate: "2025-12-20",
      lines,
    });
    const inv = await w.api.purchases.invoices.register({ id: d.id });
    expect(inv).toMatchObject({ documentDate: "2026-01-05", supplyDate: "2025-12-20", vatTotal: "9.00", grossTotal: "109.00" });
    expect((await rows(w)).map((r) => [r.document_date, r.supply_date])).toEqual([["2026-01-05", "2025-12-20"]]);
    expect(await h.db("journal_transactions").where({ id: inv.journalTransactionId }).first()).toMatchObject({ date: "2026-01-05" });
    expect(await journalOf(w, inv.journalTransactionId!)).toEqual([
      [w.rules["purchases.payables"], "0.00", "109.00", "TIEKEJAS", null],
      [w.rules["purchases.expense"], "100.00", "0.00", null, null],
      [w.rules["purchases.vatReceivable"], "9.00", "0.00", null, null],
    ]);
    expect((await w.api.purchases.invoices.list({ filter: [{ field: "supplyDate", op: "lte", value: "2025-12-31" }] })).rows.map((r: any) => r.id)).toEqual([
      inv.id,
    ]);
    await expectApiError(
      w.api.purchases.invoices.create({
        partnerCode: "TIEKEJAS",
        documentNumber: "D-2",
        documentDate: "2026-01-05",
        supplyDate: "2026-01-06",
        lines: [line()],
      }),
      422,
      "unprocessable",
      "purchase_invoice.supply_date_invalid",
    );
  });
});

describe("credit notes", () => {
  const decemberInvoice = (w: PurchasesWorld) =>
    registered(w, { documentDate: "2026-01-05", supplyDate: "2025-12-20", lines: [line({ vatRatePercent: "9", vatClassifier: "PVM2" })] });

  test("a credit note of February 2026 on a December 2025 9% invoice carries 9% PVM2 at the invoice's tax point", async () => {
    const w = await purchasesWorld();
    const inv = await decemberInvoice(w);
    const note = await registered(w, {
      type: "credit_note",
      creditedInvoiceId: inv.id,
      documentDate: "2026-02-02",
      lines: [line({ unitPriceExclVat: "40", vatRatePercent: "9", vatClassifier: "PVM2" })],
    });
    expect(note).toMatchObject({ supplyDate: "2025-12-20", vatTreatment: "standard", grossTotal: "43.60" });
    expect(await journalOf(w, note.journalTransactionId)).toEqual([
      [w.rules["purchases.payables"], "43.60", "0.00", "TIEKEJAS", null],
      [w.rules["purchases.expense"], "0.00", "40.00", null, null],
      [w.rules["purchases.vatReceivable"], "0.00", "3.60", null, null],
    ]);
    expect(await w.api.purchases.invoices.get({ id: inv.id })).toMatchObject({ creditedAmount: "43.60", outstanding: "65.40" });
  });

  test.each<{ name: string; over: Partial<CreateBody>; key: string; field: string | null }>([
    {
      name: "a pair the invoice does not carry (21% PVM1)",
      over: { lines: [line()] },
      key: "purchase_invoice.credit_vat_mismatch",
      field: "lines[0].vatRatePercent",
    },
    { name: "a supply date of its own", over: { supplyDate: "2026-01-05" }, key: "purchase_invoice.supply_date_invalid", field: "supplyDate" },
    { name: "another VAT treatment", over: { vatTreatment: "reverse_charge" }, key: "purchase_invoice.credit_target_invalid", field: null },
  ])("$name -> 422 $key, nothing stored", async ({ over, key, field }) => {
    const w = await purchasesWorld();
    const inv = await decemberInvoice(w);
    const error = await expectApiError(
      w.api.purchases.invoices.create({
        type: "credit_note",
        creditedInvoiceId: inv.id,
        partnerCode: "TIEKEJAS",
        documentNumber: "KR-1",
        documentDate: "2026-02-02",
        lines: [line({ vatRatePercent: "9", vatClassifier: "PVM2" })],
        ...over,
      }),
      422,
      "unprocessable",
      key,
    );
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(field ? [field] : []);
    expect(await rows(w)).toHaveLength(1);
  });

  test("on a paid invoice the credit note carries what the supplier owes back as its outstanding; the invoice stays paid", async () => {
    const w = await purchasesWorld();
    const inv = await registered(w);
    // The bank work records payments; here the settlement columns are set as it sets them.
    await h.db("purchase_invoices").where({ id: inv.id }).update({ paid_amount: "121.00", outstanding: "0.00", status: "paid" });
    const note = await registered(w, { type: "credit_note", creditedInvoiceId: inv.id, lines: [line({ unitPriceExclVat: "50" })] });
    expect(note).toMatchObject({ grossTotal: "60.50", outstanding: "60.50" });
    expect(await w.api.purchases.invoices.get({ id: inv.id })).toMatchObject({ status: "paid", creditedAmount: "60.50", outstanding: "0.00" });
  });

  test("registering a credit note emits purchase_invoice.registered with the credit note as it was registered, and nothing for the invoice", async () => {
    const w = await purchasesWorld();
    const inv = await registered(w);
    const before = await h.db("webhook_events").where({ company_id: w.companyId }).whereLike("event_type", "purchase_invoice.%");
    const note = await registered(w, { type: "credit_note", creditedInvoiceId: inv.id, lines: [line({ unitPriceExclVat: "10" })] });
    const after = await h.db("webhook_events").where({ company_id: w.companyId }).whereLike("event_type", "purchase_invoice.%").orderBy("seq");
    expect(after.slice(before.length).map((e) => [e.event_type, e.data])).toEqual([["purchase_invoice.registered", note]]);
    expect(note).toMatchObject({ type: "credit_note", creditedInvoiceId: inv.id, status: "registered" });
  });
});

describe("register: snapshot and idempotency", () => {
  test("the supplier is snapshotted at register; later partner edits change drafts only", async () => {
    const w = await purchasesWorld();
    const inv = await registered(w);
    const partner = await h.db("partners").where({ company_id: w.companyId, code: "TIEKEJAS" }).first();
    await w.api.partners.update({ id: partner.id, name: "Naujas Tiekėjas GmbH", vatCode: "DE136695976" });
    expect((await w.api.purchases.invoices.get({ id: inv.id })).partner).toEqual({
      code: "TIEKEJAS",
      name: "Tiekėjas UAB",
      vatCode: "DE123456789",
      registrationCode: null,
      countryCode: "DE",
      address: null,
      isPrivatePerson: false,
    });
    expect((await rows(w).where({ id: inv.id }).first()).partner_snapshot.name).toBe("Tiekėjas UAB");
    expect((await draft(w)).partner).toMatchObject({ name: "Naujas Tiekėjas GmbH", vatCode: "DE136695976" });
  });

  test("an idempotent retry of register replays the same answer; one posting, one event", async () => {
    const w = await purchasesWorld();
    const d = await draft(w);
    const first = await w.api.purchases.invoices.register.withResponse({ id: d.id }, { idempotencyKey: "register-1" });
    const replay = await w.api.purchases.invoices.register.withResponse({ id: d.id }, { idempotencyKey: "register-1" });
    expect(replay.response.headers.get("x-idempotent-replay")).toBe("true");
    expect(replay.data).toEqual(first.data);
    expect(await h.db("journal_transactions").where({ company_id: w.companyId })).toHaveLength(1);
    expect(await h.db("webhook_events").where({ company_id: w.companyId, event_type: "purchase_invoice.registered" })).toHaveLength(1);
  });

  test.each([
    ["a quantity with 5 decimals", { lines: [line({ quantity: "1.00001" })] }, "lines[0].quantity"],
    ["a unit price with 5 decimals", { lines: [line({ unitPriceExclVat: "0.12345" })] }, "lines[0].unitPriceExclVat"],
  ])("%s -> 400 naming the field", async (_name, over, field) => {
    const w = await purchasesWorld();
    const error = await expectApiError(
      w.api.purchases.invoices.create(invalid({ partnerCode: "TIEKEJAS", documentNumber: "X-1", documentDate: "2026-03-10", ...over })),
      400,
      "validation",
    );
    expect(Object.keys(error.fieldErrors ?? {})).toEqual([field]);
  });
});

describe("drafts only, credit notes", () => {
  test("update, delete and register of a registered invoice -> 409 purchase_invoice.not_draft; the database refuses the change too", async () => {
    const w = await purchasesWorld();
    const inv = await registered(w);
    const invoices = w.api.purchases.invoices;
    for (const call of [invoices.update({ id: inv.id, notes: "x" }), invoices.delete({ id: inv.id }), invoices.register({ id: inv.id })]) {
      await expectApiError(call, 409, "conflict", "purchase_invoice.not_draft");
    }
    await expect(h.db("purchase_invoices").where({ id: inv.id }).update({ net_total: "1" })).rejects.toThrow(/cannot be changed/);
    const lines = await h.db("purchase_invoice_lines").where({ invoice_id: inv.id }).orderBy("line_no");
    expect(lines.length).toBeGreaterThan(0);
    await expect(h.db("purchase_invoice_lines").where({ invoice_id: inv.id }).update({ quantity: "2" })).rejects.toThrow(/cannot change/);
    await expect(h.db("purchase_invoice_lines").where({ invoice_id: inv.id }).delete()).rejects.toThrow(/cannot change/);
    await expect(h.db("purchase_invoice_lines").insert({ ...lines[0], line_no: 99 })).rejects.toThrow(/cannot change/);
    expect(await h.db("purchase_invoice_lines").where({ invoice_id: inv.id }).orderBy("line_no")).toEqual(lines);
    expect(await h.db("journal_transactions").where({ company_id: w.companyId })).toHaveLength(1);
  });

  test("a credit note posts the opposite and lowers the invoice's outstanding; more than the gross -> 422", async () => {
    const w = await purchasesWorld();
    const inv = await registered(w);
    const note = await registered(w, { type: "credit_note", creditedInvoiceId: inv.id, lines: [line({ unitPriceExclVat: "100" })] });
    expect(await journalOf(w, note.journalTransactionId)).toEqual([
      [w.rules["purchases.payables"], "121.00", "0.00", "TIEKEJAS", null],
      [w.rules["purchases.expense"], "0.00", "100.00", null, null],
      [w.rules["purchases.vatReceivable"], "0.00", "21.00", null, null],
    ]);
    expect(await w.api.purchases.invoices.get({ id: inv.id })).toMatchObject({ status: "credited", creditedAmount: "121.00", outstanding: "0.00" });
    const more = await draft(w, { type: "credit_note", creditedInvoiceId: inv.id, lines: [line({ unitPriceExclVat: "0.01" })] });
    await expectApiError(w.api.purchases.invoices.register({ id: more.id }), 422, "unprocessable", "purchase_invoice.credit_exceeds_gross");
  });
});

describe("list, tenancy and scopes", () => {
  test("filters and totals; another account sees nothing and gets 404; a purchases:read key cannot register", async () => {
    const w = await purchasesWorld();
    const a = await registered(w, { documentDate: "2026-01-05" });
    const b = await draft(w, { documentDate: "2026-02-05", vatTreatment: "reverse_charge", lines: [line({ vatClassifier: "PVM21" })] });
    const list = await w.api.purchases.invoices.list({ totals: ["grossTotal"], sort: [{ field: "documentDate", dir: "asc" }] });
    expect(list.rows.map((r: any) => r.id)).toEqual([a.id, b.id]);
    expect(list.totals).toEqual({ grossTotal: "221.00" });
    expect(
      (await w.api.purchases.invoices.list({ filter: [{ field: "vatTreatment", op: "eq", value: "reverse_charge" }] })).rows.map((r: any) => r.id),
    ).toEqual([b.id]);
    const other = await purchasesWorld();
    await expectApiError(other.api.purchases.invoices.get({ id: a.id }), 404, "not_found", "purchase_invoice.not_found");
    await expectApiError(other.api.purchases.invoices.register({ id: b.id }), 404, "not_found", "purchase_invoice.not_found");
    expect((await other.api.purchases.invoices.list({})).rows).toEqual([]);
    const read = await w.api.account.apiKeys.create({ name: "read", scopes: ["purchases:read"] });
    await expectApiError(h.sdk(read.key, w.companyId).purchases.invoices.register({ id: b.id }), 403, "forbidden");
    expect((await h.db("purchase_invoices").where({ id: b.id }).first()).status).toBe("draft");
    // A key with every sales scope reaches nothing of purchases.
    const sales = (await keyWith(h, w.apiKey, ["sales:read", "sales:write"], { name: "sales", companyId: w.companyId })).api;
    await expectApiError(
      sales.purchases.invoices.create({ partnerCode: "TIEKEJAS", documentNumber: "S-1", documentDate: "2026-03-10", lines: [line()] }),
      403,
      "forbidden",
    );
    await expectApiError(sales.purchases.invoices.register({ id: b.id }), 403, "forbidden");
    await expectApiError(sales.purchases.invoices.get({ id: a.id }), 403, "forbidden");
    await expectApiError(sales.purchases.invoices.list({}), 403, "forbidden");
    expect(await rows(w)).toHaveLength(2);
  });
});
