// Reading stock: levels per item and warehouse as of a date, and the movements (shared list engine).
//
// Levels are read from stock_balances (the current quantity and value of each item in each warehouse, kept by every
// operation in its own transaction) less the movements dated after `asOf`; when nothing is dated after it (the usual
// "today") the balances are the answer as they are, without touching the movements.
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import type { StockBalancesRow, StockConsumptionsRow, StockLayersRow, StockMovementsRow, StockOperationsRow, WarehousesRow } from "../db/rows.js";
import { Decimal, formatDecimal } from "../shared/decimal.js";
import { todayInVilnius } from "../shared/dates.js";
import { runList, type ListRequest, type ListSpec } from "../shared/list-engine.js";
import { partToApi } from "./operations.js";
import { quantityText } from "./quantities.js";

type LevelsInput = components["schemas"]["Inventory.StockLevelsRequest"];
type StockLevel = components["schemas"]["Inventory.StockLevel"];
type StockMovement = components["schemas"]["Inventory.StockMovement"];

/** A balance (less what moved after the date) with its item's name and its warehouse's code. */
type LevelRow = Pick<StockBalancesRow, "item_code" | "warehouse_id" | "quantity" | "value"> & { item_name: string; warehouse_code: string };

/** A movement with its operation's kind and its warehouse's code. */
type MovementRow = StockMovementsRow & { kind: StockOperationsRow["kind"]; warehouse_code: string };

/** A layer a movement started or took from: the layer's own figures, or those of the consumption. */
type MovementPartRow = Pick<StockConsumptionsRow, "movement_id" | "layer_id" | "quantity" | "unit_cost" | "value"> &
  Pick<StockLayersRow, "lot_number" | "expiry_date" | "serial_number" | "date" | "seq">;

const levelsSpec: ListSpec = {
  fields: {
    itemCode: { column: "item_code", type: "string" },
    itemName: { column: "item_name", type: "string" },
    // Also what an `eq`/`ne`/`in` filter on warehouseCode becomes (see warehouseFilters).
    warehouseId: { column: "warehouse_id", type: "uuid", sort: false },
    warehouseCode: { column: "warehouse_code", type: "string" },
    quantity: { column: "quantity", type: "decimal", total: true },
    value: { column: "value", type: "decimal", total: true },
  },
  tieBreaker: ["item_code", "warehouse_code"],
  defaultSort: [],
};

export async function stockLevels(db: Db, companyId: string, input: LevelsInput) {
  const asOf = input.asOf ?? todayInVilnius();
  const later = await db("stock_movements").where("company_id", companyId).where("date", ">", asOf).first(db.raw("1 as any"));
  // The item's name and the warehouse's code are scalar subqueries: PostgreSQL pulls this subquery up into the
  // list's statements and evaluates them only where they are used (the page's rows, a filter or sort on them),
  // never for the count and totals over every balance. The page comes in primary-key order (item, then the few
  // warehouses of each item sorted by code), so it is read from the index and stops after the page.
  const balances = later
    ? db.raw(
        `(select b.company_id, b.item_code, b.warehouse_id, b.quantity - coalesce(l.quantity, 0) as quantity, b.value - coalesce(l.value, 0) as value
            from stock_balances b
            left join (select item_code, warehouse_id, sum(quantity) as quantity, sum(value) as value
                         from stock_movements where company_id = ? and date > ? group by item_code, warehouse_id) l
              on l.item_code = b.item_code and l.warehouse_id = b.warehouse_id
           where b.company_id = ?)`,
        [companyId, asOf, companyId],
      )
    : db.raw("stock_balances");
  const base = () => {
    const q = db.from(
      db.raw(
        `(select s.item_code, s.warehouse_id, s.quantity, s.value,
                 (select i.name from catalog_items i where i.company_id = s.company_id and i.code = s.item_code) as item_name,
                 (select w.code from warehouses w where w.company_id = s.company_id and w.id = s.warehouse_id) as warehouse_code
            from ? s where s.company_id = ?) as levels`,
        [balances, companyId],
      ),
    );
    if (!input.includeZero) q.whereRaw("quantity <> 0");
    return q;
  };
  const { asOf: _asOf, includeZero: _zero, ...rest } = input;
  const request = { ...rest, filter: await warehouseFilters(db, companyId, rest.filter) } as ListRequest;
  const result = await runList<LevelRow>(db, base, levelsSpec, request, ["*"]);
  const rows: StockLevel[] = result.rows.map((r) => {
    const quantity = new Decimal(r.quantity);
    return {
      itemCode: r.item_code,
      itemName: r.item_name,
      warehouseCode: r.warehouse_code,
      quantity: quantityText(quantity),
      value: formatDecimal(r.value, "money"),
      averageUnitCost: quantity.isZero() ? null : formatDecimal(new Decimal(r.value).dividedBy(quantity), "unitPrice"),
    };
  });
  const totals = result.totals && {
    ...(result.totals.quantity !== undefined ? { quantity: quantityText(result.totals.quantity) } : {}),
    ...(result.totals.value !== undefined ? { value: formatDecimal(result.totals.value, "money") } : {}),
  };
  return { ...result, rows, ...(totals ? { totals } : {}) };
}

