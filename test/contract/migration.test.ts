// migration/books/validate and migration/books/import (issue 13; spec: "Historical-books package", "Historical-books
// result", "Migration" and its 13 import rules): one test per rule and per 422/409 case, each reading back what was
// (or was not) stored; a package whose sub-ledgers agree with its ledger and one that differs by known amounts.
// Also: migration-checks (series bounds, serials in stock, prefixes, fxRate, more 409/422 cases), migration-scale
// (2,500-row opening balance, 20,000-deep chart), migration-concurrency (rule 1), migration-killed.
// Every call goes through the SDK but the body-limit test, which sends padded bytes raw.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { Decimal } from "decimal.js";
import { writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startHarness, type Harness } from "../support/harness.js";
import { expectApiError, expectError } from "../support/expect.js";
import { keyWith, type Scope } from "../support/keys.js";
import { runCli } from "../support/processes.js";
import { agreeingPackage, booksWorld, journalLines, pkgWith, storedRows, type BooksPackage, type BooksWorld } from "../support/books.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 180_000);
afterAll(() => h.close());

const stored = (w: BooksWorld) => storedRows(h, w);

const EXPECTED = {
  cutoverDate: "2026-07-01",
  accounts: { created: 2, existing: 1 },
  partners: { created: 2, existing: 0 },
  items: { created: 2, existing: 0 },
  assetGroups: { created: 1, existing: 0 },
  openingBalances: { date: "2026-06-01", entries: 8, debitTotal: "6500.00", creditTotal: "6500.00", balancingAmount: "0.00" },
  journal: { transactions: 3, entries: 7 },
  openReceivables: { created: 3, outstandingTotal: "1610.00" },
  openPayables: { created: 1, outstandingTotal: "500.00" },
  fixedAssets: { created: 2, costTotal: "3000.00", accumulatedDepreciationTotal: "1000.00" },
  stock: { movements: 2, costTotal: "600.00" },
  numberSeries: [{ documentType: "sale_invoice", prefix: "SF", year: 2026, nextNumber: 43, nextFormatted: "SF-43", created: true }],
  warnings: [],
};

describe("a package whose sub-ledgers agree with its ledger", () => {
  test("validate answers every figure and stores nothing; import answers the same figures and stores everything", async () => {
    const w = await booksWorld(h);
    const before = await stored(w);
    const checked = await w.api.migration.books.validate(agreeingPackage());
    expect(checked).toEqual({
      ...EXPECTED,
      dryRun: true,
      openingBalances: { ...EXPECTED.openingBalances, journalTransactionId: null },
      numberSeries: [{ ...EXPECTED.numberSeries[0], id: null }],
    });
    expect(await stored(w)).toEqual(before);

    const imported = await w.api.migration.books.import(agreeingPackage());
    const openingId = imported.openingBalances!.journalTransactionId!;
    const seriesId = imported.numberSeries[0].id!;
    expect(imported).toEqual({
      ...EXPECTED,
      dryRun: false,
      openingBalances: { ...EXPECTED.openingBalances, journalTransactionId: openingId },
      numberSeries: [{ ...EXPECTED.numberSeries[0], id: seriesId }],
    });
    expect(await stored(w)).toEqual({
      ...before,
      accounts: before.accounts + 2,
      partners: 2,
      items: before.items + 2,
      assetGroups: 1,
      transactions: 4,
      entries: 15,
      saleInvoices: 3,
      purchaseInvoices: 1,
      assets: 2,
      movements: 2,
      layers: 2,
      series: before.series + 1,
      events: 1,
      audit: 1,
    });
  });
});

const money = (v: string | number) => new Decimal(v).toFixed(2);
const lines = (w: BooksWorld, transactionId: string) => journalLines(h, w, transactionId);

