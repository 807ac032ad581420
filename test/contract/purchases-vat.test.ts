// purchases/invoices and the VAT data the declarations need (issue 24, the purchase side): the accounting date (the
// day a purchase posts and the month it is declared in), PVM42 (goods acquired for triangular trade), import VAT paid
// to customs, purchase debit notes, and non-deductible VAT on a fixed asset. Each through the SDK over HTTP, with the
// stored rows and the exact journal entries; every refusal a 422 naming the field, with nothing stored.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { Decimal } from "decimal.js";
import { startHarness, type Harness } from "../support/harness.js";
import { expectApiError } from "../support/expect.js";
import { world, type World } from "../support/world.js";
import type { RequestBody } from "../../sdk/typescript/src/index.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

type CreateBody = RequestBody<"purchases_invoices_create">;
type VatWorld = World & { rules: Record<string, string> };

/**
 * A tenant with the lt-standard chart and VAT code, and suppliers: DETIEK (a German VAT payer), LTTIEK (Lithuanian),
 * USTIEK (outside the EU), PLNOVAT (Polish, no VAT code); the posting rules' accounts.
 */
async function vatWorld(): Promise<VatWorld> {
  const w = await world(h, {
    company: { vatCode: "LT119511515", address: { line1: "Gedimino pr. 1", city: "Vilnius", postalCode: "LT-01103", countryCode: "LT" } },
    partners: [
      { name: "Lieferant GmbH", code: "DETIEK", isCustomer: false, isSupplier: true, paymentTermDays: 30, vatCode: "DE123456789", countryCode: "DE" },
      { name: "Vietinis tiekėjas UAB", code: "LTTIEK", isCustomer: false, isSupplier: true, vatCode: "LT100001738313", countryCode: "LT" },
      { name: "US Supplier Inc.", code: "USTIEK", isCustomer: false, isSupplier: true, countryCode: "US" },
      { name: "Dostawca bez VAT", code: "PLNOVAT", isCustomer: false, isSupplier: true, countryCode: "PL" },
    ],
  });
  const rules = await w.api.ledger.postingRules.list({ pageSize: 100 });
  return { ...w, rules: Object.fromEntries(rules.rows.map((r) => [r.rule, r.accountCode])) };
}

const line = (over: Record<string, unknown> = {}) => ({ description: "Prekės", quantity: "1", unitPriceExclVat: "100", vatRatePercent: "21", ...over });
let docSeq = 0;
const create = (w: VatWorld, over: Partial<CreateBody> = {}) =>
  w.api.purchases.invoices.create({ partnerCode: "LTTIEK", documentNumber: `PV-${++docSeq}`, documentDate: "2026-03-10", lines: [line()], ...over });
const register = async (w: VatWorld, over: Partial<CreateBody> = {}) => w.api.purchases.invoices.register({ id: (await create(w, over)).id });

const journalOf = async (w: VatWorld, transactionId: string | null) =>
  (await h.db("journal_entries").where({ company_id: w.companyId, transaction_id: transactionId }).orderBy("line_no")).map((e) => [
    e.account_code,
    new Decimal(e.debit).toFixed(2),
    new Decimal(e.credit).toFixed(2),
    e.partner_code,
  ]);
const stored = (w: VatWorld) => h.db("purchase_invoices").where({ company_id: w.companyId }).orderBy("created_at");
const nothingStored = async (w: VatWorld) => {
  expect(await stored(w)).toEqual([]);
  expect(await h.db("purchase_invoice_lines").where({ company_id: w.companyId })).toEqual([]);
  expect(await h.db("journal_transactions").where({ company_id: w.companyId })).toEqual([]);
};
const dateOf = (d: unknown) =>
  d instanceof Date ? `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}` : d;

