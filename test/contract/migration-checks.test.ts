// migration/books/validate and migration/books/import, the checks a review found untested or wrong (issue 13): series
// numbers past what a series can show, serial numbers already in stock, the prefix of numbers that are not the
// service's own, fxRate with the base currency, locked opening-balance months, payable document numbers per
// supplier, non-postable opening accounts, the asset-cost warning to the cent and the opening date's default. Each
// case asserts what was, or was not, stored; validate and import answer alike.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { startHarness, type Harness } from "../support/harness.js";
import { expectApiError } from "../support/expect.js";
import { agreeingPackage, booksWorld, journalLines, pkgWith, storedRows, type BooksPackage, type BooksWorld } from "../support/books.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 180_000);
afterAll(() => h.close());

/** Asserts the same 422 (or 409) from validate and import, with exactly these fieldErrors, and nothing stored. */
async function refused(w: BooksWorld, p: BooksPackage, status: 409 | 422, fieldErrors: Record<string, string[]>) {
  const [code, key] = status === 422 ? ["unprocessable", "migration.rows_rejected"] : ["conflict", "migration.codes_exist"];
  const before = await storedRows(h, w);
  for (const call of [w.api.migration.books.validate, w.api.migration.books.import]) {
    const e = await expectApiError(call(p), status, code, key);
    expect([e.fieldErrors, e.params]).toEqual([fieldErrors, { problemCount: Object.keys(fieldErrors).length }]);
  }
  expect(await storedRows(h, w)).toEqual(before);
}

const seriesOf = async (w: BooksWorld) =>
  (await h.db("number_series").where({ company_id: w.companyId, document_type: "sale_invoice" }).orderBy("prefix")).map((s) => [
    s.prefix,
    s.year,
    s.next_number,
  ]);

describe("rule 8: a number past what a series can show", () => {
  test("SF-2147483646 raises SF to 2147483647, the highest nextNumber; the series list shows it within the contract", async () => {
    const w = await booksWorld(h);
    const p = pkgWith((p) => (p.openReceivables![1].number = "SF-2147483646"));
    const expected = [
      { id: null, documentType: "sale_invoice", prefix: "SF", year: 2026, nextNumber: 2147483647, nextFormatted: "SF-2147483647", created: true },
    ];
    expect((await w.api.migration.books.validate(p)).numberSeries).toEqual(expected);
    const imported = await w.api.migration.books.import(p);
    expect(imported.numberSeries).toEqual([{ ...expected[0], id: expect.any(String) }]);
    expect(await seriesOf(w)).toEqual([["SF", 2026, "2147483647"]]);
    const listed = await w.api.reference.series.list({ filter: [{ field: "documentType", op: "eq", value: "sale_invoice" }] });
    expect(listed.rows.map((s) => [s.prefix, s.nextNumber, s.nextFormatted])).toEqual([["SF", 2147483647, "SF-2147483647"]]);
  });

  test.each([["SF-2147483647"], ["SF-99999999999999"]])("%s of the cut-over year: 422 naming the row; no series touched", async (number) => {
    const w = await booksWorld(h);
    await refused(
      w,
      pkgWith((p) => (p.openReceivables![1].number = number)),
      422,
      {
        "openReceivables[1].number": ["leaves no next number in series SF (numbers go up to 2147483647)"],
      },
    );
    expect(await seriesOf(w)).toEqual([]);
  });
});

describe("rule 8: numbers that are not PREFIX-N touch no series", () => {
  test("INV/2026/3 keeps its own prefix INV/2026, a bare 20260017 is MIGRATED, SF-42 is SF; only SF 2026 is raised", async () => {
    const w = await booksWorld(h);
    const p = pkgWith((p) => p.openReceivables!.push({ partnerCode: "111111111", number: "20260017", issueDate: "2026-06-20", grossTotal: "10.00" }));
    // The ledger's receivable counts the added invoice too (no warning).
    p.openingBalances!.entries[0].debit = "1010.00";
    p.openingBalances!.entries[6].credit = "2510.00";
    const result = await w.api.migration.books.import(p);
    expect(result.numberSeries.map((s) => [s.prefix, s.year, s.nextNumber])).toEqual([["SF", 2026, 43]]);
    const stored = await h.db("sale_invoices").where({ company_id: w.companyId }).orderBy("number").select("number", "series_prefix", "series_id");
    expect(stored).toEqual([
      { number: "20260017", series_prefix: "MIGRATED", series_id: null },
      { number: "INV/2026/3", series_prefix: "INV/2026", series_id: null },
      { number: "SF-42", series_prefix: "SF", series_id: null },
      { number: "SF-7", series_prefix: "SF", series_id: null },
    ]);
    expect(await seriesOf(w)).toEqual([["SF", 2026, "43"]]);
    const id = (await h.db("sale_invoices").where({ company_id: w.companyId, number: "INV/2026/3" }).first("id")).id;
    expect(await w.api.sales.invoices.get({ id })).toMatchObject({ number: "INV/2026/3", seriesPrefix: "INV/2026" });
  });
});

