// First in, first out: an outgoing movement takes from the item's open layers in its warehouse, oldest first (by
// date, then by the order they were written), among the layers dated on or before its own date and within the lot
// or serials it names.
//
// Rounding (issue 11): a part taken from a layer is worth quantity x the layer's unit cost rounded half-up to cents,
// never more than the layer has left; the part that empties a layer takes exactly what is left of its value. So the
// parts of a layer always add up to its value, to the cent, and the stock account (which receives layer values and
// gives back part values) always equals the sum of the open layers' remaining values.
//
// Concurrency: the layers are read with SELECT ... FOR UPDATE in FIFO order, so two transactions taking from the
// same layers run one after the other; the second re-reads the rows after the first commits (READ COMMITTED
// re-checks `remaining_quantity > 0` on the new row versions) and sees only what is left: when that is not enough
// it answers 422, never negative stock. The database refuses a remaining quantity below 0 as well.
import type { Db } from "../db/connection.js";
import { violatedConstraint } from "../db/transaction.js";
import { Decimal } from "../shared/decimal.js";
import { ApiError } from "../shared/errors.js";
import { quantityText } from "./quantities.js";

export interface LayerPart {
  layerId: string;
  quantity: Decimal;
  unitCost: string;
  value: Decimal;
  lotNumber: string | null;
  expiryDate: string | null;
  serialNumber: string | null;
}

export interface TakeRequest {
  itemCode: string;
  warehouseId: string;
  warehouseCode: string;
  date: string;
  quantity: Decimal;
  lotNumber?: string;
  serials?: string[];
  /** The request field the quantity came from, named in a 422. */
  field: string;
}

// The lot and serial conditions are always present (null = any), so that the statement text never changes. The
// layers come in batches after a (date, seq) position: only as many are locked as the quantity needs (an item
// with thousands of open layers is not locked whole by a sale of one unit).
const OPEN_LAYERS = `
  select id, remaining_quantity, remaining_value, unit_cost, lot_number, expiry_date::text as expiry_date, serial_number, date::text as date, seq
    from stock_layers
   where company_id = ? and item_code = ? and warehouse_id = ? and remaining_quantity > 0 and date <= ?
     and (?::text is null or lot_number = ?::text)
     and (?::text[] is null or serial_number = any(?::text[]))
     and (date, seq) > (?::date, ?::bigint)
   order by date, seq
   limit ?
     for update`;

/** The open layers the request may take from, oldest first, locked: enough to cover its quantity, or all of them. */
async function lockLayers(trx: Db, companyId: string, req: TakeRequest): Promise<Record<string, string>[]> {
  const lot = req.lotNumber ?? null;
  const serials = req.serials ?? null;
  const rows: Record<string, string>[] = [];
  let covered = new Decimal(0);
  let after: [string, string] = ["1900-01-01", "0"];
  for (let batch = 8; ; batch = Math.min(batch * 4, 4096)) {
    const { rows: more } = await trx.raw(OPEN_LAYERS, [
      companyId,
      req.itemCode,
      req.warehouseId,
      req.date,
      lot,
      lot,
      serials,
      serials,
      after[0],
      after[1],
      batch,
    ]);
    for (const r of more) {
      rows.push(r);
      covered = covered.plus(r.remaining_quantity);
    }
    // A batch may come back short although more layers follow: FOR UPDATE drops rows that another transaction
    // emptied while this one waited for them (PostgreSQL, SELECT "The Locking Clause"). Only an empty batch ends it.
    if (more.length === 0 || (covered.greaterThanOrEqualTo(req.quantity) && !serials)) return rows;
    after = [more[more.length - 1].date, more[more.length - 1].seq];
  }
}

/** Takes `req.quantity` FIFO and lowers the layers it took from; returns the parts taken, oldest first. */
export async function takeFifo(trx: Db, companyId: string, req: TakeRequest): Promise<LayerPart[]> {
  const serials = req.serials ?? null;
  const rows = await lockLayers(trx, companyId, req);
  const available = rows.reduce((sum: Decimal, r: Record<string, string>) => sum.plus(r.remaining_quantity), new Decimal(0));
  if (serials) {
    const found = new Set(rows.map((r: Record<string, string>) => r.serial_number));
    const missing = serials.filter((s) => !found.has(s));
    if (missing.length) {
      throw new ApiError(
        "unprocessable",
        `Serial numbers of item ${req.itemCode} not in stock in warehouse ${req.warehouseCode} on ${req.date}: ${missing.join(", ")}.`,
        {
          key: "inventory.serial_not_in_stock",
          params: { itemCode: req.itemCode, warehouseCode: req.warehouseCode, serials: missing },
          fieldErrors: { [req.field.replace(/quantity$/, "serials")]: [`not in stock: ${missing.join(", ")}`] },
        },
      );
    }
  }
  if (available.lessThan(req.quantity)) throw insufficient(req, available);

  const parts: LayerPart[] = [];
  let need = req.quantity;
  for (const layer of rows as Record<string, string>[]) {
    if (need.isZero()) break;
    const remaining = new Decimal(layer.remaining_quantity);
    const remainingValue = new Decimal(layer.remaining_value);
    const quantity = Decimal.min(remaining, need);
    const value = quantity.equals(remaining)
      ? remainingValue
      : Decimal.min(quantity.times(layer.unit_cost).toDecimalPlaces(2, Decimal.ROUND_HALF_UP), remainingValue);
    parts.push({
      layerId: layer.id,
      quantity,
      unitCost: layer.unit_cost,
      value,
      lotNumber: layer.lot_number,
      expiryDate: layer.expiry_date,
      serialNumber: layer.serial_number,
    });
    need = need.minus(quantity);
  }
  await trx
    .raw(
      `update stock_layers l
        set remaining_quantity = l.remaining_quantity - p.quantity, remaining_value = l.remaining_value - p.value
       from unnest(?::uuid[], ?::numeric[], ?::numeric[]) as p (id, quantity, value)
      where l.company_id = ? and l.id = p.id`,
      [parts.map((p) => p.layerId), parts.map((p) => p.quantity.toFixed()), parts.map((p) => p.value.toFixed(2)), companyId],
    )
    .catch((error) => {
      // Cannot happen while the layers stay locked from the read above; if it ever does, the answer still names the
      // item, warehouse and what was available.
      if (violatedConstraint(error)?.constraint === "stock_layers_remaining_quantity") throw insufficient(req, available);
      throw error;
    });
  return parts;
}

export function insufficient(req: Pick<TakeRequest, "itemCode" | "warehouseCode" | "date" | "quantity" | "lotNumber" | "field">, available: Decimal) {
  const lot = req.lotNumber ? ` (lot ${req.lotNumber})` : "";
  return new ApiError(
    "unprocessable",
    `Not enough stock of item ${req.itemCode}${lot} in warehouse ${req.warehouseCode} on ${req.date}: ${quantityText(available)} available, ${quantityText(req.quantity)} requested.`,
    {
      key: "inventory.insufficient_stock",
      params: {
        itemCode: req.itemCode,
        warehouseCode: req.warehouseCode,
        available: quantityText(available),
        requested: quantityText(req.quantity),
        ...(req.lotNumber ? { lotNumber: req.lotNumber } : {}),
      },
      fieldErrors: { [req.field]: [`only ${quantityText(available)} of item ${req.itemCode}${lot} in stock in warehouse ${req.warehouseCode} on ${req.date}`] },
    },
  );
}