describe("accountingDate (item 5): the day a purchase posts and the month it is declared in", () => {
  test("defaults to the document date; returned by get and list, stored", async () => {
    const w = await vatWorld();
    const d = await create(w, { documentDate: "2026-03-10" });
    expect(d.accountingDate).toBe("2026-03-10");
    const inv = await w.api.purchases.invoices.register({ id: d.id });
    expect(inv.accountingDate).toBe("2026-03-10");
    expect(await w.api.purchases.invoices.get({ id: d.id })).toMatchObject({ documentDate: "2026-03-10", accountingDate: "2026-03-10" });
    const tx = await h.db("journal_transactions").where({ id: inv.journalTransactionId }).first();
    expect(dateOf(tx.date)).toBe("2026-03-10");
    expect((await stored(w)).map((r) => dateOf(r.accounting_date))).toEqual(["2026-03-10"]);
  });

  test("a December invoice registered on 5 January after December was locked: posted and declared in January, at December's rate", async () => {
    const w = await vatWorld();
    await w.api.ledger.periods.lock({ month: "2025-12" });
    await h.db("exchange_rates").insert({ currency_code: "PLN", rate_date: "2025-12-19", rate: "4.2000" });
    const inv = await register(w, {
      partnerCode: "DETIEK",
      documentNumber: "RE-2025-991",
      documentDate: "2025-12-20",
      accountingDate: "2026-01-05",
      currency: "PLN",
      lines: [line({ unitPriceExclVat: "420" })],
    });
    expect(inv).toMatchObject({
      documentDate: "2025-12-20",
      accountingDate: "2026-01-05",
      supplyDate: "2025-12-20",
      rate: { rate: "4.2", source: "ecb", date: "2025-12-19" },
      grossTotal: "508.20",
      grossTotalEur: "121.00",
    });
    const tx = await h.db("journal_transactions").where({ id: inv.journalTransactionId }).first();
    expect(dateOf(tx.date)).toBe("2026-01-05");
    expect(await journalOf(w, inv.journalTransactionId)).toEqual([
      [w.rules["purchases.payables"], "0.00", "121.00", "DETIEK"],
      [w.rules["purchases.expense"], "100.00", "0.00", null],
      [w.rules["purchases.vatReceivable"], "21.00", "0.00", null],
    ]);
    // Declared in January's i.SAF (RegistrationAccountDate), not December's.
    const january = await w.api.declarations.lt.isaf.generate({ period: "2026-01", dataType: "P" });
    const december = await w.api.declarations.lt.isaf.generate({ period: "2025-12", dataType: "P" });
    expect([january.invoices.purchases, december.invoices.purchases]).toEqual([1, 0]);
    const xml = Buffer.from(january.contentBase64, "base64").toString("utf8");
    expect(xml).toContain("<InvoiceDate>2025-12-20</InvoiceDate>");
    expect(xml).toContain("<RegistrationAccountDate>2026-01-05</RegistrationAccountDate>");
  });

  test("list filters and sorts on accountingDate", async () => {
    const w = await vatWorld();
    await create(w, { documentNumber: "L-1", documentDate: "2026-03-10", accountingDate: "2026-04-02" });
    await create(w, { documentNumber: "L-2", documentDate: "2026-03-20" });
    await create(w, { documentNumber: "L-3", documentDate: "2026-03-01", accountingDate: "2026-03-31" });
    const april = await w.api.purchases.invoices.list({ filter: [{ field: "accountingDate", op: "gte", value: "2026-04-01" }] });
    expect(april.rows.map((r) => r.documentNumber)).toEqual(["L-1"]);
    const sorted = await w.api.purchases.invoices.list({ sort: [{ field: "accountingDate", dir: "asc" }] });
    expect(sorted.rows.map((r) => [r.documentNumber, r.accountingDate])).toEqual([
      ["L-2", "2026-03-20"],
      ["L-3", "2026-03-31"],
      ["L-1", "2026-04-02"],
    ]);
  });

  test("update: kept when sent nowhere, follows the document date while it is the default, null resets it", async () => {
    const w = await vatWorld();
    const d = await create(w, { documentDate: "2026-03-10", dueDate: "2026-04-30" });
    expect((await w.api.purchases.invoices.update({ id: d.id, documentDate: "2026-03-12" })).accountingDate).toBe("2026-03-12");
    expect((await w.api.purchases.invoices.update({ id: d.id, accountingDate: "2026-04-01" })).accountingDate).toBe("2026-04-01");
    expect((await w.api.purchases.invoices.update({ id: d.id, documentDate: "2026-03-15" })).accountingDate).toBe("2026-04-01");
    expect((await w.api.purchases.invoices.update({ id: d.id, accountingDate: null })).accountingDate).toBe("2026-03-15");
    expect(dateOf((await stored(w))[0].accounting_date)).toBe("2026-03-15");
  });

  test.each<[string, Partial<CreateBody>, string]>([
    ["before the document date", { documentDate: "2026-03-10", accountingDate: "2026-03-09" }, "purchase_invoice.accounting_date_invalid"],
    ["in a locked month", { documentDate: "2026-01-20", accountingDate: "2026-02-03" }, "period.locked"],
    ["a default in a locked month", { documentDate: "2026-02-03" }, "period.locked"],
  ])("create: an accounting date %s -> 422 naming accountingDate, nothing stored", async (_name, over, key) => {
    const w = await vatWorld();
    await w.api.ledger.periods.lock({ month: "2026-02" });
    const error = await expectApiError(create(w, over), 422, "unprocessable", key);
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["accountingDate"]);
    await nothingStored(w);
  });

  test("update: an accounting date before the document date or in a locked month -> 422, the draft unchanged", async () => {
    const w = await vatWorld();
    const d = await create(w, { documentDate: "2026-03-10" });
    await w.api.ledger.periods.lock({ month: "2026-02" });
    const early = await expectApiError(
      w.api.purchases.invoices.update({ id: d.id, accountingDate: "2026-03-01" }),
      422,
      "unprocessable",
      "purchase_invoice.accounting_date_invalid",
    );
    expect(Object.keys(early.fieldErrors ?? {})).toEqual(["accountingDate"]);
    const locked = await expectApiError(
      w.api.purchases.invoices.update({ id: d.id, documentDate: "2026-02-10", accountingDate: "2026-02-11" }),
      422,
      "unprocessable",
      "period.locked",
    );
    expect(Object.keys(locked.fieldErrors ?? {})).toEqual(["accountingDate"]);
    const [row] = await stored(w);
    expect([dateOf(row.document_date), dateOf(row.accounting_date)]).toEqual(["2026-03-10", "2026-03-10"]);
  });

  test("the database holds it: never before the document date", async () => {
    const w = await vatWorld();
    const d = await create(w, { documentDate: "2026-03-10" });
    await expect(h.db("purchase_invoices").where({ id: d.id }).update({ accounting_date: "2026-03-09" })).rejects.toThrow(
      /purchase_invoices_accounting_date_check/,
    );
  });
});