describe("rule 13 and the agreeing package's records", () => {
  test("what the import stored: journal, invoices, series, assets, stock, audit record and event", async () => {
    const w = await booksWorld(h);
    const result = await w.api.migration.books.import(agreeingPackage());
    const openingId = result.openingBalances!.journalTransactionId!;
    // Rule 3: one transaction, document type migration_opening, its description naming the source.
    const opening = await h.db("journal_transactions").where({ company_id: w.companyId, id: openingId }).first();
    expect(opening).toMatchObject({ document_type: "migration_opening", date: "2026-06-01" });
    expect(opening.description).toContain("Rivilė 2.0");
    expect(await lines(w, openingId)).toEqual([
      ["2410", "1000.00", "0.00"],
      ["2040", "500.00", "0.00"],
      ["1230", "3000.00", "0.00"],
      ["1237", "0.00", "1000.00"],
      ["2710", "2000.00", "0.00"],
      ["4430", "0.00", "400.00"],
      ["3010", "0.00", "2500.00"],
      ["3421", "0.00", "2600.00"],
    ]);
    // Rule 5: three transactions of document type migration, each with its lines.
    const history = await h.db("journal_transactions").where({ company_id: w.companyId, document_type: "migration" }).orderBy("date");
    expect(history.map((t) => [t.date, money(t.total), t.reference])).toEqual([
      ["2026-06-10", "610.00", "SF-42"],
      ["2026-06-15", "100.00", "T-100"],
      ["2026-06-30", "50.00", null],
    ]);
    expect(await lines(w, history[2].id)).toEqual([
      ["2720", "50.00", "0.00"],
      ["2710", "0.00", "30.00"],
      ["2710", "0.00", "20.00"],
    ]);
    // Rule 7: issued sale invoices with paidAmount = gross - outstanding, totals only, linked to the opening balances.
    const sales = await h.db("sale_invoices").where({ company_id: w.companyId }).orderBy("issue_date");
    expect(
      sales.map((i) => [
        i.number,
        i.status,
        i.currency,
        money(i.gross_total),
        money(i.net_total),
        money(i.paid_amount),
        money(i.outstanding),
        money(i.gross_total_base),
        i.journal_transaction_id,
        i.migrated,
      ]),
    ).toEqual([
      ["SF-7", "issued", "EUR", "1210.00", "1000.00", "0.00", "1210.00", "1210.00", openingId, true],
      ["INV/2026/3", "issued", "USD", "110.00", "110.00", "0.00", "110.00", "100.00", openingId, true],
      ["SF-42", "issued", "EUR", "605.00", "500.00", "305.00", "300.00", "605.00", openingId, true],
    ]);
    expect(sales.every((i) => i.notes.includes("Rivilė 2.0") && i.partner_snapshot.name === "UAB Pirkėjas")).toBe(true);
    expect(await h.db("sale_invoice_lines").where({ company_id: w.companyId }).count({ n: "*" })).toEqual([{ n: "0" }]);
    const viaApi = await w.api.sales.invoices.get({ id: sales[2].id });
    expect(viaApi).toMatchObject({
      number: "SF-42",
      status: "issued",
      paidAmount: "305.00",
      outstanding: "300.00",
      lines: [],
      journalTransactionId: openingId,
    });
    const purchases = await h.db("purchase_invoices").where({ company_id: w.companyId });
    expect(
      purchases.map((i) => [
        i.document_number,
        i.status,
        money(i.gross_total),
        money(i.net_total),
        money(i.paid_amount),
        money(i.outstanding),
        i.journal_transaction_id,
      ]),
    ).toEqual([["T-100", "registered", "500.00", "413.22", "0.00", "500.00", openingId]]);
    // Nothing posted for them: the journal holds the opening balances and the history only.
    expect(await h.db("journal_transactions").where({ company_id: w.companyId }).count({ n: "*" })).toEqual([{ n: "4" }]);
    // Rule 8: SF-42 of the cut-over year sets SF 2026 to 43; SF-7 of 2025 raises nothing.
    expect(
      (await h.db("number_series").where({ company_id: w.companyId, document_type: "sale_invoice" })).map((s) => [s.prefix, s.year, Number(s.next_number)]),
    ).toEqual([["SF", 2026, 43]]);
    // Rule 9: with their depreciation to date, nothing posted; FA-2 fully depreciated; the run goes on from the rest.
    const assets = await h.db("fixed_assets").where({ company_id: w.companyId }).orderBy("code");
    expect(
      assets.map((a) => [a.code, a.status, money(a.accumulated_depreciation), a.depreciated_months, a.useful_life_months, a.depreciation_start_date]),
    ).toEqual([
      ["FA-1", "active", "800.00", 12, 36, "2025-07-01"],
      ["FA-2", "fully_depreciated", "200.00", 10, 10, "2024-02-01"],
    ]);
    const run = await w.api.assets.depreciation.post({ month: "2026-07" });
    expect([run.assetCount, run.total]).toEqual([1, "50.00"]);
    // Rule 10: incoming movements dated the cut-over date starting FIFO layers; lot and expiry kept; default warehouse.
    const layers = await h
      .db("stock_layers as l")
      .join("warehouses as w", function () {
        this.on("w.company_id", "l.company_id").andOn("w.id", "l.warehouse_id");
      })
      .where("l.company_id", w.companyId)
      .orderBy("l.item_code")
      .select("l.item_code", "w.code as warehouse", "l.date", "l.quantity", "l.unit_cost", "l.value", "l.lot_number", "l.expiry_date");
    expect(
      layers.map((l) => [
        l.item_code,
        l.warehouse,
        l.date,
        new Decimal(l.quantity).toString(),
        new Decimal(l.unit_cost).toString(),
        money(l.value),
        l.lot_number,
        l.expiry_date,
      ]),
    ).toEqual([
      ["DAZAI", "CENTR", "2026-07-01", "10", "40", "400.00", null, null],
      ["PIENAS", "FILIAL", "2026-07-01", "4", "50", "200.00", "L-2026-06", "2026-08-01"],
    ]);
    expect((await h.db("stock_operations").where({ company_id: w.companyId })).map((o) => [o.kind, o.date, o.journal_transaction_id])).toEqual([
      ["migration", "2026-07-01", null],
      ["migration", "2026-07-01", null],
    ]);
    // Rule 13: one audit record migration.imported with the result as its summary, and the event.
    const audit = await h.db("audit_log").where({ company_id: w.companyId, operation: "migration.imported" });
    expect(audit.map((a) => [a.summary, a.target_ids])).toEqual([[result, [openingId]]]);
    const events = await h.db("webhook_events").where({ company_id: w.companyId, event_type: "migration.imported" });
    expect(events.map((e) => e.data)).toEqual([result]);
  });
});