const NO_WAREHOUSE = "00000000-0000-0000-0000-000000000000";

/**
 * `eq`, `ne` and `in` filters on warehouseCode become filters on the warehouse's key, so that they are answered from
 * the balances' own columns rather than by looking up every balance's warehouse code. A code that names no
 * warehouse matches nothing (the nil UUID names none). Other filters are left as sent (and checked by the engine).
 */
async function warehouseFilters(db: Db, companyId: string, filters: ListRequest["filter"]): Promise<ListRequest["filter"]> {
  if (!filters?.some((f) => f.field === "warehouseCode")) return filters;
  const rows = await db<WarehousesRow>("warehouses").where("company_id", companyId).select("id", "code");
  const idOf = (code: unknown) => rows.find((r) => r.code === code)?.id ?? NO_WAREHOUSE;
  return filters.map((f) => {
    if (f.field !== "warehouseCode" || !["eq", "ne", "in"].includes(f.op)) return f;
    if (f.op === "in") return Array.isArray(f.value) ? { ...f, field: "warehouseId", value: f.value.map(idOf) } : f;
    return typeof f.value === "string" ? { ...f, field: "warehouseId", value: idOf(f.value) } : f;
  });
}

const movementsSpec: ListSpec = {
  fields: {
    id: { column: "m.id", type: "uuid", sort: false },
    operationId: { column: "m.operation_id", type: "uuid", sort: false },
    date: { column: "m.date", type: "date" },
    kind: { column: "o.kind", type: "string" },
    direction: { column: "m.direction", type: "string" },
    itemCode: { column: "m.item_code", type: "string" },
    warehouseCode: { column: "w.code", type: "string" },
    quantity: { column: "m.quantity", type: "decimal", total: true },
    value: { column: "m.value", type: "decimal", total: true },
    createdAt: { column: "m.created_at", type: "timestamp" },
  },
  tieBreaker: ["m.operation_id", "m.line_no"],
  defaultSort: [
    { field: "date", dir: "desc" },
    { field: "createdAt", dir: "desc" },
  ],
};

export async function listMovements(db: Db, companyId: string, request: ListRequest) {
  const base = () =>
    db("stock_movements as m")
      .join("stock_operations as o", (j) => j.on("o.company_id", "m.company_id").andOn("o.id", "m.operation_id"))
      .join("warehouses as w", (j) => j.on("w.company_id", "m.company_id").andOn("w.id", "m.warehouse_id"))
      .where("m.company_id", companyId);
  const result = await runList<MovementRow>(db, base, movementsSpec, request, ["m.*", "o.kind", "w.code as warehouse_code"]);
  const parts = await movementParts(db, companyId, result.rows);
  const rows: StockMovement[] = result.rows.map((r) => ({
    id: r.id,
    operationId: r.operation_id,
    kind: r.kind,
    lineNo: r.line_no,
    direction: r.direction,
    date: r.date,
    warehouseCode: r.warehouse_code,
    itemCode: r.item_code,
    quantity: quantityText(r.quantity),
    value: formatDecimal(r.value, "money"),
    layers: parts.get(r.id) ?? [],
  }));
  const totals = result.totals && {
    ...(result.totals.quantity !== undefined ? { quantity: quantityText(result.totals.quantity) } : {}),
    ...(result.totals.value !== undefined ? { value: formatDecimal(result.totals.value, "money") } : {}),
  };
  return { ...result, rows, ...(totals ? { totals } : {}) };
}

/** The layers each movement started (in) or took from (out), oldest first. */
async function movementParts(db: Db, companyId: string, movements: Pick<StockMovementsRow, "id">[]) {
  const ids = movements.map((m) => m.id);
  const byMovement = new Map<string, ReturnType<typeof partToApi>[]>();
  if (!ids.length) return byMovement;
  const { rows } = await db.raw<{ rows: MovementPartRow[] }>(
    `select l.movement_id, l.id as layer_id, l.quantity, l.unit_cost, l.value, l.lot_number, l.expiry_date::text as expiry_date, l.serial_number, l.date, l.seq
       from stock_layers l where l.company_id = ? and l.movement_id = any(?::uuid[])
     union all
     select c.movement_id, l.id, c.quantity, c.unit_cost, c.value, l.lot_number, l.expiry_date::text, l.serial_number, l.date, l.seq
       from stock_consumptions c join stock_layers l on l.company_id = c.company_id and l.id = c.layer_id
      where c.company_id = ? and c.movement_id = any(?::uuid[])
     order by 1, date, seq`,
    [companyId, ids, companyId, ids],
  );
  for (const r of rows) {
    const list = byMovement.get(r.movement_id) ?? [];
    list.push(
      partToApi({
        layerId: r.layer_id,
        quantity: new Decimal(r.quantity),
        unitCost: r.unit_cost,
        value: new Decimal(r.value),
        lotNumber: r.lot_number,
        expiryDate: r.expiry_date,
        serialNumber: r.serial_number,
      }),
    );
    byMovement.set(r.movement_id, list);
  }
  return byMovement;
}