describe("non-deductible VAT on a fixed asset (item 9): added to the asset's cost, not expensed", () => {
  test("standard: an asset line's non-deductible VAT debits its own account; an expense line's goes to the rule; deductible VAT stays input VAT", async () => {
    const w = await vatWorld();
    const inv = await register(w, {
      lines: [
        line({ description: "Lengvasis automobilis", unitPriceExclVat: "20000", expenseAccountCode: "1230", vatDeductible: false }),
        line({ description: "Kompiuteris", unitPriceExclVat: "1000", expenseAccountCode: "1240" }),
        line({ description: "Reprezentacinės išlaidos", unitPriceExclVat: "100", vatDeductible: false }),
      ],
    });
    expect(inv).toMatchObject({ netTotal: "21100.00", vatTotal: "4431.00", grossTotal: "25531.00" });
    expect(await journalOf(w, inv.journalTransactionId)).toEqual([
      [w.rules["purchases.payables"], "0.00", "25531.00", "LTTIEK"],
      ["1230", "24200.00", "0.00", null],
      ["1240", "1000.00", "0.00", null],
      [w.rules["purchases.expense"], "100.00", "0.00", null],
      [w.rules["purchases.vatReceivable"], "210.00", "0.00", null],
      [w.rules["purchases.vatNonDeductible"], "21.00", "0.00", null],
    ]);
  });

  test("reverse charge: the self-assessed VAT of an asset bought from the EU without a right to deduct is the asset's cost", async () => {
    const w = await vatWorld();
    const inv = await register(w, {
      partnerCode: "DETIEK",
      vatTreatment: "reverse_charge",
      lines: [
        line({
          description: "Lengvasis automobilis",
          unitPriceExclVat: "10000",
          vatRatePercent: undefined,
          vatClassifier: "PVM16",
          expenseAccountCode: "1230",
          vatDeductible: false,
        }),
      ],
    });
    expect(await journalOf(w, inv.journalTransactionId)).toEqual([
      [w.rules["purchases.payables"], "0.00", "10000.00", "DETIEK"],
      [w.rules["purchases.reverseChargeVatOutput"], "0.00", "2100.00", null],
      ["1230", "12100.00", "0.00", null],
    ]);
  });
});