describe("rule 11: fxRate with the base currency", () => {
  test("fxRate 1 (or 1.000) for EUR is accepted and stored as the base rate", async () => {
    const w = await booksWorld(h);
    const p = pkgWith((p) => {
      p.openReceivables![0].fxRate = "1";
      p.openPayables![0] = { ...p.openPayables![0], currency: "EUR", fxRate: "1.000" };
    });
    const result = await w.api.migration.books.import(p);
    expect([result.openReceivables.outstandingTotal, result.openPayables.outstandingTotal]).toEqual(["1610.00", "500.00"]);
    const sale = await h.db("sale_invoices").where({ company_id: w.companyId, number: "SF-7" }).first("rate", "rate_source", "gross_total_base");
    expect([Number(sale.rate), sale.rate_source, sale.gross_total_base]).toEqual([1, "base", "1210.00"]);
    const purchase = await h.db("purchase_invoices").where({ company_id: w.companyId, document_number: "T-100" }).first("rate", "rate_source");
    expect([Number(purchase.rate), purchase.rate_source]).toEqual([1, "base"]);
  });

  test("any other fxRate for EUR: 422 naming the field, receivables and payables alike", async () => {
    const w = await booksWorld(h);
    const p = pkgWith((p) => {
      p.openReceivables![0].fxRate = "1.1";
      p.openPayables![0].fxRate = "0.99";
    });
    await refused(w, p, 422, {
      "openReceivables[0].fxRate": ["must be 1 or left out: EUR is the base currency"],
      "openPayables[0].fxRate": ["must be 1 or left out: EUR is the base currency"],
    });
  });
});

describe("rule 11: serial numbers already in stock", () => {
  test("a serial number in stock: 409 migration.codes_exist naming the row, from validate as from import", async () => {
    const w = await booksWorld(h);
    await w.api.catalog.items.create({ code: "TELEF", name: "Telefonas", type: "product", unit: "vnt", vatRatePercent: "21", tracking: "serial" });
    await w.api.migration.books.import({ cutoverDate: "2026-07-01", stock: [{ itemCode: "TELEF", quantity: "1", unitCost: "300", lotNumber: "SN-1" }] });
    const again: BooksPackage = {
      cutoverDate: "2026-07-01",
      stock: [
        { itemCode: "TELEF", quantity: "1", unitCost: "300", lotNumber: "SN-2" },
        { itemCode: "TELEF", quantity: "1", unitCost: "300", lotNumber: "SN-1", warehouseCode: "FILIAL" },
      ],
    };
    await refused(w, again, 409, { "stock[1].lotNumber": ["serial number SN-1 of item TELEF is in stock already"] });
    expect(await h.db("stock_layers").where({ company_id: w.companyId, item_code: "TELEF" }).pluck("serial_number")).toEqual(["SN-1"]);
  });
});

describe("rule 6: the opening balances' month", () => {
  test("a locked month of the opening balances: 409 migration.period_locked naming it; nothing stored", async () => {
    const w = await booksWorld(h);
    await w.api.ledger.periods.lock({ month: "2026-05" });
    const p: BooksPackage = {
      cutoverDate: "2026-07-01",
      openingBalances: {
        date: "2026-05-31",
        entries: [
          { accountCode: "2710", debit: "1.00" },
          { accountCode: "3010", credit: "1.00" },
        ],
      },
    };
    const before = await storedRows(h, w);
    for (const call of [w.api.migration.books.validate, w.api.migration.books.import]) {
      const e = await expectApiError(call(p), 409, "conflict", "migration.period_locked");
      expect(e.params).toEqual({ months: ["2026-05"] });
    }
    expect(await storedRows(h, w)).toEqual(before);
  });
});

describe("rule 6: the stock's month", () => {
  test("stock only, its cut-over month locked: 409 migration.period_locked naming it (stock movements are dated the cut-over date); nothing stored", async () => {
    const w = await booksWorld(h);
    await w.api.catalog.items.create({ code: "DAZAI", name: "Dažai", type: "product", unit: "l", vatRatePercent: "21" });
    await w.api.ledger.periods.lock({ month: "2026-07" });
    const p: BooksPackage = { cutoverDate: "2026-07-01", stock: [{ itemCode: "DAZAI", quantity: "10", unitCost: "4.50" }] };
    const before = await storedRows(h, w);
    for (const call of [w.api.migration.books.validate, w.api.migration.books.import]) {
      const e = await expectApiError(call(p), 409, "conflict", "migration.period_locked");
      expect(e.params).toEqual({ months: ["2026-07"] });
    }
    expect(await storedRows(h, w)).toEqual(before);
    expect(await h.db("stock_layers").where({ company_id: w.companyId }).count({ n: "*" })).toEqual([{ n: "0" }]);
  });
});

