// Invoices that move stock (issue 11).
//
// Sales: issuing an invoice takes its product lines out of stock, FIFO, from the line's warehouse (the default
// warehouse when it names none), within the lot or the serial numbers the line names, and its own journal
// transaction carries their cost: two more lines, debit `inventory.costOfSales` and credit `inventory.stock` for the
// value taken, in EUR (no currency: the invoice's other lines are in the document currency). One transaction per
// document keeps the books readable (the invoice's posting shows what it sold and what that cost) and keeps the work
// done under the series row's lock — from the number to the commit, when every other issue of the series waits — to
// what it was: the stock is taken and written before the number; only the link from the stock operation to the
// posting is written after it. A company without warehouses keeps no stock: its product lines move nothing.
//
// Sales credit notes: a line with `returnToStock` brings its goods back at the cost the credited invoice's issue
// took them at — from the layers that issue consumed (stock_consumptions of its movements), the most recently
// taken first, less what earlier credit notes brought back of each — as new layers that keep the lot, expiry and
// serial number and name the layer they came from (origin_layer_id). The credit note's posting carries their value:
// debit `inventory.stock`, credit `inventory.costOfSales`. Never more than the invoice took out (422).
//
// Purchases: registering an invoice receives its lines that name a warehouse (product items) into stock at the
// line's net amount in EUR — the exact EUR part the invoice's own posting debits to `inventory.stock` instead of
// an expense, shared between the lines by their nets — so the stock account and the layers agree to the cent; a
// lot-tracked line receives its lot, a serial-tracked line one layer per serial. The stock operation names the
// invoice's journal transaction, as its `inventory.stock_moved` event does.
import type { Db } from "../db/connection.js";
import { Decimal } from "../shared/decimal.js";
import { accountsForRules } from "../ledger/index.js";
import { ApiError, type FieldErrors } from "../shared/errors.js";
import { throwRuleFailures } from "../shared/identifiers.js";
import type { PostingEntry } from "../ledger/index.js";
import { splitByWeights } from "../shared/weights.js";
import { OperationWriter, type NewLayer, type StockOperation } from "./operations.js";
import { quantityText } from "./quantities.js";

interface InvoiceLineRow {
  line_no: number;
  item_code: string | null;
  quantity: string;
  warehouse_code: string | null;
  lot_number?: string | null;
  serials?: string[] | null;
}

type Warehouse = { id: string; code: string; is_default: boolean };

/** What a document's stock operation gives its posting: the lines of the value moved, and the link once posted. */
export interface DocumentStock {
  entries: PostingEntry[];
  link: (journalTransactionId: string) => Promise<StockOperation>;
  plannedLink: (journalTransactionId: string) => { operationId: string; event: StockOperation };
}

/**
 * Takes the product lines of a sales invoice out of stock (422 `inventory.insufficient_stock` naming the line,
 * `inventory.serial_not_in_stock` for a named serial not there) and writes the stock operation; returns the
 * cost-of-sales lines for the invoice's own posting and what links the operation to that posting once it exists,
 * or null when nothing moves.
 */
