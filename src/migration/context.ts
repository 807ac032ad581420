// What a package refers to in the service, loaded with one set query per kind (never one per row): the chart, the
// partners, items, groups and warehouses named, the numbers and codes that would collide, the company's
// opening-balance transaction, the locked months touched, the sale-invoice series of the cut-over year, the
// accounts of the posting rules the sub-ledgers are compared with, and the earlier imports of the same package. It
// takes the lookups of the package's digest (digest.ts), never the package: that may be in a worker thread.
import type { Db } from "../db/connection.js";
import { plainQuery } from "../db/prepared.js";
import { accountsForRules } from "../ledger/index.js";
import type { BooksLookups, EarlierImport } from "./types.js";

export interface BooksContext {
  accounts: Map<string, { type: string; is_postable: boolean; statement_line: string | null; saft_account_table_id: string | null }>;
  partners: Set<string>;
  items: Map<string, { type: string; tracking: string }>;
  groups: Map<string, { assetAccountCode: string; depreciationAccountCode: string; defaultUsefulLifeMonths: number }>;
  warehouses: Map<string, string>;
  defaultWarehouseId: string | undefined;
  saleNumbers: Set<string>;
  /** `partnerCode \0 documentNumber` */
  purchaseNumbers: Set<string>;
  assetCodes: Set<string>;
  /** `itemCode \0 serialNumber` of the package's lot numbers that are serial numbers in stock already. */
  serialsInStock: Set<string>;
  openingId: string | null;
  lockedMonths: Set<string>;
  /** The sale-invoice series of the cut-over year by prefix. */
  series: Map<string, { id: string; nextNumber: number }>;
  rules: { receivable: string; payables: string; stock: string; depreciationExpense: string };
  /** The company's earlier imports of a package with the same fingerprint, oldest first. */
  imports: EarlierImport[];
}

