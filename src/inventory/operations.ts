// Writing one stock operation: its movements (signed quantity and value), the layers incoming movements start,
// the parts outgoing ones took (stock_consumptions), the balances per item and warehouse, and the journal
// transaction it posts — all in the caller's transaction. Outgoing parts are taken (and their layers lowered) as
// each line is added; everything else is written in a few multi-row statements by `finish`. Which layers a part comes
// from and what it is worth is the database's FIFO rule, src/db/functions/stock_fifo_parts.sql, for both ways of
// taking: line by line (`takeOut`, through fifo.ts) and a whole sales invoice in one statement (`takeOutAll`).
import { randomUUID } from "node:crypto";
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import { numericOverflow, violatedConstraint } from "../db/transaction.js";
import { Decimal, formatDecimal, MAX_MONEY } from "../shared/decimal.js";
import { ApiError, conflict, unprocessable } from "../shared/errors.js";
import { emitEvent } from "../events/index.js";
import { periodLocked, post, type PostingEntry } from "../ledger/index.js";
import { insufficient, takeFifo, type LayerPart, type TakeRequest } from "./fifo.js";
import { preparedQuery } from "../db/prepared.js";
import { quantityText } from "./quantities.js";

export type StockOperation = components["schemas"]["Inventory.StockOperation"];
export type StockMovement = components["schemas"]["Inventory.StockMovement"];
export type OperationKind = StockOperation["kind"];

export interface OperationHeader {
  kind: OperationKind;
  date: string;
  warehouse: { id: string; code: string };
  toWarehouse?: { id: string; code: string };
  notes?: string | null;
  source?: { type: "sale_invoice" | "sale_credit_note" | "purchase_invoice" | "purchase_credit_note"; id: string };
  keyId?: string | null;
}

/** A layer an incoming movement starts. */
export interface NewLayer {
  quantity: Decimal;
  unitCost: string;
  value: Decimal;
  lotNumber?: string | null;
  expiryDate?: string | null;
  serialNumber?: string | null;
  originLayerId?: string | null;
}

interface Movement {
  id: string;
  lineNo: number;
  direction: "in" | "out";
  warehouse: { id: string; code: string };
  itemCode: string;
  quantity: Decimal;
  value: Decimal;
  parts: LayerPart[];
  /** An outgoing movement's request: named in a 422 when its balance turns out short. */
  request?: { field: string; lotNumber?: string };
  /** An incoming movement's request field: named in a 422 when it would take the stock beyond its bounds. */
  field?: string;
}

/** The rows of stock_take_fifo (src/db/functions/stock_take_fifo.sql), each of one of three kinds. */
interface FifoLayer {
  lot_number: string | null;
  expiry_date: string | null;
  serial_number: string | null;
}
type NoLayer = { layer_id: null; quantity: null; unit_cost: null; value: null } & { [K in keyof FifoLayer]: null };
/** A layer a line took from. */
type FifoTaken = FifoLayer & { line_no: number; layer_id: string; quantity: string; unit_cost: string; value: string; available: null; created_at: null };
/** The line short of stock, with the quantity there is (then nothing was written). */
type FifoShort = NoLayer & { line_no: number; available: string; created_at: null };
/** Last, when every line was taken: the operation's creation time. */
type FifoDone = NoLayer & { line_no: null; available: null; created_at: Date };
type FifoRow = FifoTaken | FifoShort | FifoDone;

export interface Posting {
  description: string;
  reference?: string | null;
  entries: PostingEntry[];
}

const money = (v: Decimal) => formatDecimal(v, "money");

/** The most an item's stock in a warehouse may hold on any date: the contract's `Quantity` and `Money` (issue 22, item 5). */
export const MAX_STOCK_QUANTITY = "999999999999.9999";
export const MAX_STOCK_VALUE = MAX_MONEY;