describe("rule 12: sub-ledgers against the ledger", () => {
  test("a package that differs by known amounts answers exact warnings (validate and import alike)", async () => {
    const w = await booksWorld(h);
    const differing = pkgWith((p) => {
      p.openReceivables![1].outstanding = "310.00"; // receivables 1620.00 against 2410's 1610.00
      p.openPayables![0].outstanding = "499.99"; // payables 499.99 against 4430's 500.00
      p.stock![0].unitCost = "40.5"; // stock 605.00 against 2040's 600.00
      p.fixedAssets![0].accumulatedDepreciation = "750.00"; // VANS: 950.00 against 1237's 1000.00
    });
    const expected = [
      {
        code: "receivables_differ",
        section: "openReceivables",
        accountCode: "2410",
        groupCode: null,
        expected: "1620.00",
        actual: "1610.00",
        difference: "-10.00",
      },
      { code: "payables_differ", section: "openPayables", accountCode: "4430", groupCode: null, expected: "499.99", actual: "500.00", difference: "0.01" },
      { code: "stock_differs", section: "stock", accountCode: "2040", groupCode: null, expected: "605.00", actual: "600.00", difference: "-5.00" },
      {
        code: "asset_depreciation_differs",
        section: "fixedAssets",
        accountCode: "1237",
        groupCode: "VANS",
        expected: "950.00",
        actual: "1000.00",
        difference: "50.00",
      },
    ];
    const checked = await w.api.migration.books.validate(differing);
    expect(checked.warnings.map(({ message: _m, ...rest }) => rest)).toEqual(expected);
    expect(checked.warnings[0].message).toBe(
      "The outstanding total of openReceivables is 1620.00, but the balance of account 2410 in the package is 1610.00 (difference -10.00).",
    );
    const imported = await w.api.migration.books.import(differing);
    expect(imported.warnings).toEqual(checked.warnings);
    // Warnings are not errors: everything was stored.
    expect(await h.db("sale_invoices").where({ company_id: w.companyId }).count({ n: "*" })).toEqual([{ n: "3" }]);
  });
});