describe("import VAT paid to customs (item 4): an import invoice's customs declaration", () => {
  const imported = (over: Partial<CreateBody> = {}): Partial<CreateBody> => ({
    partnerCode: "USTIEK",
    vatTreatment: "import",
    currency: "USD",
    documentDate: "2026-03-10",
    lines: [{ description: "Staklės", quantity: "1", unitPriceExclVat: "10837", vatClassifier: "PVM14" }],
    ...over,
  });

  test("posted with the invoice in EUR: input VAT against the customs payable; stored and returned", async () => {
    const w = await vatWorld();
    await w.api.reference.exchangeRates.set({ currency: "USD", date: "2026-03-10", rate: "1.0837" });
    const customs = { declarationNumber: "26LTVR1000IM012345", declarationDate: "2026-03-09", vatAmount: "2163.84", customsValue: "10304.00" };
    const d = await create(w, imported({ customs }));
    expect(d.customs).toEqual(customs);
    const inv = await w.api.purchases.invoices.register({ id: d.id });
    expect(inv).toMatchObject({ vatTotal: "0.00", grossTotal: "10837.00", grossTotalEur: "10000.00", customs });
    expect(await journalOf(w, inv.journalTransactionId)).toEqual([
      [w.rules["purchases.payables"], "0.00", "10000.00", "USTIEK"],
      [w.rules["purchases.expense"], "10000.00", "0.00", null],
      [w.rules["purchases.vatReceivable"], "2163.84", "0.00", null],
      [w.rules["purchases.customsVatPayable"], "0.00", "2163.84", null],
    ]);
    expect(w.rules["purchases.customsVatPayable"]).toBe("4493");
    const [row] = await stored(w);
    expect({
      number: row.customs_declaration_number,
      date: dateOf(row.customs_declaration_date),
      vat: row.customs_vat,
      value: row.customs_value,
    }).toEqual({ number: "26LTVR1000IM012345", date: "2026-03-09", vat: "2163.84", value: "10304.00" });
    expect(await w.api.purchases.invoices.get({ id: d.id })).toMatchObject({ customs });
  });

  test("update replaces the customs declaration, null removes it; an import invoice without one posts no customs VAT", async () => {
    const w = await vatWorld();
    const d = await create(w, imported({ currency: "EUR", customs: { declarationNumber: "MRN-1", declarationDate: "2026-03-10", vatAmount: "10.00" } }));
    const changed = await w.api.purchases.invoices.update({
      id: d.id,
      customs: { declarationNumber: "MRN-2", declarationDate: "2026-03-08", vatAmount: "20.00" },
    });
    expect(changed.customs).toEqual({ declarationNumber: "MRN-2", declarationDate: "2026-03-08", vatAmount: "20.00", customsValue: null });
    expect((await w.api.purchases.invoices.update({ id: d.id, notes: "be muitinės" })).customs).toMatchObject({ declarationNumber: "MRN-2" });
    expect((await w.api.purchases.invoices.update({ id: d.id, customs: null })).customs).toBeNull();
    const inv = await w.api.purchases.invoices.register({ id: d.id });
    expect(await journalOf(w, inv.journalTransactionId)).toEqual([
      [w.rules["purchases.payables"], "0.00", "10837.00", "USTIEK"],
      [w.rules["purchases.expense"], "10837.00", "0.00", null],
    ]);
  });

  test.each<[string, Partial<CreateBody>, string, string]>([
    [
      "customs on a standard purchase",
      { customs: { declarationNumber: "MRN-1", declarationDate: "2026-03-09", vatAmount: "1.00" } },
      "purchase_invoice.customs_not_applicable",
      "customs",
    ],
    [
      "customs on a reverse-charge purchase",
      {
        partnerCode: "DETIEK",
        vatTreatment: "reverse_charge",
        lines: [line({ vatRatePercent: undefined, vatClassifier: "PVM16" })],
        customs: { vatAmount: "0" },
      },
      "purchase_invoice.customs_not_applicable",
      "customs",
    ],
    [
      "customs VAT without the declaration's number",
      imported({ currency: "EUR", customs: { declarationDate: "2026-03-09", vatAmount: "21.00" } }),
      "purchase_invoice.customs_incomplete",
      "customs.declarationNumber",
    ],
    [
      "customs VAT without the declaration's date",
      imported({ currency: "EUR", customs: { declarationNumber: "MRN-1", vatAmount: "21.00" } }),
      "purchase_invoice.customs_incomplete",
      "customs.declarationDate",
    ],
    [
      "negative customs VAT",
      imported({ currency: "EUR", customs: { declarationNumber: "MRN-1", declarationDate: "2026-03-09", vatAmount: "-21.00" } }),
      "purchase_invoice.customs_amount_invalid",
      "customs.vatAmount",
    ],
    [
      "a negative customs value",
      imported({ currency: "EUR", customs: { declarationNumber: "MRN-1", declarationDate: "2026-03-09", vatAmount: "21.00", customsValue: "-100" } }),
      "purchase_invoice.customs_amount_invalid",
      "customs.customsValue",
    ],
    [
      "a declaration dated after the accounting date",
      imported({ currency: "EUR", accountingDate: "2026-03-12", customs: { declarationNumber: "MRN-1", declarationDate: "2026-03-13", vatAmount: "21.00" } }),
      "purchase_invoice.customs_date_invalid",
      "customs.declarationDate",
    ],
  ])("%s -> 422 naming the field, nothing stored", async (_name, body, key, field) => {
    const w = await vatWorld();
    const error = await expectApiError(create(w, body), 422, "unprocessable", key);
    expect(Object.keys(error.fieldErrors ?? {})).toEqual([field]);
    await nothingStored(w);
  });

  test("update: a customs declaration left on a draft that stops being an import -> 422, the draft unchanged", async () => {
    const w = await vatWorld();
    const d = await create(w, imported({ currency: "EUR", customs: { declarationNumber: "MRN-1", declarationDate: "2026-03-09", vatAmount: "21.00" } }));
    await expectApiError(
      w.api.purchases.invoices.update({ id: d.id, vatTreatment: "exempt" }),
      422,
      "unprocessable",
      "purchase_invoice.customs_not_applicable",
    );
    const [row] = await stored(w);
    expect([row.vat_treatment, row.customs_vat]).toEqual(["import", "21.00"]);
  });

  test("the database holds it: no customs VAT without the declaration, none on another treatment", async () => {
    const w = await vatWorld();
    const d = await create(w, imported({ currency: "EUR", customs: { declarationNumber: "MRN-1", declarationDate: "2026-03-09", vatAmount: "21.00" } }));
    await expect(h.db("purchase_invoices").where({ id: d.id }).update({ customs_declaration_number: null })).rejects.toThrow(
      /purchase_invoices_customs_complete/,
    );
    await expect(h.db("purchase_invoices").where({ id: d.id }).update({ vat_treatment: "exempt" })).rejects.toThrow(/purchase_invoices_customs_import/);
  });
});