/**
 * 422 `inventory.value_too_large`: a stock figure the operation would write does not fit. An item's stock in a
 * warehouse stays within MAX_STOCK_QUANTITY and MAX_STOCK_VALUE on every date (the database refuses more: trigger
 * stock_levels_within_bounds, migration 20261127000402); with `level` the answer names the item, the warehouse, the
 * highest level it would reach and the request's line (`field`).
 */
export const stockTooLarge = (level?: { itemCode: string; warehouseCode: string; quantity: string; value: string; field: string }) =>
  level
    ? new ApiError(
        "unprocessable",
        `The stock of item ${level.itemCode} in warehouse ${level.warehouseCode} would reach ${quantityText(level.quantity)} units worth ${formatDecimal(level.value, "money")} EUR on some date; it may hold at most ${MAX_STOCK_QUANTITY} units and ${MAX_STOCK_VALUE} EUR.`,
        {
          key: "inventory.value_too_large",
          params: {
            itemCode: level.itemCode,
            warehouseCode: level.warehouseCode,
            quantity: quantityText(level.quantity),
            value: formatDecimal(level.value, "money"),
            maxQuantity: MAX_STOCK_QUANTITY,
            maxValue: MAX_STOCK_VALUE,
          },
          fieldErrors: {
            [level.field]: [
              `item ${level.itemCode} in warehouse ${level.warehouseCode} may hold at most ${MAX_STOCK_QUANTITY} units and ${MAX_STOCK_VALUE} EUR on any date`,
            ],
          },
        },
      )
    : unprocessable(
        `A stock figure this operation would write is too large: a movement's value may be at most ${MAX_MONEY} and its quantity at most ${MAX_STOCK_QUANTITY}; an item's stock in a warehouse at most ${MAX_STOCK_QUANTITY} units and ${MAX_STOCK_VALUE} EUR on any date.`,
        "inventory.value_too_large",
      );

export class OperationWriter {
  readonly id = randomUUID();
  private readonly movements: Movement[] = [];
  private readonly newLayers: (NewLayer & { id: string; movementId: string; warehouseId: string; itemCode: string })[] = [];

  constructor(
    private readonly trx: Db,
    private readonly companyId: string,
    readonly header: OperationHeader,
  ) {}

  /** Takes stock out FIFO (422 when there is not enough) and returns the movement's value. */
  async takeOut(
    lineNo: number,
    req: Omit<TakeRequest, "date" | "warehouseId" | "warehouseCode">,
    warehouse = this.header.warehouse,
  ): Promise<{ value: Decimal; parts: LayerPart[] }> {
    const parts = await takeFifo(this.trx, this.companyId, { ...req, date: this.header.date, warehouseId: warehouse.id, warehouseCode: warehouse.code });
    const value = parts.reduce((sum, p) => sum.plus(p.value), new Decimal(0));
    this.movements.push({
      id: randomUUID(),
      lineNo,
      direction: "out",
      warehouse,
      itemCode: req.itemCode,
      quantity: req.quantity,
      value,
      parts,
      request: { field: req.field, lotNumber: req.lotNumber },
    });
    return { value, parts };
  }