describe("rule 2: existing codes are left untouched", () => {
  test("an existing partner, item, group and account keep what they say and are counted existing", async () => {
    const w = await booksWorld(h);
    await w.api.partners.create({ name: "Senas pavadinimas", code: "111111111" });
    await w.api.catalog.items.create({ code: "DAZAI", name: "Seni dažai", type: "product", unit: "kg", vatRatePercent: "21" });
    await w.api.assets.groups.create({
      code: "VANS",
      name: "Seni furgonai",
      assetAccountCode: "1230",
      depreciationAccountCode: "1237",
      defaultUsefulLifeMonths: 48,
    });
    const result = await w.api.migration.books.import(agreeingPackage());
    expect([result.partners, result.items, result.assetGroups, result.accounts]).toEqual([
      { created: 1, existing: 1 },
      { created: 1, existing: 1 },
      { created: 0, existing: 1 },
      { created: 2, existing: 1 },
    ]);
    expect(await h.db("partners").where({ company_id: w.companyId, code: "111111111" }).first("name")).toEqual({ name: "Senas pavadinimas" });
    expect(await h.db("catalog_items").where({ company_id: w.companyId, code: "DAZAI" }).first("name", "unit")).toEqual({ name: "Seni dažai", unit: "kg" });
    expect(await h.db("asset_groups").where({ company_id: w.companyId, code: "VANS" }).first("default_useful_life_months")).toEqual({
      default_useful_life_months: 48,
    });
    // The group's own default life (48) applies to FA-1, which names none.
    expect(await h.db("fixed_assets").where({ company_id: w.companyId, code: "FA-1" }).first("useful_life_months")).toEqual({ useful_life_months: 48 });
    expect(await h.db("ledger_accounts").where({ company_id: w.companyId, code: "2410" }).first("name")).toEqual({ name: "Pirkėjų skolų vertė" });
    expect(
      await h
        .db("ledger_accounts")
        .where({ company_id: w.companyId })
        .whereIn("code", ["24X", "24X1"])
        .orderBy("code")
        .select("code", "parent_code", "is_postable"),
    ).toEqual([
      { code: "24X", parent_code: "24", is_postable: false },
      { code: "24X1", parent_code: "24X", is_postable: true },
    ]);
  });
});

describe("rule 3: the opening balances balance, or the difference goes to balancingAccountCode", () => {
  test("unbalanced with balancingAccountCode: the difference is posted there and reported", async () => {
    const w = await booksWorld(h);
    const p = pkgWith((p) => {
      p.openingBalances!.entries[7] = { accountCode: "3421", credit: "2500.00" };
      p.openingBalances!.balancingAccountCode = "999";
    });
    const result = await w.api.migration.books.import(p);
    expect(result.openingBalances).toMatchObject({ entries: 9, debitTotal: "6500.00", creditTotal: "6500.00", balancingAmount: "-100.00" });
    expect((await lines(w, result.openingBalances!.journalTransactionId!)).at(-1)).toEqual(["999", "0.00", "100.00"]);
  });

  test("unbalanced without it: 422 naming openingBalances.entries; nothing stored", async () => {
    const w = await booksWorld(h);
    const before = await stored(w);
    const e = await expectApiError(
      w.api.migration.books.import(pkgWith((p) => (p.openingBalances!.entries[7] = { accountCode: "3421", credit: "2500.00" }))),
      422,
      "unprocessable",
      "migration.rows_rejected",
    );
    expect(e.fieldErrors).toEqual({
      "openingBalances.entries": ["do not balance: debits 6500.00, credits 6400.00, difference 100.00; send balancingAccountCode to post the difference there"],
    });
    expect(await stored(w)).toEqual(before);
  });
});

describe("rule 4: once per company", () => {
  test("import twice: the second is 409 migration.opening_balances_exist and changes nothing", async () => {
    const w = await booksWorld(h);
    await w.api.migration.books.import(agreeingPackage());
    const after = await stored(w);
    const e = await expectApiError(
      w.api.migration.books.import(pkgWith((p) => ((p.openReceivables = undefined), (p.openPayables = undefined), (p.fixedAssets = undefined)))),
      409,
      "conflict",
      "migration.opening_balances_exist",
    );
    expect(e.params).toEqual({ journalTransactionId: expect.any(String) });
    expect(await stored(w)).toEqual(after);
    // Without openingBalances, a later package adds what it brings (here: more history).
    const later = await w.api.migration.books.import({
      cutoverDate: "2026-07-01",
      journal: [
        {
          date: "2026-06-20",
          entries: [
            { accountCode: "2720", debit: "5.00" },
            { accountCode: "2710", credit: "5.00" },
          ],
        },
      ],
    });
    expect(later.journal).toEqual({ transactions: 1, entries: 2 });
  });
});