describe("rule 3: the opening balances", () => {
  test("without a date, the transaction is dated the cut-over date", async () => {
    const w = await booksWorld(h);
    const p: BooksPackage = {
      cutoverDate: "2026-07-01",
      openingBalances: {
        entries: [
          { accountCode: "2710", debit: "12.34" },
          { accountCode: "3010", credit: "12.34" },
        ],
      },
    };
    const expected = { date: "2026-07-01", entries: 2, debitTotal: "12.34", creditTotal: "12.34", balancingAmount: "0.00" };
    expect((await w.api.migration.books.validate(p)).openingBalances).toEqual({ ...expected, journalTransactionId: null });
    const imported = await w.api.migration.books.import(p);
    expect(imported.openingBalances).toEqual({ ...expected, journalTransactionId: expect.any(String) });
    const stored = await h
      .db("journal_transactions")
      .where({ company_id: w.companyId, id: imported.openingBalances!.journalTransactionId })
      .first("date", "document_type");
    expect(stored).toEqual({ date: "2026-07-01", document_type: "migration_opening" });
    expect(await journalLines(h, w, imported.openingBalances!.journalTransactionId!)).toEqual([
      ["2710", "12.34", "0.00"],
      ["3010", "0.00", "12.34"],
    ]);
  });

  test("a non-postable or unknown account, also as balancingAccountCode: 422 naming each; nothing stored", async () => {
    const w = await booksWorld(h);
    const p = pkgWith((p) => {
      p.openingBalances!.entries[4].accountCode = "27"; // a group account of lt-standard
      p.openingBalances!.entries[7].accountCode = "NERA";
      p.openingBalances!.balancingAccountCode = "24";
      p.journal = undefined;
    });
    await refused(w, p, 422, {
      "openingBalances.entries[4].accountCode": ["account 27 is not postable"],
      "openingBalances.entries[7].accountCode": ["account NERA does not exist"],
    });
    // The balancing account is checked when there is a difference to post.
    p.openingBalances!.entries[7] = { accountCode: "3421", credit: "2500.00" };
    p.openingBalances!.entries[4].accountCode = "2710";
    await refused(w, p, 422, { "openingBalances.balancingAccountCode": ["account 24 is not postable"] });
  });
});

describe("rule 11: purchase document numbers are unique per supplier", () => {
  const supplier2 = { code: "333333333", name: "UAB Kitas tiekėjas", isCustomer: false, isSupplier: true };

  test("the same number twice for one supplier in the package: 422 naming the second; for another supplier it is no duplicate", async () => {
    const w = await booksWorld(h);
    const p = pkgWith((p) => {
      p.partners!.push(supplier2);
      p.openPayables!.push(
        { partnerCode: "222222222", documentNumber: "T-100", documentDate: "2026-06-15", grossTotal: "1.00" },
        { partnerCode: "333333333", documentNumber: "T-100", documentDate: "2026-06-15", grossTotal: "2.00" },
      );
    });
    await refused(w, p, 422, { "openPayables[1].documentNumber": ["duplicate document number of this partner: openPayables[0] has it too"] });
    p.openPayables!.splice(1, 1);
    const result = await w.api.migration.books.import(p);
    expect(result.openPayables).toEqual({ created: 2, outstandingTotal: "502.00" });
    expect(await h.db("purchase_invoices").where({ company_id: w.companyId }).orderBy("partner_code").select("partner_code", "document_number")).toEqual([
      { partner_code: "222222222", document_number: "T-100" },
      { partner_code: "333333333", document_number: "T-100" },
    ]);
  });

  test("a number the supplier has in the service already: 409 naming the row; another supplier's same number is not named", async () => {
    const w = await booksWorld(h);
    await w.api.migration.books.import(agreeingPackage());
    const p: BooksPackage = {
      cutoverDate: "2026-07-01",
      partners: [supplier2],
      openingBalances: {
        entries: [
          { accountCode: "2710", debit: "1.00" },
          { accountCode: "3010", credit: "1.00" },
        ],
      },
      openPayables: [
        { partnerCode: "333333333", documentNumber: "T-100", documentDate: "2026-06-15", grossTotal: "5.00" },
        { partnerCode: "222222222", documentNumber: "T-100", documentDate: "2026-06-15", grossTotal: "5.00" },
      ],
    };
    await refused(w, p, 409, { "openPayables[1].documentNumber": ["partner 222222222's document T-100 exists already"] });
  });
});

