// What the inventory tests share: a company with the lt-standard chart, warehouses and stocked items; the journal
// of a transaction and a company's stock rows read back from the database.
import { Decimal } from "decimal.js";
import type { ApiResponse, Harness, RequestOptions } from "./harness.js";
import type { RequestBody } from "../../sdk/typescript/src/index.js";
import { world, type World } from "./world.js";

export interface StockWorld extends World {
  call(path: string, body: unknown, extra?: Partial<RequestOptions>): Promise<ApiResponse>;
  ok(path: string, body: unknown, extra?: Partial<RequestOptions>): Promise<any>;
}

export const ITEMS: RequestBody<"catalog_items_create">[] = [
  { code: "PREKE", name: "Prekė", type: "product", unit: "vnt.", vatRatePercent: "21", salePriceExclVat: "10", purchasePriceExclVat: "4" },
  { code: "PIENAS", name: "Pienas", type: "product", unit: "l", vatRatePercent: "21", tracking: "lot" },
  { code: "TELEF", name: "Telefonas", type: "product", unit: "vnt.", vatRatePercent: "21", tracking: "serial" },
  { code: "KONS", name: "Konsultacija", type: "service", unit: "val.", vatRatePercent: "21", salePriceExclVat: "60" },
];

/** CENTR (the default: the first) and FILIAL. */
export const WAREHOUSES: RequestBody<"inventory_warehouses_create">[] = [
  { code: "CENTR", name: "Centrinis sandėlis" },
  { code: "FILIAL", name: "Filialas" },
];

/** A tenant with the lt-standard chart, the items of ITEMS, and warehouses CENTR (the default) and FILIAL. */
export async function stockWorld(h: Harness, options: { warehouses?: boolean } = {}): Promise<StockWorld> {
  // A VAT payer: a company without a VAT code issues no VAT (issue 24).
  const w = await world(h, { company: { vatCode: "LT100001919017" }, items: ITEMS, warehouses: options.warehouses === false ? [] : WAREHOUSES });
  const call = (path: string, body: unknown, extra: Partial<RequestOptions> = {}) => h.post(path, body, { ...w.o, ...extra });
  const ok = async (path: string, body: unknown, extra: Partial<RequestOptions> = {}) => {
    const res = await call(path, body, extra);
    if (res.status !== 200) throw new Error(`${path} ${JSON.stringify(body)} -> ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  return { ...w, call, ok };
}

/** A journal transaction's lines as [account, debit, credit]. */
export async function journalLines(h: Harness, companyId: string, transactionId: string | null) {
  if (!transactionId) return null;
  const entries = await h.db("journal_entries").where({ company_id: companyId, transaction_id: transactionId }).orderBy("line_no");
  return entries.map((e) => [e.account_code, new Decimal(e.debit).toFixed(2), new Decimal(e.credit).toFixed(2)]);
}

/** The company's layers as [item, warehouse code, quantity, remaining, unit cost, value, remaining value, lot, serial], in FIFO order. */
export async function layerRows(h: Harness, companyId: string) {
  const rows = await h
    .db("stock_layers as l")
    .join("warehouses as w", (j) => j.on("w.company_id", "l.company_id").andOn("w.id", "l.warehouse_id"))
    .where("l.company_id", companyId)
    .orderBy(["l.item_code", "w.code", "l.date", "l.seq"])
    .select("l.*", "w.code as warehouse_code");
  return rows.map((r) => [
    r.item_code,
    r.warehouse_code,
    new Decimal(r.quantity).toFixed(),
    new Decimal(r.remaining_quantity).toFixed(),
    new Decimal(r.unit_cost).toFixed(),
    new Decimal(r.value).toFixed(2),
    new Decimal(r.remaining_value).toFixed(2),
    r.lot_number,
    r.serial_number,
  ]);
}

/** The ledger balance (debit − credit) of an account. */
export async function accountBalance(h: Harness, companyId: string, accountCode: string): Promise<string> {
  const row = await h
    .db("journal_entries")
    .where({ company_id: companyId, account_code: accountCode })
    .first(h.db.raw("coalesce(sum(debit - credit), 0)::text as balance"));
  return new Decimal(row.balance).toFixed(2);
}

/** The value of every open layer of the company. */
export async function layersValue(h: Harness, companyId: string): Promise<string> {
  const row = await h.db("stock_layers").where({ company_id: companyId }).first(h.db.raw("coalesce(sum(remaining_value), 0)::text as v"));
  return new Decimal(row.v).toFixed(2);
}

/** The company's stock as stored: operations, movements, layers, balances and journal transactions (to compare before and after a refusal). */
export async function stockSnapshot(h: Harness, companyId: string) {
  return {
    operations: await h.db("stock_operations").where({ company_id: companyId }).orderBy("created_at"),
    movements: await h.db("stock_movements").where({ company_id: companyId }).orderBy(["operation_id", "line_no"]),
    layers: await layerRows(h, companyId),
    balances: await h.db("stock_balances").where({ company_id: companyId }).orderBy(["item_code", "warehouse_id"]),
    layerSums: await h.db("stock_layer_sums").where({ company_id: companyId }).orderBy(["item_code", "warehouse_id"]),
    journal: await h.db("journal_transactions").where({ company_id: companyId }).orderBy("created_at"),
  };
}