export async function loadContext(db: Db, companyId: string, l: BooksLookups): Promise<BooksContext> {
  const q = <R extends Record<string, unknown>>(text: string, values: unknown[]) => plainQuery<R>(db, text, [companyId, ...values]);
  const { partnerCodes, itemCodes, months } = l;
  // In parallel on the pool (validate); one after another on a transaction's one connection (import).
  const all = <T extends readonly unknown[]>(queries: { [K in keyof T]: () => Promise<T[K]> }): Promise<T> =>
    (db.isTransaction
      ? queries.reduce(async (done: Promise<unknown[]>, run) => [...(await done), await run()], Promise.resolve([]))
      : Promise.all(queries.map((run) => run()))) as unknown as Promise<T>;
  const [accounts, partners, items, groups, warehouses, saleNumbers, purchaseNumbers, assetCodes, serials, opening, locked, series, rules, imports] = await all(
    [
      () =>
        q<{ code: string; type: string; is_postable: boolean; statement_line: string | null; saft_account_table_id: string | null }>(
          "select code, type, is_postable, statement_line, saft_account_table_id from ledger_accounts where company_id = $1",
          [],
        ),
      () =>
        partnerCodes.count
          ? q<{ code: string }>("select code from partners where company_id = $1 and code = any($2::text[])", [partnerCodes.literal])
          : Promise.resolve([]),
      () =>
        itemCodes.count
          ? q<{ code: string; type: string; tracking: string }>(
              "select code, type, tracking from catalog_items where company_id = $1 and code = any($2::text[])",
              [itemCodes.literal],
            )
          : Promise.resolve([]),
      () =>
        q<{ code: string; asset_account_code: string; depreciation_account_code: string; default_useful_life_months: number }>(
          "select code, asset_account_code, depreciation_account_code, default_useful_life_months from asset_groups where company_id = $1",
          [],
        ),
      () => q<{ id: string; code: string; is_default: boolean }>("select id, code, is_default from warehouses where company_id = $1", []),
      () =>
        l.receivableNumbers.count
          ? q<{ number: string }>("select number from sale_invoices where company_id = $1 and number = any($2::text[])", [l.receivableNumbers.literal])
          : Promise.resolve([]),
      () =>
        l.payables.partnerCodes.count
          ? q<{ partner_code: string; document_number: string }>(
              `select p.partner_code, p.document_number from purchase_invoices p
             join unnest($2::text[], $3::text[]) as u(partner_code, document_number) using (partner_code, document_number)
            where p.company_id = $1 and p.type = 'invoice'`,
              [l.payables.partnerCodes.literal, l.payables.documentNumbers.literal],
            )
          : Promise.resolve([]),
      () =>
        l.assetCodes.count
          ? q<{ code: string }>("select code from fixed_assets where company_id = $1 and code = any($2::text[])", [l.assetCodes.literal])
          : Promise.resolve([]),
      // A serial-tracked item's lotNumber is its serial number (stock_layers_serial_in_stock: in stock once).
      () =>
        l.tracked.itemCodes.count
          ? q<{ item_code: string; serial_number: string }>(
              `select distinct l.item_code, l.serial_number from stock_layers l
             join unnest($2::text[], $3::text[]) as u(item_code, serial_number) using (item_code, serial_number)
            where l.company_id = $1 and l.serial_number is not null and l.remaining_quantity > 0`,
              [l.tracked.itemCodes.literal, l.tracked.lotNumbers.literal],
            )
          : Promise.resolve([]),
      () => q<{ id: string }>("select id from journal_transactions where company_id = $1 and document_type = 'migration_opening'", []),
      () =>
        months.length
          ? q<{ month: string }>("select to_char(m, 'YYYY-MM') as month from unnest($2::date[]) m where ledger_month_locked($1, m)", [months])
          : Promise.resolve([]),
      () =>
        l.seriesYear !== null
          ? q<{ id: string; prefix: string; next_number: string }>(
              "select id, prefix, next_number from number_series where company_id = $1 and document_type = 'sale_invoice' and year = $2",
              [l.seriesYear],
            )
          : Promise.resolve([]),
      () => accountsForRules(db, companyId, ["sales.receivable", "purchases.payables", "inventory.stock", "assets.depreciationExpense"]),
      () =>
        q<{ id: string; imported_at: Date; repeat_of: string | null }>(
          "select id, imported_at, repeat_of from migration_imports where company_id = $1 and fingerprint = $2 order by imported_at, id",
          [l.fingerprint],
        ),
    ],
  );
  return {
    accounts: new Map(accounts.map((a) => [a.code, a])),
    partners: new Set(partners.map((p) => p.code)),
    items: new Map(items.map((i) => [i.code, { type: i.type, tracking: i.tracking }])),
    groups: new Map(
      groups.map((g) => [
        g.code,
        { assetAccountCode: g.asset_account_code, depreciationAccountCode: g.depreciation_account_code, defaultUsefulLifeMonths: g.default_useful_life_months },
      ]),
    ),
    warehouses: new Map(warehouses.map((w) => [w.code, w.id])),
    defaultWarehouseId: warehouses.find((w) => w.is_default)?.id,
    saleNumbers: new Set(saleNumbers.map((r) => r.number)),
    purchaseNumbers: new Set(purchaseNumbers.map((r) => `${r.partner_code}\u0000${r.document_number}`)),
    assetCodes: new Set(assetCodes.map((a) => a.code)),
    serialsInStock: new Set(serials.map((s) => `${s.item_code}\u0000${s.serial_number}`)),
    openingId: opening[0]?.id ?? null,
    lockedMonths: new Set(locked.map((l) => l.month)),
    series: new Map(series.map((s) => [s.prefix, { id: s.id, nextNumber: Number(s.next_number) }])),
    rules: { receivable: rules[0], payables: rules[1], stock: rules[2], depreciationExpense: rules[3] },
    imports: imports.map((i) => ({ id: i.id, importedAt: new Date(i.imported_at).toISOString(), repeatOf: i.repeat_of })),
  };
}