describe("rule 12: the asset cost of a group against its asset account", () => {
  test("a cent of difference is an exact asset_cost_differs warning, validate and import alike", async () => {
    const w = await booksWorld(h);
    const p = pkgWith((p) => (p.fixedAssets![0].acquisitionCost = "2000.01"));
    const expected = [
      {
        code: "asset_cost_differs",
        message: "The cost of the fixed assets of group VANS is 3000.01, but the balance of account 1230 in the package is 3000.00 (difference -0.01).",
        section: "fixedAssets",
        accountCode: "1230",
        groupCode: "VANS",
        expected: "3000.01",
        actual: "3000.00",
        difference: "-0.01",
      },
    ];
    expect((await w.api.migration.books.validate(p)).warnings).toEqual(expected);
    const imported = await w.api.migration.books.import(p);
    expect([imported.warnings, imported.fixedAssets.costTotal]).toEqual([expected, "3000.01"]);
    expect(await h.db("fixed_assets").where({ company_id: w.companyId, code: "FA-1" }).first("acquisition_cost")).toEqual({ acquisition_cost: "2000.01" });
  });
});

describe("rule 10: lot and expiry only for an item tracked by them (issue 22, item 10)", () => {
  test.each([
    [
      "a lot number for an existing untracked item",
      (p: BooksPackage) => (p.stock![0].lotNumber = "L-1"),
      { "stock[0].lotNumber": ["item DAZAI is tracked by neither lot nor serial number: send the row without a lot number"] },
    ],
    [
      "an expiry date for an existing untracked item",
      (p: BooksPackage) => (p.stock![0].expiryDate = "2026-12-31"),
      { "stock[0].expiryDate": ["item DAZAI is tracked by neither lot nor serial number: send the row without an expiry date"] },
    ],
    [
      "both for an item the package creates (untracked)",
      (p: BooksPackage) => p.stock!.push({ itemCode: "DAZAI", quantity: "1", unitCost: "40", lotNumber: "L-2", expiryDate: "2027-01-31" }),
      {
        "stock[2].lotNumber": ["item DAZAI is tracked by neither lot nor serial number: send the row without a lot number"],
        "stock[2].expiryDate": ["item DAZAI is tracked by neither lot nor serial number: send the row without an expiry date"],
      },
    ],
  ])("%s: 422 naming the field, validate and import alike; nothing stored", async (_name, change, fieldErrors) => {
    const w = await booksWorld(h);
    if (_name.includes("existing")) await w.api.catalog.items.create({ code: "DAZAI", name: "Dažai", type: "product", unit: "vnt", vatRatePercent: "21" });
    await refused(w, pkgWith(change), 422, fieldErrors);
    expect(await h.db("stock_layers").where({ company_id: w.companyId }).count({ n: "*" })).toEqual([{ n: "0" }]);
  });

  test("a lot-tracked item keeps its lot and expiry (the agreeing package's PIENAS)", async () => {
    const w = await booksWorld(h);
    await w.api.migration.books.import(agreeingPackage());
    expect(await h.db("stock_layers").where({ company_id: w.companyId }).orderBy("item_code").select("item_code", "lot_number", "expiry_date")).toEqual([
      { item_code: "DAZAI", lot_number: null, expiry_date: null },
      { item_code: "PIENAS", lot_number: "L-2026-06", expiry_date: "2026-08-01" },
    ]);
  });
});

describe("rule 2: an existing account of another type (issue 22, item 10)", () => {
  test("an account whose code exists with another type: 422 naming its type, validate and import alike; nothing stored", async () => {
    const w = await booksWorld(h);
    // 2410 is an asset in the lt-standard chart; 5000 an income account.
    const p = pkgWith((p) => {
      p.accounts![0] = { code: "2410", name: "Pirkėjų skolos", type: "liability" };
      p.accounts!.push({ code: "5000", name: "Pardavimai", type: "income" });
    });
    await refused(w, p, 422, {
      "accounts[0].type": ["account 2410 exists with type asset; an existing account is left as it is, so the package must give that type (or another code)"],
    });
    expect(await h.db("ledger_accounts").where({ company_id: w.companyId, code: "2410" }).first("type")).toEqual({ type: "asset" });
    // With the chart's own type it is counted existing and left as it is.
    const ok = await w.api.migration.books.validate(pkgWith((p) => p.accounts!.push({ code: "5000", name: "Pardavimai", type: "income" })));
    expect(ok.accounts).toEqual({ created: 2, existing: 2 });
  });
});