describe("rule 5: the history", () => {
  test.each([
    [
      "a date on the cut-over date",
      (p: BooksPackage) => (p.journal![0].date = "2026-07-01"),
      { "journal[0].date": ["must be before the cut-over date 2026-07-01"] },
    ],
    [
      "a date before the opening balances",
      (p: BooksPackage) => (p.journal![1].date = "2026-05-31"),
      { "journal[1].date": ["must be on or after the opening balances' date 2026-06-01"] },
    ],
    [
      "an unbalanced transaction",
      (p: BooksPackage) => (p.journal![2].entries[2].credit = "19.99"),
      { "journal[2].entries": ["does not balance: debits 50.00, credits 49.99"] },
    ],
  ])("%s: 422 with its path; nothing stored", async (_name, change, fieldErrors) => {
    const w = await booksWorld(h);
    const before = await stored(w);
    const e = await expectApiError(w.api.migration.books.validate(pkgWith(change)), 422, "unprocessable", "migration.rows_rejected");
    expect(e.fieldErrors).toEqual(fieldErrors);
    await expectApiError(w.api.migration.books.import(pkgWith(change)), 422, "unprocessable", "migration.rows_rejected");
    expect(await stored(w)).toEqual(before);
  });
});

describe("rule 11: figures past what the books can hold", () => {
  test.each([
    [
      "an imported number that leaves its series no next number",
      (p: BooksPackage) => (p.openReceivables![1].number = "SF-999999999999"),
      "openReceivables[1].number",
      "leaves no next number in series SF (numbers go up to 2147483647)",
    ],
    [
      "stock rows of one item and warehouse adding up past a stock balance",
      (p: BooksPackage) => (p.stock = Array.from({ length: 101 }, () => ({ itemCode: "DAZAI", quantity: "999999999999", unitCost: "1000" }))),
      "stock[100]",
      "the rows of item DAZAI in one warehouse add up to more than 999999999999.9999 units or 999999999999999.99 in value",
    ],
  ])("%s: 422 naming the row, validate and import alike; nothing stored", async (_name, change, path, message) => {
    const w = await booksWorld(h);
    const before = await stored(w);
    const e = await expectApiError(w.api.migration.books.validate(pkgWith(change)), 422, "unprocessable", "migration.rows_rejected");
    expect(e.fieldErrors?.[path]).toEqual([message]);
    const i = await expectApiError(w.api.migration.books.import(pkgWith(change)), 422, "unprocessable", "migration.rows_rejected");
    expect(i.fieldErrors?.[path]).toEqual([message]);
    expect(await stored(w)).toEqual(before);
  });
});

describe("rule 6: every month touched is open", () => {
  test("a locked month of the history: 409 naming it; nothing stored", async () => {
    const w = await booksWorld(h);
    await w.api.ledger.periods.lock({ month: "2026-06" });
    const before = await stored(w);
    const e = await expectApiError(w.api.migration.books.import(agreeingPackage()), 409, "conflict", "migration.period_locked");
    expect(e.params).toEqual({ months: ["2026-06"] });
    expect(await stored(w)).toEqual(before);
  });
});

describe("rules 7 and 8: open items and numbering", () => {
  test("openPayables without openingBalances: 422; a series above the imported numbers is never lowered", async () => {
    const w = await booksWorld(h);
    const e = await expectApiError(
      w.api.migration.books.validate(pkgWith((p) => ((p.openingBalances = undefined), (p.journal = undefined)))),
      422,
      "unprocessable",
      "migration.rows_rejected",
    );
    expect(e.fieldErrors).toEqual({
      openPayables: ["requires openingBalances in the same package: registered purchase invoices are linked to the opening-balance transaction (rule 7)"],
    });

    await w.api.reference.series.create({ documentType: "sale_invoice", prefix: "SF", year: 2026, startAt: 100 });
    const result = await w.api.migration.books.import(agreeingPackage());
    expect(result.numberSeries).toEqual([
      { id: expect.any(String), documentType: "sale_invoice", prefix: "SF", year: 2026, nextNumber: 100, nextFormatted: "SF-100", created: false },
    ]);
    expect(
      await h.db("number_series").where({ company_id: w.companyId, document_type: "sale_invoice", prefix: "SF", year: 2026 }).first("next_number"),
    ).toEqual({ next_number: "100" });
  });
});