export async function takeSaleStock(
  trx: Db,
  companyId: string,
  keyId: string,
  invoice: { id: string; issue_date: string },
  lines: InvoiceLineRow[],
  /** What the caller read already: the product items among the lines, the company's warehouses, the accounts of costOfSales and stock. */
  preloaded?: { products: string[]; warehouses: Warehouse[]; accounts: [string, string] },
): Promise<DocumentStock | null> {
  const itemCodes = [...new Set(lines.flatMap((l) => (l.item_code ? [l.item_code] : [])))];
  if (!itemCodes.length) return null;
  const [products, warehouses] = preloaded
    ? [preloaded.products, preloaded.warehouses]
    : await Promise.all([
        trx("catalog_items").where({ company_id: companyId, type: "product" }).whereIn("code", itemCodes).pluck("code") as Promise<string[]>,
        trx("warehouses").where("company_id", companyId).select("id", "code", "is_default") as Promise<Warehouse[]>,
      ]);
  const stocked = lines.filter((l) => l.item_code && products.includes(l.item_code));
  if (!stocked.length || !warehouses.length) return null;
  const warehouseOf = lineWarehouse(warehouses, "sale_invoice");
  const first = warehouseOf(stocked[0]);
  const writer = new OperationWriter(trx, companyId, {
    kind: "sale_invoice",
    date: invoice.issue_date,
    warehouse: first,
    source: { type: "sale_invoice", id: invoice.id },
    keyId,
  });
  // In item order, so that invoices selling the same items lock their layers in the same order.
  const ordered = [...stocked].sort((a, b) => (a.item_code! < b.item_code! ? -1 : a.item_code! > b.item_code! ? 1 : a.line_no - b.line_no));
  let total = new Decimal(0);
  if (ordered.some((l) => l.serials?.length)) {
    // Named serials are taken line by line (src/inventory/fifo.ts takes exactly them); the set-based statement below
    // knows lots only.
    for (const l of ordered) {
      const taken = await writer.takeOut(
        l.line_no,
        {
          itemCode: l.item_code!,
          quantity: new Decimal(l.quantity),
          lotNumber: l.lot_number ?? undefined,
          serials: l.serials ?? undefined,
          field: `lines[${l.line_no - 1}].quantity`,
        },
        warehouseOf(l),
      );
      total = total.plus(taken.value);
    }
    await writer.writeUnposted();
  } else {
    // All lines in one statement (OperationWriter.takeOutAll), each within its lot when it names one.
    total = await writer.takeOutAll(
      ordered.map((l) => ({
        lineNo: l.line_no,
        itemCode: l.item_code!,
        quantity: new Decimal(l.quantity),
        lotNumber: l.lot_number ?? null,
        field: `lines[${l.line_no - 1}].quantity`,
        warehouse: warehouseOf(l),
      })),
    );
  }
  const [costOfSales, stock] = preloaded?.accounts ?? (await accountsForRules(trx, companyId, ["inventory.costOfSales", "inventory.stock"]));
  const entries: PostingEntry[] = total.greaterThan(0)
    ? [
        { accountCode: costOfSales, debit: total.toFixed(2), description: "Cost of sales" },
        { accountCode: stock, credit: total.toFixed(2), description: "Cost of sales" },
      ]
    : [];
  return {
    entries,
    link: (journalTransactionId) => writer.linkPosting(journalTransactionId),
    plannedLink: (journalTransactionId) => writer.plannedLink(journalTransactionId),
  };
}

/** The warehouse of a line: the one it names (checked when the draft was written; it may have been renamed since), else the default. */
function lineWarehouse(warehouses: { id: string; code: string; is_default?: boolean }[], prefix: "sale_invoice" | "purchase_invoice") {
  const fallback = warehouses.find((w) => w.is_default);
  return (l: Pick<InvoiceLineRow, "line_no" | "warehouse_code">) => {
    const w = l.warehouse_code ? warehouses.find((x) => x.code === l.warehouse_code) : fallback;
    if (!w) {
      throw new ApiError("unprocessable", `There is no warehouse ${l.warehouse_code}.`, {
        key: `${prefix}.warehouse_unknown`,
        fieldErrors: { [`lines[${l.line_no - 1}].warehouseCode`]: [`warehouse ${l.warehouse_code} does not exist`] },
      });
    }
    return { id: w.id, code: w.code };
  };
}

// What the invoice's issue took out of stock, per layer, and what issued credit notes of the invoice brought back of
// each (their layers name it as origin), most recently taken first: what a return may still bring back.
const RETURNABLE_SQL = `
  with taken as (
    select c.layer_id, m.item_code, sum(c.quantity) as quantity, sum(c.value) as value
      from stock_operations o
      join stock_movements m on m.company_id = o.company_id and m.operation_id = o.id and m.direction = 'out'
      join stock_consumptions c on c.company_id = m.company_id and c.movement_id = m.id
     where o.company_id = ?::uuid and o.source_type = 'sale_invoice' and o.source_id = ?::uuid
     group by 1, 2
  ), returned as (
    select l.origin_layer_id as layer_id, sum(l.quantity) as quantity, sum(l.value) as value
      from stock_operations o
      join stock_movements m on m.company_id = o.company_id and m.operation_id = o.id and m.direction = 'in'
      join stock_layers l on l.company_id = m.company_id and l.movement_id = m.id
     where o.company_id = ?::uuid and o.source_type = 'sale_credit_note'
       and o.source_id in (select n.id from sale_invoices n where n.company_id = ?::uuid and n.credited_invoice_id = ?::uuid)
     group by 1
  )
  select t.layer_id, t.item_code, l.warehouse_id, w.code as warehouse_code, l.unit_cost::text as unit_cost, l.lot_number,
         l.expiry_date::text as expiry_date, l.serial_number,
         (t.quantity - coalesce(r.quantity, 0))::text as quantity, (t.value - coalesce(r.value, 0))::text as value
    from taken t
    join stock_layers l on l.company_id = ?::uuid and l.id = t.layer_id
    join warehouses w on w.company_id = l.company_id and w.id = l.warehouse_id
    left join returned r on r.layer_id = t.layer_id
   order by l.date desc, l.seq desc`;