describe("purchase debit notes (item 6): a supplier's note increasing a registered invoice", () => {
  test("posted like an invoice, with the invoice's pairs and tax point, in the month of its own accounting date; the invoice stays as it was", async () => {
    const w = await vatWorld();
    const invoice = await register(w, { documentNumber: "SF-100", documentDate: "2026-01-20", lines: [line({ unitPriceExclVat: "1000" })] });
    const d = await create(w, {
      type: "debit_note",
      creditedInvoiceId: invoice.id,
      documentNumber: "DS-7",
      documentDate: "2026-02-03",
      lines: [line({ description: "Kainos padidinimas", unitPriceExclVat: "50" })],
    });
    expect(d).toMatchObject({ type: "debit_note", creditedInvoiceId: invoice.id, supplyDate: "2026-01-20", accountingDate: "2026-02-03" });
    const note = await w.api.purchases.invoices.register({ id: d.id });
    expect(note).toMatchObject({
      status: "registered",
      grossTotal: "60.50",
      outstanding: "60.50",
      lines: [{ vatClassifier: "PVM1", vatRatePercent: "21.00" }],
    });
    expect(await journalOf(w, note.journalTransactionId)).toEqual([
      [w.rules["purchases.payables"], "0.00", "60.50", "LTTIEK"],
      [w.rules["purchases.expense"], "50.00", "0.00", null],
      [w.rules["purchases.vatReceivable"], "10.50", "0.00", null],
    ]);
    const tx = await h.db("journal_transactions").where({ id: note.journalTransactionId }).first();
    expect([dateOf(tx.date), tx.source_type, tx.source_id]).toEqual(["2026-02-03", "purchase_debit_note", note.id]);
    expect(await w.api.purchases.invoices.get({ id: invoice.id })).toMatchObject({ outstanding: "1210.00", creditedAmount: "0.00", status: "registered" });
    const rows = await stored(w);
    expect(rows.map((r) => [r.type, r.document_number, r.credited_invoice_id, dateOf(r.accounting_date)])).toEqual([
      ["invoice", "SF-100", null, "2026-01-20"],
      ["debit_note", "DS-7", invoice.id, "2026-02-03"],
    ]);
    const events = await h.db("webhook_events").where({ company_id: w.companyId, event_type: "purchase_invoice.registered" }).orderBy("created_at");
    expect(events.map((e) => e.data.type)).toEqual(["invoice", "debit_note"]);
  });

  test.each<[string, (invoiceId: string) => Partial<CreateBody>, string, string | undefined]>([
    ["a debit note without the invoice it increases", () => ({ type: "debit_note" }), "purchase_invoice.credit_target_invalid", undefined],
    [
      "a debit note of another supplier's invoice",
      (id) => ({ type: "debit_note", creditedInvoiceId: id, partnerCode: "DETIEK" }),
      "purchase_invoice.credit_target_invalid",
      undefined,
    ],
    [
      "a debit note with a rate the invoice does not carry",
      (id) => ({ type: "debit_note", creditedInvoiceId: id, lines: [line({ vatRatePercent: "5", vatClassifier: "PVM3" })] }),
      "purchase_invoice.credit_vat_mismatch",
      "lines[0].vatRatePercent",
    ],
  ])("%s -> 422, nothing stored", async (_name, body, key, field) => {
    const w = await vatWorld();
    const invoice = await register(w);
    const error = await expectApiError(create(w, body(invoice.id)), 422, "unprocessable", key);
    if (field) expect(Object.keys(error.fieldErrors ?? {})).toEqual([field]);
    expect((await stored(w)).map((r) => r.type)).toEqual(["invoice"]);
  });
});