describe("rule 11: every failing row by its JSON path, validate and import alike", () => {
  test("one package with many problems lists each of them; nothing stored", async () => {
    const w = await booksWorld(h);
    const bad = pkgWith((p) => {
      p.accounts!.push({ code: "24X", name: "Dvigubas", type: "asset", parentCode: "24" });
      p.partners!.push({ code: "111111111", name: "Dvigubas" });
      p.items!.push({ code: "MONT", name: "Dvigubas" });
      p.journal![1].entries[0].accountCode = "NERA";
      p.journal![2].entries[0].accountCode = "24";
      p.openReceivables![0].partnerCode = "NEZINOMAS";
      p.openReceivables![2].fxRate = undefined;
      p.openReceivables![1].outstanding = "700.00";
      p.openReceivables!.push({ ...p.openReceivables![0], partnerCode: "111111111" });
      p.openPayables![0].documentDate = "2026-07-01";
      p.fixedAssets![0].groupCode = "NERA";
      p.fixedAssets![1].accumulatedDepreciation = "200.01";
      p.fixedAssets!.push({ ...p.fixedAssets![0], groupCode: "VANS" });
      p.stock![0].itemCode = "NERA";
      p.stock![1].warehouseCode = "NERA";
      p.stock!.push({ itemCode: "MONT", quantity: "1", unitCost: "1" });
      p.stock!.push({ itemCode: "PIENAS", quantity: "1", unitCost: "1" });
    });
    const expected = {
      "accounts[3].code": ["duplicate account code: accounts[1] has it too"],
      "partners[2].code": ["duplicate partner code: partners[0] has it too"],
      "items[2].code": ["duplicate item code: items[1] has it too"],
      "journal[1].entries[0].accountCode": ["account NERA does not exist"],
      "journal[2].entries[0].accountCode": ["account 24 is not postable"],
      "openReceivables[0].partnerCode": ["partner NEZINOMAS does not exist"],
      "openReceivables[1].outstanding": ["is above the gross total 605.00"],
      "openReceivables[2].fxRate": ["is required: USD is not the base currency EUR (units of USD per 1 EUR)"],
      "openReceivables[3].number": ["duplicate invoice number: openReceivables[0] has it too"],
      "openPayables[0].documentDate": ["must be before the cut-over date 2026-07-01"],
      "fixedAssets[0].groupCode": ["asset group NERA does not exist"],
      "fixedAssets[1].accumulatedDepreciation": ["is above the depreciable value 200.00 (cost − salvage)"],
      "fixedAssets[2].code": ["duplicate asset code: fixedAssets[0] has it too"],
      "stock[0].itemCode": ["item NERA does not exist"],
      "stock[1].warehouseCode": ["warehouse NERA does not exist"],
      "stock[2].itemCode": ["item MONT is a service; only products are stocked"],
      "stock[3].lotNumber": ["is required: item PIENAS is lot-tracked"],
    };
    const before = await stored(w);
    const v = await expectApiError(w.api.migration.books.validate(bad), 422, "unprocessable", "migration.rows_rejected");
    expect(v.fieldErrors).toEqual(expected);
    expect(v.params).toEqual({ problemCount: Object.keys(expected).length });
    const i = await expectApiError(w.api.migration.books.import(bad), 422, "unprocessable", "migration.rows_rejected");
    expect(i.fieldErrors).toEqual(expected);
    expect(await stored(w)).toEqual(before);
  });

  test("more than 100 failing rows: the first 100 paths, every one counted", async () => {
    const w = await booksWorld(h);
    const bad: BooksPackage = {
      cutoverDate: "2026-07-01",
      journal: Array.from({ length: 150 }, (_, i) => ({
        date: "2026-06-01",
        entries: [
          { accountCode: `X${i}`, debit: "1.00" },
          { accountCode: "2710", credit: "1.00" },
        ],
      })),
    };
    const e = await expectApiError(w.api.migration.books.validate(bad), 422, "unprocessable", "migration.rows_rejected");
    expect(Object.keys(e.fieldErrors!)).toHaveLength(100);
    expect(e.fieldErrors!["journal[99].entries[0].accountCode"]).toEqual(["account X99 does not exist"]);
    expect(e.params).toEqual({ problemCount: 150 });
  });

  test("numbers and codes that exist in the service: 409 migration.codes_exist naming each row; nothing stored", async () => {
    const w = await booksWorld(h);
    await w.api.migration.books.import({
      cutoverDate: "2026-07-01",
      partners: agreeingPackage().partners,
      assetGroups: agreeingPackage().assetGroups,
      openReceivables: [agreeingPackage().openReceivables![1]],
      fixedAssets: [agreeingPackage().fixedAssets![0]],
    });
    await w.api.migration.books.import({
      cutoverDate: "2026-07-01",
      openingBalances: {
        entries: [
          { accountCode: "2710", debit: "1.00" },
          { accountCode: "3010", credit: "1.00" },
        ],
      },
      openPayables: agreeingPackage().openPayables,
    });
    const before = await stored(w);
    const p = pkgWith((p) => ((p.openingBalances = undefined), (p.journal = undefined), (p.openPayables = [p.openPayables![0]])));
    p.openingBalances = undefined;
    const e = await expectApiError(w.api.migration.books.validate({ ...p, openPayables: undefined }), 409, "conflict", "migration.codes_exist");
    expect(e.fieldErrors).toEqual({ "openReceivables[1].number": ["invoice SF-42 exists already"], "fixedAssets[0].code": ["asset FA-1 exists already"] });
    // Not the package imported above (issue 22: that one again is migration.package_imported), but its payable again.
    const payable = await expectApiError(
      w.api.migration.books.import({
        cutoverDate: "2026-07-01",
        openingBalances: {
          entries: [
            { accountCode: "2710", debit: "2.00" },
            { accountCode: "3010", credit: "2.00" },
          ],
        },
        openPayables: agreeingPackage().openPayables,
      }),
      409,
      "conflict",
      "migration.codes_exist",
    );
    expect(payable.fieldErrors).toEqual({ "openPayables[0].documentNumber": ["partner 222222222's document T-100 exists already"] });
    expect(await stored(w)).toEqual(before);
  });

  test("prerequisites: no chart of accounts, no warehouse for stock: 422", async () => {
    const t = await h.tenant();
    await expectApiError(
      t.api.migration.books.validate({ cutoverDate: "2026-07-01", partners: [{ code: "1", name: "A" }] }),
      422,
      "unprocessable",
      "migration.no_chart",
    );
    const w = await booksWorld(h, { warehouse: false });
    await expectApiError(w.api.migration.books.import(agreeingPackage()), 422, "unprocessable", "migration.no_warehouse");
    expect(await h.db("partners").where({ company_id: w.companyId }).count({ n: "*" })).toEqual([{ n: "0" }]);
  });
});