  /**
   * Takes every request out of stock FIFO and writes the whole operation (movements, consumptions, balances) in one
   * statement, the function stock_take_fifo (src/db/functions/stock_take_fifo.sql: each line's parts from
   * stock_fifo_parts, counting what earlier lines took): for an operation of outgoing lines only,
   * whose posting its caller writes (linkPosting, plannedLink). 422 `inventory.insufficient_stock` naming the first
   * line short of stock (short of layers, or of its balance), with its item, warehouse and available quantity.
   * Returns the value taken.
   */
  async takeOutAll(
    requests: { lineNo: number; itemCode: string; quantity: Decimal; lotNumber?: string | null; field: string; warehouse: { id: string; code: string } }[],
  ): Promise<Decimal> {
    const { header } = this;
    const movementIds = requests.map(() => randomUUID());
    const rows = await preparedQuery<FifoRow>(
      this.trx,
      "stock_take_fifo",
      `select * from stock_take_fifo($1::uuid, $2::uuid, $3::text, $4::date, $5::uuid, $6::text, $7::uuid, $8::uuid, $9::int[], $10::uuid[], $11::text[], $12::uuid[], $13::numeric[], $14::text[])`,
      [
        this.companyId,
        this.id,
        header.kind,
        header.date,
        header.warehouse.id,
        header.source?.type ?? null,
        header.source?.id ?? null,
        header.keyId ?? null,
        requests.map((r) => r.lineNo),
        movementIds,
        requests.map((r) => r.itemCode),
        requests.map((r) => r.warehouse.id),
        requests.map((r) => r.quantity.toFixed()),
        requests.map((r) => r.lotNumber ?? null),
      ],
    ).catch((error) => {
      // The operation's row meets the locked-month check (stock_operations_open_period) when a month was locked
      // after the caller's own checks.
      if (violatedConstraint(error)?.constraint === "ledger_period_locked") throw periodLocked(header.date.slice(0, 7));
      if (numericOverflow(error)) throw stockTooLarge();
      throw error;
    });
    const short = rows.find((r): r is FifoShort => r.available !== null);
    if (short) {
      const req = requests.find((r) => r.lineNo === short.line_no)!;
      throw insufficient(
        {
          itemCode: req.itemCode,
          warehouseCode: req.warehouse.code,
          date: header.date,
          quantity: req.quantity,
          lotNumber: req.lotNumber ?? undefined,
          field: req.field,
        },
        new Decimal(short.available),
      );
    }
    let total = new Decimal(0);
    requests.forEach((r, i) => {
      const parts: LayerPart[] = rows
        .filter((row): row is FifoTaken => row.line_no === r.lineNo && row.layer_id !== null)
        .map((row) => ({
          layerId: row.layer_id,
          quantity: new Decimal(row.quantity),
          unitCost: row.unit_cost,
          value: new Decimal(row.value),
          lotNumber: row.lot_number,
          expiryDate: row.expiry_date,
          serialNumber: row.serial_number,
        }));
      const value = parts.reduce((sum, p) => sum.plus(p.value), new Decimal(0));
      total = total.plus(value);
      this.movements.push({
        id: movementIds[i],
        lineNo: r.lineNo,
        direction: "out",
        warehouse: r.warehouse,
        itemCode: r.itemCode,
        quantity: r.quantity,
        value,
        parts,
        request: { field: r.field, lotNumber: r.lotNumber ?? undefined },
      });
    });
    this.movements.sort((a, b) => a.lineNo - b.lineNo);
    this.createdAt = rows.find((r): r is FifoDone => r.created_at !== null)!.created_at.toISOString();
    return total;
  }

  /**
   * Brings stock in, starting one layer per entry of `layers`; returns the movement's value. `field` is the request's
   * line, named when the stock would go beyond its bounds.
   */
  bringIn(lineNo: number, itemCode: string, layers: NewLayer[], warehouse = this.header.warehouse, field = "lines"): Decimal {
    const movementId = randomUUID();
    const parts: LayerPart[] = layers.map((l) => {
      const id = randomUUID();
      this.newLayers.push({ ...l, id, movementId, warehouseId: warehouse.id, itemCode });
      return {
        layerId: id,
        quantity: l.quantity,
        unitCost: l.unitCost,
        value: l.value,
        lotNumber: l.lotNumber ?? null,
        expiryDate: l.expiryDate ?? null,
        serialNumber: l.serialNumber ?? null,
      };
    });
    const quantity = layers.reduce((sum, l) => sum.plus(l.quantity), new Decimal(0));
    const value = layers.reduce((sum, l) => sum.plus(l.value), new Decimal(0));
    this.movements.push({ id: movementId, lineNo, direction: "in", warehouse, itemCode, quantity, value, parts, field });
    return value;
  }

  get isEmpty() {
    return this.movements.length === 0;
  }

