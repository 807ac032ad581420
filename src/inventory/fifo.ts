// First in, first out: which layers an outgoing movement takes from, and what each part is worth, is decided by the
// database, in src/db/functions/stock_fifo_parts.sql — the one home of the rule and of its rounding, shared with a sales
// invoice's take (stock_take_fifo). takeFifo asks it for the parts of one movement (it locks the layers it reads),
// answers 422 when the named serials or the quantity are not there, and lowers the layers it took from.
//
// Concurrency: the function locks the layers with FOR UPDATE in FIFO order as it reads them, in batches that stop
// once the quantity is covered (not an item's every open layer); a second transaction taking from the same layers
// waits, then sees only what the first left: when that is not enough it answers 422, never negative stock. The
// database refuses a remaining quantity below 0 as well.
import type { Db } from "../db/connection.js";
import { preparedQuery } from "../db/prepared.js";
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

/** The rows of stock_fifo_parts (src/db/functions/stock_fifo_parts.sql): the parts taken, oldest first… */
interface FifoPart {
  layer_id: string;
  quantity: string;
  unit_cost: string;
  value: string;
  lot_number: string | null;
  expiry_date: string | null;
  serial_number: string | null;
  available: null;
}
/** …then, when the layers hold less than the quantity, the quantity they hold. */
type FifoShort = { [K in keyof Omit<FifoPart, "available">]: null } & { available: string };

/** Takes `req.quantity` FIFO and lowers the layers it took from; returns the parts taken, oldest first. */
export async function takeFifo(trx: Db, companyId: string, req: TakeRequest): Promise<LayerPart[]> {
  const serials = req.serials ?? null;
  // Nothing of this statement is written before the layers are lowered below: no earlier take to count.
  const rows = await preparedQuery<FifoPart | FifoShort>(
    trx,
    "stock_fifo_parts",
    `select * from stock_fifo_parts($1::uuid, $2::text, $3::uuid, $4::date, $5::numeric, $6::text, $7::text[], '{}', '{}', '{}')`,
    [companyId, req.itemCode, req.warehouseId, req.date, req.quantity.toFixed(), req.lotNumber ?? null, serials],
  );
  const parts: LayerPart[] = rows
    .filter((r): r is FifoPart => r.layer_id !== null)
    .map((r) => ({
      layerId: r.layer_id,
      quantity: new Decimal(r.quantity),
      unitCost: r.unit_cost,
      value: new Decimal(r.value),
      lotNumber: r.lot_number,
      expiryDate: r.expiry_date,
      serialNumber: r.serial_number,
    }));
  if (serials) {
    // A serial layer holds one unit and the request names one serial per unit: every serial in stock is a part.
    const found = new Set(parts.map((p) => p.serialNumber));
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
  const short = rows.find((r): r is FifoShort => r.available !== null);
  if (short) throw insufficient(req, new Decimal(short.available));

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
      // item and warehouse, with what the layers were found to hold.
      if (violatedConstraint(error)?.constraint === "stock_layers_remaining_quantity")
        throw insufficient(
          req,
          parts.reduce((sum, p) => sum.plus(p.quantity), new Decimal(0)),
        );
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