describe("scopes, tenancy and the body limit", () => {
  /** The SDK client, on `companyId`, of a new key of `rootKey`'s account with these scopes. */
  const clientWith = async (rootKey: string, scopes: Scope[], companyId: string) =>
    (await keyWith(h, rootKey, scopes, { name: `k-${scopes.join("-")}`, companyId })).api;
  const ALL: Scope[] = ["ledger:write", "partners:write", "catalog:write", "sales:write", "purchases:write", "assets:write", "inventory:write"];

  test.each([
    ["partners", "partners:write"],
    ["items", "catalog:write"],
    ["openReceivables", "sales:write"],
    ["openPayables", "purchases:write"],
    ["assetGroups", "assets:write"],
    ["fixedAssets", "assets:write"],
    ["stock", "inventory:write"],
  ])("a package with %s needs %s (403 naming it); with every scope it passes", async (section, scope: Scope) => {
    const w = await booksWorld(h);
    const p = { cutoverDate: "2026-07-01", openingBalances: agreeingPackage().openingBalances, [section]: [] } as BooksPackage;
    const without = await clientWith(
      w.apiKey,
      ALL.filter((s) => s !== scope),
      w.companyId,
    );
    for (const op of ["validate", "import"] as const) {
      const error = await expectApiError(without.migration.books[op](p), 403, "forbidden", "auth.scope_missing");
      expect(error.params).toEqual({ requiredScope: scope, section });
    }
    expect(await h.db("journal_transactions").where({ company_id: w.companyId }).count({ n: "*" })).toEqual([{ n: "0" }]);
    const all = await clientWith(w.apiKey, ALL, w.companyId);
    expect(await all.migration.books.validate(p)).toMatchObject({ dryRun: true });
    expect(await h.db("journal_transactions").where({ company_id: w.companyId }).count({ n: "*" })).toEqual([{ n: "0" }]);
  });

  test("without ledger:write: 403 naming it", async () => {
    const w = await booksWorld(h);
    const client = await clientWith(
      w.apiKey,
      ALL.filter((s) => s !== "ledger:write"),
      w.companyId,
    );
    const error = await expectApiError(client.migration.books.import({ cutoverDate: "2026-07-01" }), 403, "forbidden", "auth.scope_missing");
    expect(error.params).toEqual({ requiredScope: "ledger:write" });
  });

  test("another account's company is 404, and nothing is written into it", async () => {
    const w = await booksWorld(h);
    const other = await booksWorld(h);
    const before = await stored(other);
    for (const op of ["validate", "import"] as const) {
      await expectApiError(w.api.migration.books[op](agreeingPackage(), { companyId: other.companyId }), 404, "not_found", "company.not_found");
    }
    expect(await stored(other)).toEqual(before);
  });

  // Raw: the body limit is about bytes on the wire (padding no SDK call sends).
  test("32 MB: a body of exactly 33554432 bytes is read, one byte more is 413; other operations keep their 1 MB", async () => {
    const w = await booksWorld(h);
    const json = JSON.stringify({ cutoverDate: "2026-07-01" });
    const exact = Buffer.alloc(33_554_432, " ");
    exact.write(json);
    const at = await h.post("/v1/migration/books/validate", undefined, { key: w.apiKey, companyId: w.companyId, rawBody: exact });
    expect([at.status, at.body.dryRun]).toEqual([200, true]);
    const over = Buffer.alloc(33_554_433, " ");
    over.write(json);
    const above = await h.post("/v1/migration/books/import", undefined, { key: w.apiKey, companyId: w.companyId, rawBody: over });
    expectError(above, 413, "payload_too_large", "request.body_too_large");
    expect(above.body.error.params).toEqual({ limitBytes: 33_554_432 });
    const partner = Buffer.alloc(1_048_577, " ");
    partner.write(JSON.stringify({ code: "X1", name: "X" }));
    expectError(
      await h.post("/v1/partners/create", undefined, { key: w.apiKey, companyId: w.companyId, rawBody: partner }),
      413,
      "payload_too_large",
      "request.body_too_large",
    );
    expect(await h.db("partners").where({ company_id: w.companyId }).count({ n: "*" })).toEqual([{ n: "0" }]);
  });
});