  /** Posts (when `posting` has entries), writes everything and returns the operation as the API shows it. */
  async finish(posting?: Posting): Promise<StockOperation> {
    const { trx, companyId, header } = this;
    let journalTransactionId: string | null = null;
    if (posting?.entries.length) {
      const transaction = await post(trx, {
        companyId,
        date: header.date,
        description: posting.description,
        reference: posting.reference ?? null,
        documentType: "inventory",
        source: header.source ?? { type: "stock_operation", id: this.id },
        entries: posting.entries,
        createdByKeyId: header.keyId ?? null,
      }).catch((error) => {
        // A posting rule pointing at an account that does not exist or takes no postings is the company's setup.
        if (error instanceof ApiError && error.key === "journal.lines_rejected") {
          throw new ApiError("unprocessable", `The stock operation cannot be posted: ${error.message} Check the posting rules (ledger/posting-rules/list).`, {
            key: "inventory.posting_rejected",
            fieldErrors: error.fieldErrors,
          });
        }
        throw error;
      });
      journalTransactionId = transaction.id;
    }
    const createdAt = await this.writeOperation(journalTransactionId);
    const result = this.toApi(journalTransactionId, createdAt);
    await emitEvent(trx, companyId, "inventory.stock_moved", result);
    return result;
  }

  /**
   * Writes the operation without its journal transaction, for a document that posts the stock's value in its own
   * transaction (a sales invoice); `linkPosting` completes it once that transaction exists.
   */
  async writeUnposted(): Promise<void> {
    this.createdAt = await this.writeOperation(null);
  }

  /** Names the document's journal transaction on an operation written by `writeUnposted`, and announces it. */
  async linkPosting(journalTransactionId: string): Promise<StockOperation> {
    await this.trx("stock_operations").where({ company_id: this.companyId, id: this.id }).update({ journal_transaction_id: journalTransactionId });
    const result = this.toApi(journalTransactionId, this.createdAt!);
    await emitEvent(this.trx, this.companyId, "inventory.stock_moved", result);
    return result;
  }

  /**
   * What `linkPosting` writes, for a caller that links the operation in a statement of its own (a sales invoice's
   * numbering statement, src/sales/numbering.ts): the operation's id and its `inventory.stock_moved` event, with
   * `journalTransactionId` (a placeholder) where the posting's id goes.
   */
  plannedLink(journalTransactionId: string): { operationId: string; event: StockOperation } {
    return { operationId: this.id, event: this.toApi(journalTransactionId, this.createdAt!) };
  }

  private createdAt?: string;

  private async writeOperation(journalTransactionId: string | null): Promise<string> {
    const { trx, companyId, header } = this;
    const [operation] = await trx("stock_operations")
      .insert({
        company_id: companyId,
        id: this.id,
        kind: header.kind,
        date: header.date,
        warehouse_id: header.warehouse.id,
        to_warehouse_id: header.toWarehouse?.id ?? null,
        journal_transaction_id: journalTransactionId,
        source_type: header.source?.type ?? null,
        source_id: header.source?.id ?? null,
        notes: header.notes ?? null,
        created_by_key_id: header.keyId ?? null,
      })
      .returning("created_at")
      .catch((error) => {
        // Nothing moves stock in a locked month, also what posts nothing (stock_operations_open_period).
        if (violatedConstraint(error)?.constraint === "ledger_period_locked") throw periodLocked(header.date.slice(0, 7));
        throw error;
      });
    try {
      await this.writeRows();
    } catch (error) {
      if (violatedConstraint(error)?.constraint === "stock_layers_serial_in_stock")
        throw conflict("A serial number received is already in stock.", "inventory.serial_in_stock");
      if (violatedConstraint(error)?.constraint === "stock_level_within_bounds") throw this.levelTooHigh(error);
      if (numericOverflow(error)) throw stockTooLarge();
      throw error;
    }
    return new Date(operation.created_at).toISOString();
  }