interface ReturnableLayer {
  layer_id: string;
  item_code: string;
  warehouse_id: string;
  warehouse_code: string;
  unit_cost: string;
  lot_number: string | null;
  expiry_date: string | null;
  serial_number: string | null;
  quantity: string;
  value: string;
}

async function returnableLayers(db: Db, companyId: string, invoiceId: string): Promise<ReturnableLayer[]> {
  const { rows } = await db.raw(RETURNABLE_SQL, [companyId, invoiceId, companyId, companyId, invoiceId, companyId]);
  return rows;
}

export interface ReturnLine {
  /** Position in the request (0-based), for the field a 422 names. */
  index: number;
  itemCode: string;
  quantity: string;
  warehouseCode: string | null;
}

/**
 * Shares each return line's quantity out over the layers the invoice took, most recently taken first; 422
 * `sale_invoice.return_invalid` for goods the invoice did not take out of stock, `sale_invoice.return_exceeds_sold`
 * for more than it took less what was brought back before. Returns the layers each line brings back.
 */
function shareReturns(layers: ReturnableLayer[], lines: ReturnLine[]): Map<number, (NewLayer & { warehouse: { id: string; code: string } })[]> {
  const left = layers.map((l) => ({ ...l, quantityLeft: new Decimal(l.quantity), valueLeft: new Decimal(l.value) }));
  const errors: FieldErrors = {};
  const keys: Record<string, string> = {};
  const shares = new Map<number, (NewLayer & { warehouse: { id: string; code: string } })[]>();
  for (const line of lines) {
    const ofItem = left.filter((l) => l.item_code === line.itemCode);
    const path = `lines[${line.index}].quantity`;
    if (!ofItem.length) {
      errors[`lines[${line.index}].returnToStock`] = [`the credited invoice took no ${line.itemCode} out of stock`];
      keys[`lines[${line.index}].returnToStock`] = "sale_invoice.return_invalid";
      continue;
    }
    const available = ofItem.reduce((s, l) => s.plus(l.quantityLeft), new Decimal(0));
    let need = new Decimal(line.quantity);
    if (need.greaterThan(available)) {
      errors[path] = [
        `only ${quantityText(available)} of ${line.itemCode} can come back: what the credited invoice took out of stock, less what credit notes brought back`,
      ];
      keys[path] = "sale_invoice.return_exceeds_sold";
      continue;
    }
    const parts: (NewLayer & { warehouse: { id: string; code: string } })[] = [];
    for (const l of ofItem) {
      if (need.isZero()) break;
      if (l.quantityLeft.isZero()) continue;
      const quantity = Decimal.min(l.quantityLeft, need);
      // As FIFO values a part: quantity × unit cost to the cent, never more than is left; the last part takes the rest.
      const value = quantity.equals(l.quantityLeft)
        ? l.valueLeft
        : Decimal.min(quantity.times(l.unit_cost).toDecimalPlaces(2, Decimal.ROUND_HALF_UP), l.valueLeft);
      parts.push({
        quantity,
        unitCost: l.unit_cost,
        value,
        lotNumber: l.lot_number,
        expiryDate: l.expiry_date,
        serialNumber: l.serial_number,
        originLayerId: l.layer_id,
        warehouse: { id: l.warehouse_id, code: l.warehouse_code },
      });
      l.quantityLeft = l.quantityLeft.minus(quantity);
      l.valueLeft = l.valueLeft.minus(value);
      need = need.minus(quantity);
    }
    shares.set(line.index, parts);
  }
  throwRuleFailures(errors, keys, "sale_invoice.invalid_lines");
  return shares;
}

/** A draft credit note's returns against what its invoice took out of stock (422 as `shareReturns`). */
export async function refuseReturnsBeyondSold(db: Db, companyId: string, creditedInvoiceId: string, lines: ReturnLine[]): Promise<void> {
  if (lines.length) shareReturns(await returnableLayers(db, companyId, creditedInvoiceId), lines);
}

/**
 * Brings a credit note's return lines back into stock at the cost its invoice took them at (the invoice is locked
 * by the caller, so two credit notes of one invoice return one after the other); returns the lines of the credit
 * note's posting (debit stock, credit cost of sales) and what links the operation to it.
 */