describe("the operator CLI", () => {
  test("migrate-books --dry-run validates, without it imports; progress on stderr, the result JSON on stdout", async () => {
    const w = await booksWorld(h);
    const dir = mkdtempSync(join(tmpdir(), "books-"));
    try {
      const file = join(dir, "package.json");
      writeFileSync(file, JSON.stringify(agreeingPackage()));
      const env = { DATABASE_URL: h.connectionString };
      const dry = await runCli(["migrate-books", "--company", w.companyId, "--file", file, "--dry-run"], env);
      expect(dry.code).toBe(0);
      expect(JSON.parse(dry.stdout)).toEqual({
        ...EXPECTED,
        dryRun: true,
        openingBalances: { ...EXPECTED.openingBalances, journalTransactionId: null },
        numberSeries: [{ ...EXPECTED.numberSeries[0], id: null }],
      });
      expect(await h.db("sale_invoices").where({ company_id: w.companyId }).count({ n: "*" })).toEqual([{ n: "0" }]);
      const run = await runCli(["migrate-books", "--company", w.companyId, "--file", file], env);
      expect(run.code).toBe(0);
      expect(run.stderr).toContain("100% commit");
      const result = JSON.parse(run.stdout);
      expect(result).toMatchObject({ dryRun: false, openReceivables: EXPECTED.openReceivables, stock: EXPECTED.stock });
      expect(await h.db("audit_log").where({ company_id: w.companyId, operation: "migration.imported" }).select("key_id", "request_id")).toEqual([
        { key_id: null, request_id: "cli" },
      ]);
      // Again: 409 on stderr (the package was imported: issue 22), exit code 1, nothing on stdout.
      const again = await runCli(["migrate-books", "--company", w.companyId, "--file", file], env);
      expect([again.code, again.stdout, again.stderr.includes("(migration.package_imported)")]).toEqual([1, "", true]);
      writeFileSync(file, JSON.stringify({ cutoverDate: "2026-13-01" }));
      const invalid = await runCli(["migrate-books", "--company", w.companyId, "--file", file, "--dry-run"], env);
      expect([invalid.code, invalid.stderr.includes("(request.invalid)")]).toEqual([1, true]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