  private async writeRows() {
    const { trx, companyId, header } = this;
    if (this.movements.length) {
      await trx("stock_movements").insert(
        this.movements.map((m) => ({
          company_id: companyId,
          id: m.id,
          operation_id: this.id,
          line_no: m.lineNo,
          direction: m.direction,
          date: header.date,
          warehouse_id: m.warehouse.id,
          item_code: m.itemCode,
          quantity: (m.direction === "in" ? m.quantity : m.quantity.negated()).toFixed(),
          value: (m.direction === "in" ? m.value : m.value.negated()).toFixed(2),
        })),
      );
    }
    if (this.newLayers.length) {
      await trx("stock_layers").insert(
        this.newLayers.map((l) => ({
          company_id: companyId,
          id: l.id,
          movement_id: l.movementId,
          warehouse_id: l.warehouseId,
          item_code: l.itemCode,
          date: header.date,
          quantity: l.quantity.toFixed(),
          remaining_quantity: l.quantity.toFixed(),
          unit_cost: l.unitCost,
          value: l.value.toFixed(2),
          remaining_value: l.value.toFixed(2),
          lot_number: l.lotNumber ?? null,
          expiry_date: l.expiryDate ?? null,
          serial_number: l.serialNumber ?? null,
          origin_layer_id: l.originLayerId ?? null,
        })),
      );
    }
    const consumptions = this.movements.filter((m) => m.direction === "out").flatMap((m) => m.parts.map((p) => ({ movement: m, part: p })));
    if (consumptions.length) {
      await trx("stock_consumptions").insert(
        consumptions.map(({ movement, part }) => ({
          company_id: companyId,
          movement_id: movement.id,
          layer_id: part.layerId,
          quantity: part.quantity.toFixed(),
          unit_cost: part.unitCost,
          value: part.value.toFixed(2),
        })),
      );
    }
    // The balances: one signed delta per item and warehouse, in one statement (in key order, so that two
    // operations touching the same balances lock them in the same order).
    const deltas = new Map<string, { itemCode: string; warehouseId: string; quantity: Decimal; value: Decimal }>();
    for (const m of this.movements) {
      const key = `${m.itemCode}\u0000${m.warehouse.id}`;
      const d = deltas.get(key) ?? { itemCode: m.itemCode, warehouseId: m.warehouse.id, quantity: new Decimal(0), value: new Decimal(0) };
      const sign = m.direction === "in" ? 1 : -1;
      d.quantity = d.quantity.plus(m.quantity.times(sign));
      d.value = d.value.plus(m.value.times(sign));
      deltas.set(key, d);
    }
    const rows = [...deltas.values()].sort((a, b) => (a.itemCode < b.itemCode ? -1 : a.itemCode > b.itemCode ? 1 : a.warehouseId < b.warehouseId ? -1 : 1));
    if (rows.length) {
      const params = [
        companyId,
        rows.map((r) => r.itemCode),
        rows.map((r) => r.warehouseId),
        rows.map((r) => r.quantity.toFixed()),
        rows.map((r) => r.value.toFixed(2)),
      ];
      // A new pair starts at 0 first (a CHECK is evaluated on the row proposed for insertion before ON CONFLICT would
      // turn it into an update, so a negative delta cannot be upserted), then every pair moves by its delta.
      await trx.raw(
        `insert into stock_balances (company_id, item_code, warehouse_id, quantity, value)
         select ?, d.item_code, d.warehouse_id, 0, 0 from unnest(?::text[], ?::uuid[]) with ordinality as d (item_code, warehouse_id, n) order by d.n
         on conflict (company_id, item_code, warehouse_id) do nothing`,
        params.slice(0, 3),
      );
      // A pair moves only when its balance holds what is taken; one that does not (its layers held more: they and the
      // balance disagree, which stock_balance_matches_layers refuses at commit) is answered like a line short of
      // layers, naming its item, warehouse and the balance's quantity, instead of failing the CHECK without them.
      const { rows: moved } = await trx.raw<{ rows: { item_code: string; warehouse_id: string }[] }>(
        `update stock_balances b set quantity = b.quantity + d.quantity, value = b.value + d.value
           from unnest(?::text[], ?::uuid[], ?::numeric[], ?::numeric[]) as d (item_code, warehouse_id, quantity, value)
          where b.company_id = ? and b.item_code = d.item_code and b.warehouse_id = d.warehouse_id and b.quantity + d.quantity >= 0
          returning b.item_code, b.warehouse_id`,
        [...params.slice(1), companyId],
      );
      if (moved.length < rows.length) {
        const done = new Set(moved.map((m) => `${m.item_code}\u0000${m.warehouse_id}`));
        const short = rows.find((r) => !done.has(`${r.itemCode}\u0000${r.warehouseId}`))!;
        await this.balanceShort(short.itemCode, short.warehouseId);
      }
    }
  }