describe("PVM42 (item 3): goods acquired from an EU VAT payer for triangular trade, FR0600 box 22", () => {
  test("a reverse-charge line of PVM42 is 0% and self-assesses nothing: the cost against the payable", async () => {
    const w = await vatWorld();
    const inv = await register(w, {
      partnerCode: "DETIEK",
      vatTreatment: "reverse_charge",
      lines: [
        line({ description: "Prekės trikampei prekybai", unitPriceExclVat: "1000", vatRatePercent: undefined, vatClassifier: "PVM42" }),
        line({ description: "Paslaugos", unitPriceExclVat: "100", vatRatePercent: undefined, vatClassifier: "PVM21" }),
      ],
    });
    expect(inv).toMatchObject({
      vatTotal: "0.00",
      grossTotal: "1100.00",
      lines: [
        { vatClassifier: "PVM42", vatRatePercent: "0.00" },
        { vatClassifier: "PVM21", vatRatePercent: "21.00" },
      ],
      vatBreakdown: [
        { vatRatePercent: "0.00", vatClassifier: "PVM42", taxableAmount: "1000.00", vatAmount: "0.00" },
        { vatRatePercent: "21.00", vatClassifier: "PVM21", taxableAmount: "100.00", vatAmount: "21.00" },
      ],
    });
    expect(await journalOf(w, inv.journalTransactionId)).toEqual([
      [w.rules["purchases.payables"], "0.00", "1100.00", "DETIEK"],
      [w.rules["purchases.reverseChargeVatOutput"], "0.00", "21.00", null],
      [w.rules["purchases.expense"], "1100.00", "0.00", null],
      [w.rules["purchases.reverseChargeVatInput"], "21.00", "0.00", null],
    ]);
    expect(
      (await h.db("purchase_invoice_lines").where({ company_id: w.companyId }).orderBy("line_no")).map((l) => [l.vat_classifier, l.vat_rate_percent]),
    ).toEqual([
      ["PVM42", "0.00"],
      ["PVM21", "21.00"],
    ]);
    const pvm42 = await w.api.reference.vatClassifiers.list({ filter: [{ field: "code", op: "eq", value: "PVM42" }] });
    expect(pvm42.rows.map((r) => [r.code, r.kind, r.ratePercent, r.validFrom, r.validTo])).toEqual([["PVM42", "triangular", "0.00", "2025-01-01", null]]);

    // Declared: box 22 is the PVM42 value (1000, by hand), box 25 the reverse charge's deduction and box 32 its output
    // VAT (21 on the 100 of PVM21); the month reconciles with the ledger; i.SAF carries the PVM42 total.
    const period = inv.accountingDate.slice(0, 7);
    const fr = await w.api.declarations.lt.fr0600.compute({ period });
    const box = (n: string) => fr.boxes.find((b) => b.box === n)!;
    expect([box("22").amount, box("22").exact, box("25").amount, box("32").amount]).toEqual(["1000", "1000.00", "21", "21"]);
    expect(box("22").documents.map((d) => [d.documentType, d.number, d.classifier, d.amount])).toEqual([
      ["purchase_invoice", inv.documentNumber, "PVM42", "1000.00"],
    ]);
    expect(fr.reconciliation.balanced).toBe(true);
    const isaf = await w.api.declarations.lt.isaf.generate({ period, dataType: "P" });
    const xml = Buffer.from(isaf.contentBase64, "base64").toString("utf8");
    expect(xml).toContain("<TaxableValue>1000.00</TaxableValue><TaxCode>PVM42</TaxCode><TaxPercentage>0.00</TaxPercentage><Amount>0.00</Amount>");
  });

  test.each<[string, Partial<CreateBody>, number, string, string]>([
    ["from a Lithuanian supplier", { partnerCode: "LTTIEK" }, 422, "purchase_invoice.triangular_supplier_invalid", "lines[0].vatClassifier"],
    ["from an EU supplier without a VAT code", { partnerCode: "PLNOVAT" }, 422, "purchase_invoice.triangular_supplier_invalid", "lines[0].vatClassifier"],
    ["from outside the EU", { partnerCode: "USTIEK" }, 422, "purchase_invoice.triangular_supplier_invalid", "lines[0].vatClassifier"],
    ["at 21%", { lines: [line({ vatClassifier: "PVM42" })] }, 422, "vat_classifier.rate_mismatch", "lines[0].vatRatePercent"],
    [
      "on a purchase with VAT charged by the supplier",
      { vatTreatment: "standard", lines: [line({ vatRatePercent: "0", vatClassifier: "PVM42" })] },
      422,
      "purchase_invoice.vat_classifier_not_applicable",
      "lines[0].vatClassifier",
    ],
  ])("PVM42 %s -> 422 naming the line, nothing stored", async (_name, over, status, key, field) => {
    const w = await vatWorld();
    const body: Partial<CreateBody> = {
      partnerCode: "DETIEK",
      vatTreatment: "reverse_charge",
      lines: [line({ vatRatePercent: undefined, vatClassifier: "PVM42" })],
      ...over,
    };
    const error = await expectApiError(create(w, body), status, "unprocessable", key);
    expect(Object.keys(error.fieldErrors ?? {})).toEqual([field]);
    await nothingStored(w);
  });
});
