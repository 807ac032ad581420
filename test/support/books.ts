// What the migration suites share: a company ready for a historical-books import (lt-standard chart, warehouses
// CENTR (default) and FILIAL, a lot-tracked item), and a package whose sub-ledgers agree with its ledger to the cent.
import { Decimal } from "decimal.js";
import type { AccountingApi } from "../../sdk/typescript/src/index.js";
import type { Harness } from "./harness.js";
import { world } from "./world.js";

export type BooksPackage = Parameters<AccountingApi["migration"]["books"]["import"]>[0];

export interface BooksWorld {
  companyId: string;
  apiKey: string;
  accountId: string;
  api: AccountingApi;
}

export async function booksWorld(h: Harness, options: { warehouse?: boolean } = {}): Promise<BooksWorld> {
  const w = await world(h, {
    warehouses:
      options.warehouse === false
        ? []
        : [
            { code: "CENTR", name: "Centrinis sandėlis" },
            { code: "FILIAL", name: "Filialas" },
          ],
    items: [{ code: "PIENAS", name: "Pienas", type: "product", unit: "l", vatRatePercent: "21", tracking: "lot" }],
  });

  return { companyId: w.companyId, apiKey: w.apiKey, accountId: w.accountId, api: w.api };
}

/**
 * Cut-over 2026-07-01, opening balances on 2026-06-01, June's journal. Its ledger: 2410 debit 1610.00, 4430 credit
 * 500.00, 2040 debit 600.00, 1230 debit 3000.00, 1237 credit 1000.00 — exactly what its open items, stock and fixed
 * assets add up to.
 */
export function agreeingPackage(): BooksPackage {
  return {
    cutoverDate: "2026-07-01",
    source: "Rivilė 2.0",
    accounts: [
      { code: "2410", name: "Pirkėjų skolos (jau yra)", type: "asset" },
      { code: "24X", name: "Kitos gautinos sumos (sena sistema)", type: "asset", parentCode: "24" },
      { code: "24X1", name: "Kitos gautinos sumos 1", type: "asset", parentCode: "24X" },
    ],
    partners: [
      { code: "111111111", name: "UAB Pirkėjas", vatCode: "LT100001111111", isCustomer: true },
      { code: "222222222", name: "UAB Tiekėjas", isCustomer: false, isSupplier: true },
    ],
    items: [
      { code: "DAZAI", name: "Dažai 5 l", type: "product", unit: "vnt", vatRatePercent: "21", salePriceExclVat: "30", purchasePriceExclVat: "20" },
      { code: "MONT", name: "Montavimas", type: "service", unit: "val" },
    ],
    assetGroups: [{ code: "VANS", name: "Furgonai", assetAccountCode: "1230", depreciationAccountCode: "1237", defaultUsefulLifeMonths: 36 }],
    openingBalances: {
      date: "2026-06-01",
      entries: [
        { accountCode: "2410", debit: "1000.00" },
        { accountCode: "2040", debit: "500.00" },
        { accountCode: "1230", debit: "3000.00" },
        { accountCode: "1237", credit: "1000.00" },
        { accountCode: "2710", debit: "2000.00" },
        { accountCode: "4430", credit: "400.00" },
        { accountCode: "3010", credit: "2500.00" },
        { accountCode: "3421", credit: "2600.00" },
      ],
    },
    journal: [
      {
        date: "2026-06-10",
        description: "Pardavimas",
        reference: "SF-42",
        entries: [
          { accountCode: "2410", debit: "610.00" },
          { accountCode: "5000", credit: "610.00" },
        ],
      },
      {
        date: "2026-06-15",
        reference: "T-100",
        entries: [
          { accountCode: "2040", debit: "100.00" },
          { accountCode: "4430", credit: "100.00" },
        ],
      },
      {
        date: "2026-06-30",
        entries: [
          { accountCode: "2720", debit: "50.00" },
          { accountCode: "2710", credit: "30.00" },
          { accountCode: "2710", credit: "20.00" },
        ],
      },
    ],
    openReceivables: [
      { partnerCode: "111111111", number: "SF-7", issueDate: "2025-12-20", grossTotal: "1210.00", vatTotal: "210.00" },
      {
        partnerCode: "111111111",
        number: "SF-42",
        issueDate: "2026-06-10",
        dueDate: "2026-07-10",
        grossTotal: "605.00",
        vatTotal: "105.00",
        outstanding: "300.00",
      },
      { partnerCode: "111111111", number: "INV/2026/3", issueDate: "2026-05-05", grossTotal: "110.00", currency: "USD", fxRate: "1.1" },
    ],
    openPayables: [{ partnerCode: "222222222", documentNumber: "T-100", documentDate: "2026-06-15", grossTotal: "500.00", vatTotal: "86.78" }],
    fixedAssets: [
      {
        groupCode: "VANS",
        code: "FA-1",
        name: "Ford Transit",
        acquisitionDate: "2025-06-10",
        acquisitionCost: "2000.00",
        accumulatedDepreciation: "800.00",
        depreciatedMonths: 12,
      },
      {
        groupCode: "VANS",
        code: "FA-2",
        name: "VW Caddy",
        acquisitionDate: "2024-01-20",
        acquisitionCost: "1000.00",
        salvageValue: "800.00",
        accumulatedDepreciation: "200.00",
        depreciatedMonths: 10,
        usefulLifeMonths: 10,
      },
    ],
    stock: [
      { itemCode: "DAZAI", quantity: "10", unitCost: "40" },
      { itemCode: "PIENAS", quantity: "4", unitCost: "50", warehouseCode: "FILIAL", lotNumber: "L-2026-06", expiryDate: "2026-08-01" },
    ],
  };
}

/** The agreeing package with changes. */
export function pkgWith(change: (p: BooksPackage) => void): BooksPackage {
  const p = agreeingPackage();
  change(p);
  return p;
}

/** Row counts of everything an import writes, for "nothing was stored". */
export async function storedRows(h: Harness, w: Pick<BooksWorld, "companyId">) {
  const count = async (table: string, where: Record<string, unknown> = {}) =>
    Number(
      (
        await h
          .db(table)
          .where({ company_id: w.companyId, ...where })
          .count({ n: "*" })
      )[0].n,
    );
  return {
    accounts: await count("ledger_accounts"),
    partners: await count("partners"),
    items: await count("catalog_items"),
    assetGroups: await count("asset_groups"),
    transactions: await count("journal_transactions"),
    entries: await count("journal_entries"),
    saleInvoices: await count("sale_invoices"),
    purchaseInvoices: await count("purchase_invoices"),
    assets: await count("fixed_assets"),
    movements: await count("stock_movements"),
    layers: await count("stock_layers"),
    series: await count("number_series"),
    events: await count("webhook_events", { event_type: "migration.imported" }),
    audit: await count("audit_log", { operation: "migration.imported" }),
  };
}

/** A journal transaction's lines as [account, debit, credit], in line order. */
export async function journalLines(h: Harness, w: Pick<BooksWorld, "companyId">, transactionId: string): Promise<string[][]> {
  const money = (v: string) => new Decimal(v).toFixed(2);
  return (await h.db("journal_entries").where({ company_id: w.companyId, transaction_id: transactionId }).orderBy("line_no")).map((e) => [
    e.account_code,
    money(e.debit),
    money(e.credit),
  ]);
}