  /**
   * 422 `inventory.value_too_large` for the pair the database found beyond its bounds (stock_levels_within_bounds:
   * its `detail` names the item, the warehouse and the highest levels), naming the last incoming line of that pair.
   */
  private levelTooHigh(error: unknown): ApiError {
    const e = error as { detail?: string; nativeError?: { detail?: string } };
    const level = JSON.parse(e.nativeError?.detail ?? e.detail ?? "{}") as { itemCode: string; warehouseId: string; quantity: string; value: string };
    const movement = this.movements.filter((m) => m.direction === "in" && m.itemCode === level.itemCode && m.warehouse.id === level.warehouseId).pop();
    if (!movement) return stockTooLarge();
    return stockTooLarge({
      itemCode: level.itemCode,
      warehouseCode: movement.warehouse.code,
      quantity: level.quantity,
      value: level.value,
      field: movement.field ?? "lines",
    });
  }

  /** 422 `inventory.insufficient_stock` for the first outgoing movement of a pair whose balance holds too little. */
  private async balanceShort(itemCode: string, warehouseId: string): Promise<never> {
    const balance = await this.trx("stock_balances").where({ company_id: this.companyId, item_code: itemCode, warehouse_id: warehouseId }).first("quantity");
    const movement = this.movements.find((m) => m.direction === "out" && m.itemCode === itemCode && m.warehouse.id === warehouseId)!;
    throw insufficient(
      {
        itemCode,
        warehouseCode: movement.warehouse.code,
        date: this.header.date,
        quantity: movement.quantity,
        lotNumber: movement.request?.lotNumber,
        field: movement.request?.field ?? "lines",
      },
      new Decimal(balance?.quantity ?? 0),
    );
  }

  private toApi(journalTransactionId: string | null, createdAt: string): StockOperation {
    const { header } = this;
    return {
      id: this.id,
      kind: header.kind,
      date: header.date,
      warehouseCode: header.warehouse.code,
      toWarehouseCode: header.toWarehouse?.code ?? null,
      journalTransactionId,
      notes: header.notes ?? null,
      movements: this.movements.map((m) => movementToApi(m, { id: this.id, kind: header.kind, date: header.date })),
      createdAt,
    };
  }
}

export function partToApi(p: LayerPart) {
  return {
    layerId: p.layerId,
    quantity: quantityText(p.quantity),
    unitCost: formatDecimal(p.unitCost, "unitPrice"),
    value: money(p.value),
    lotNumber: p.lotNumber,
    expiryDate: p.expiryDate,
    serialNumber: p.serialNumber,
  };
}

function movementToApi(m: Movement, op: { id: string; kind: OperationKind; date: string }): StockMovement {
  const sign = m.direction === "in" ? 1 : -1;
  return {
    id: m.id,
    operationId: op.id,
    kind: op.kind,
    lineNo: m.lineNo,
    direction: m.direction,
    date: op.date,
    warehouseCode: m.warehouse.code,
    itemCode: m.itemCode,
    quantity: quantityText(m.quantity.times(sign)),
    value: money(m.value.times(sign)),
    layers: m.parts.map(partToApi),
  };
}