export async function returnSaleStock(
  trx: Db,
  companyId: string,
  keyId: string,
  creditNote: { id: string; issue_date: string; credited_invoice_id: string },
  lines: { line_no: number; item_code: string; quantity: string; warehouse_code: string | null }[],
  preloaded: { warehouses: Warehouse[]; accounts: [string, string] },
): Promise<DocumentStock | null> {
  if (!lines.length) return null;
  const shares = shareReturns(
    await returnableLayers(trx, companyId, creditNote.credited_invoice_id),
    lines.map((l) => ({ index: l.line_no - 1, itemCode: l.item_code, quantity: l.quantity, warehouseCode: l.warehouse_code })),
  );
  // Each line comes back into one warehouse: the one it names, else the one its most recently taken layer left.
  const named = lineWarehouse(preloaded.warehouses, "sale_invoice");
  const into = (l: (typeof lines)[number]) => (l.warehouse_code ? named(l) : shares.get(l.line_no - 1)![0].warehouse);
  const writer = new OperationWriter(trx, companyId, {
    kind: "sale_invoice",
    date: creditNote.issue_date,
    warehouse: into(lines[0]),
    source: { type: "sale_credit_note", id: creditNote.id },
    keyId,
  });
  let total = new Decimal(0);
  for (const l of lines) {
    const layers = shares.get(l.line_no - 1)!.map(({ warehouse: _, ...layer }) => layer);
    total = total.plus(writer.bringIn(l.line_no, l.item_code, layers, into(l), `lines[${l.line_no - 1}].returnToStock`));
  }
  // The stock account read again under the stock rule's lock (held until commit: the rule cannot be repointed under
  // the value this return brings in), not the one the caller read before it.
  const [stock] = await accountsForRules(trx, companyId, ["inventory.stock"]);
  await writer.writeUnposted();
  const [costOfSales] = preloaded.accounts;
  const entries: PostingEntry[] = total.greaterThan(0)
    ? [
        { accountCode: stock, debit: total.toFixed(2), description: "Goods returned" },
        { accountCode: costOfSales, credit: total.toFixed(2), description: "Goods returned" },
      ]
    : [];
  return {
    entries,
    link: (journalTransactionId) => writer.linkPosting(journalTransactionId),
    plannedLink: (journalTransactionId) => writer.plannedLink(journalTransactionId),
  };
}

/**
 * Receives the lines of a purchase invoice that name a warehouse; `eurValues[i]` is the EUR value of `lines[i]`
 * (those lines only, in order), summing to what the invoice's posting debits to `inventory.stock`. The operation
 * names the invoice's journal transaction `journalTransactionId` and is announced with it.
 */
export async function receivePurchaseStock(
  trx: Db,
  companyId: string,
  keyId: string,
  invoice: { id: string; document_date: string },
  lines: InvoiceLineRow[],
  eurValues: Decimal[],
  journalTransactionId: string,
): Promise<StockOperation> {
  const codes = [...new Set(lines.map((l) => l.warehouse_code!))];
  const warehouses: { id: string; code: string }[] = await trx("warehouses").where("company_id", companyId).whereIn("code", codes).select("id", "code");
  const warehouseOf = lineWarehouse(warehouses, "purchase_invoice");
  const writer = new OperationWriter(trx, companyId, {
    kind: "purchase_invoice",
    date: invoice.document_date,
    warehouse: warehouseOf(lines[0]),
    source: { type: "purchase_invoice", id: invoice.id },
    keyId,
  });
  lines.forEach((l, i) => {
    const quantity = new Decimal(l.quantity);
    const value = eurValues[i];
    // A serial-tracked line: one layer per serial, the line's value shared to the cent.
    const layers: NewLayer[] = l.serials?.length
      ? splitByWeights(
          value,
          l.serials.map(() => new Decimal(1)),
        ).map((v, k) => ({ quantity: new Decimal(1), unitCost: v.toFixed(2), value: v, serialNumber: l.serials![k] }))
      : [{ quantity, unitCost: value.dividedBy(quantity).toDecimalPlaces(6, Decimal.ROUND_HALF_UP).toFixed(), value, lotNumber: l.lot_number ?? null }];
    writer.bringIn(l.line_no, l.item_code!, layers, warehouseOf(l), `lines[${l.line_no - 1}].quantity`);
  });
  // The invoice's own posting carries the stock's value; the operation posts nothing of its own and names that one.
  await writer.writeUnposted();
  return writer.linkPosting(journalTransactionId);
}
