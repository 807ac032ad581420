// The stock operations of the API: receive, transfer, write off, count. Each is one OperationWriter (operations.ts)
// in the request's transaction; outgoing lines take FIFO (fifo.ts). Lines are taken in item order, so that two
// operations touching the same items lock their layers in the same order.
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import { Decimal, MAX_MONEY } from "../shared/decimal.js";
import { conflict } from "../shared/errors.js";
import { accountsForRules } from "../ledger/index.js";
import { checkAccount, checkIssueTracking, checkSerials, Failures, refuseLockedMonth, stockItems, type StockItem } from "./checks.js";
import { OperationWriter, type StockOperation } from "./operations.js";
import { quantityText } from "./quantities.js";
import { warehousesByCode } from "./warehouses.js";

type ReceiveInput = components["schemas"]["Inventory.StockReceiveRequest"];
type TransferInput = components["schemas"]["Inventory.StockTransferRequest"];
type WriteOffInput = components["schemas"]["Inventory.StockWriteOffRequest"];
type TakeInput = components["schemas"]["Inventory.StockTakeRequest"];
type StockTake = components["schemas"]["Inventory.StockTake"];
type IssueLine = components["schemas"]["Inventory.StockIssueLine"];

const cents = (v: Decimal) => v.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
const byItem = <T extends { itemCode: string }>(lines: T[]) =>
  lines.map((line, i) => ({ line, i })).sort((a, b) => (a.line.itemCode < b.line.itemCode ? -1 : a.line.itemCode > b.line.itemCode ? 1 : a.i - b.i));

async function warehouse(db: Db, companyId: string, code: string, field: string) {
  const row = (await warehousesByCode(db, companyId, [{ code, field }])).get(code)!;
  return { id: row.id as string, code: row.code as string };
}

/** Lot, expiry and serial rules of a receipt line for its item's tracking. */
function checkReceiptTracking(item: StockItem | undefined, line: ReceiveInput["lines"][number], i: number, failures: Failures) {
  if (!item) return;
  const refuse = (field: string, key: string, why: string) => failures.add(`lines[${i}].${field}`, key, why);
  if (item.tracking === "lot" && line.lotNumber === undefined)
    refuse("lotNumber", "inventory.lot_required", `item ${item.code} is tracked by lot: name the lot received`);
  if (item.tracking !== "lot" && line.lotNumber !== undefined) refuse("lotNumber", "inventory.lot_not_tracked", `item ${item.code} is not tracked by lot`);
  if (item.tracking === "none" && line.expiryDate !== undefined)
    refuse("expiryDate", "inventory.expiry_not_tracked", `item ${item.code} is tracked by neither lot nor serial number`);
  if (item.tracking === "serial") {
    if (line.serials === undefined) refuse("serials", "inventory.serials_required", `item ${item.code} is tracked by serial number: one serial per unit`);
    else checkSerials(line.serials, line.quantity, i, failures);
  } else if (line.serials !== undefined) refuse("serials", "inventory.serial_not_tracked", `item ${item.code} is not tracked by serial number`);
}

export async function receiveStock(trx: Db, companyId: string, keyId: string, input: ReceiveInput): Promise<StockOperation> {
  const wh = await warehouse(trx, companyId, input.warehouseCode, "warehouseCode");
  const failures = new Failures();
  const items = await stockItems(
    trx,
    companyId,
    input.lines.map((l) => l.itemCode),
    failures,
  );
  input.lines.forEach((line, i) => {
    checkReceiptTracking(items.get(line.itemCode), line, i, failures);
    if (cents(new Decimal(line.quantity).times(line.unitCost)).greaterThan(MAX_MONEY)) {
      failures.add(`lines[${i}].unitCost`, "inventory.value_too_large", `quantity x unit cost exceeds ${MAX_MONEY}`);
    }
  });
  const [stockAccount, notInvoicedAccount] = await accountsForRules(trx, companyId, ["inventory.stock", "inventory.goodsReceivedNotInvoiced"]);
  if (input.counterAccountCode !== undefined) await checkCounterAccount(trx, companyId, input.counterAccountCode, stockAccount, failures);
  failures.throwIfAny();
  await refuseLockedMonth(trx, companyId, input.date);

  const writer = new OperationWriter(trx, companyId, { kind: "receipt", date: input.date, warehouse: wh, notes: input.notes, keyId });
  let total = new Decimal(0);
  input.lines.forEach((line, i) => {
    const unitCost = new Decimal(line.unitCost);
    const layers = line.serials
      ? line.serials.map((serial) => ({
          quantity: new Decimal(1),
          unitCost: line.unitCost,
          value: cents(unitCost),
          serialNumber: serial,
          expiryDate: line.expiryDate,
        }))
      : [
          {
            quantity: new Decimal(line.quantity),
            unitCost: line.unitCost,
            value: cents(unitCost.times(line.quantity)),
            lotNumber: line.lotNumber,
            expiryDate: line.expiryDate,
          },
        ];
    total = total.plus(writer.bringIn(i + 1, line.itemCode, layers, wh, `lines[${i}].quantity`));
  });
  if (total.greaterThan(MAX_MONEY)) failures.add("lines", "inventory.value_too_large", `the receipt's value ${total.toFixed(2)} exceeds ${MAX_MONEY}`);
  failures.throwIfAny();
  // The layers' value is always posted to the stock account: against the counter account, else against goods received
  // not invoiced (the supplier's invoice, when it comes, clears that account), so that the stock account and the
  // layers never part ways.
  const posting = total.greaterThan(0)
    ? {
        description: `Stock received into ${wh.code}`,
        entries: [
          { accountCode: stockAccount, debit: total.toFixed(2) },
          { accountCode: input.counterAccountCode ?? notInvoicedAccount, credit: total.toFixed(2) },
        ],
      }
    : undefined;
  return writer.finish(posting);
}

/**
 * The account a receipt credits: any postable account — a supplier or an accrual (liability), cash or an advance
 * paid (asset), an owner's contribution (equity), goods received free (income), goods coming back at their cost
 * from cost of sales or an expense they were charged to (expense) — except the stock account itself, which the
 * receipt debits: the posting would cancel out and the layers would have no counterpart in the ledger.
 */
async function checkCounterAccount(db: Db, companyId: string, code: string, stockAccount: string, failures: Failures) {
  await checkAccount(db, companyId, code, "counterAccountCode", null, failures);
  if (code === stockAccount) {
    failures.add(
      "counterAccountCode",
      "inventory.account_invalid",
      `account ${code} is the stock account (posting rule inventory.stock) the receipt debits: credit the account the goods are owed to or paid from`,
    );
  }
}

/** The checks every line that takes stock out shares. */
async function issueLines(trx: Db, companyId: string, lines: IssueLine[], failures: Failures) {
  const items = await stockItems(
    trx,
    companyId,
    lines.map((l) => l.itemCode),
    failures,
  );
  lines.forEach((line, i) => checkIssueTracking(items.get(line.itemCode), line, i, failures));
  return items;
}

export async function transferStock(trx: Db, companyId: string, keyId: string, input: TransferInput): Promise<StockOperation> {
  const failures = new Failures();
  if (input.fromWarehouseCode === input.toWarehouseCode) failures.add("toWarehouseCode", "inventory.same_warehouse", "must differ from fromWarehouseCode");
  failures.throwIfAny();
  const from = await warehouse(trx, companyId, input.fromWarehouseCode, "fromWarehouseCode");
  const to = await warehouse(trx, companyId, input.toWarehouseCode, "toWarehouseCode");
  await issueLines(trx, companyId, input.lines, failures);
  failures.throwIfAny();
  await refuseLockedMonth(trx, companyId, input.date);
  const writer = new OperationWriter(trx, companyId, { kind: "transfer", date: input.date, warehouse: from, toWarehouse: to, notes: input.notes, keyId });
  // Each line is two movements: out of the source (line 2n-1), into the destination (line 2n).
  for (const { line, i } of byItem(input.lines)) {
    const { parts } = await writer.takeOut(2 * i + 1, {
      itemCode: line.itemCode,
      quantity: new Decimal(line.quantity),
      lotNumber: line.lotNumber,
      serials: line.serials,
      field: `lines[${i}].quantity`,
    });
    writer.bringIn(
      2 * i + 2,
      line.itemCode,
      parts.map((p) => ({
        quantity: p.quantity,
        unitCost: p.unitCost,
        value: p.value,
        lotNumber: p.lotNumber,
        expiryDate: p.expiryDate,
        serialNumber: p.serialNumber,
        originLayerId: p.layerId,
      })),
      to,
      `lines[${i}].quantity`,
    );
  }
  return writer.finish();
}

export async function writeOffStock(trx: Db, companyId: string, keyId: string, input: WriteOffInput): Promise<StockOperation> {
  const wh = await warehouse(trx, companyId, input.warehouseCode, "warehouseCode");
  const failures = new Failures();
  await issueLines(trx, companyId, input.lines, failures);
  const [stockAccount, writeOffAccount] = await accountsForRules(trx, companyId, ["inventory.stock", "inventory.writeOff"]);
  const expenseAccount = input.expenseAccountCode ?? writeOffAccount;
  if (input.expenseAccountCode !== undefined) await checkAccount(trx, companyId, input.expenseAccountCode, "expenseAccountCode", ["expense"], failures);
  failures.throwIfAny();
  await refuseLockedMonth(trx, companyId, input.date);
  const writer = new OperationWriter(trx, companyId, { kind: "write_off", date: input.date, warehouse: wh, notes: input.notes, keyId });
  let total = new Decimal(0);
  for (const { line, i } of byItem(input.lines)) {
    const { value } = await writer.takeOut(i + 1, {
      itemCode: line.itemCode,
      quantity: new Decimal(line.quantity),
      lotNumber: line.lotNumber,
      serials: line.serials,
      field: `lines[${i}].quantity`,
    });
    total = total.plus(value);
  }
  const posting = total.greaterThan(0)
    ? {
        description: `Stock written off in ${wh.code}`,
        entries: [
          { accountCode: expenseAccount, debit: total.toFixed(2) },
          { accountCode: stockAccount, credit: total.toFixed(2) },
        ],
      }
    : undefined;
  return writer.finish(posting);
}

export async function takeStock(trx: Db, companyId: string, keyId: string, input: TakeInput): Promise<StockTake> {
  const wh = await warehouse(trx, companyId, input.warehouseCode, "warehouseCode");
  const failures = new Failures();
  const items = await stockItems(
    trx,
    companyId,
    input.lines.map((l) => l.itemCode),
    failures,
  );
  const seen = new Set<string>();
  input.lines.forEach((line, i) => {
    const item = items.get(line.itemCode);
    const key = `${line.itemCode}\u0000${line.lotNumber ?? ""}`;
    if (seen.has(key))
      failures.add(
        `lines[${i}].itemCode`,
        "inventory.count_repeated",
        `item ${line.itemCode}${line.lotNumber ? ` lot ${line.lotNumber}` : ""} is counted twice`,
      );
    seen.add(key);
    if (!item) return;
    if (item.tracking === "serial")
      failures.add(
        `lines[${i}].itemCode`,
        "inventory.count_serial",
        `item ${item.code} is tracked by serial number: write off or receive the named units instead`,
      );
    if (item.tracking === "lot" && line.lotNumber === undefined)
      failures.add(`lines[${i}].lotNumber`, "inventory.lot_required", `item ${item.code} is counted per lot`);
    if (item.tracking !== "lot" && line.lotNumber !== undefined)
      failures.add(`lines[${i}].lotNumber`, "inventory.lot_not_tracked", `item ${item.code} is not tracked by lot`);
  });
  const [stockAccount, writeOffAccount, surplusRuleAccount] = await accountsForRules(trx, companyId, [
    "inventory.stock",
    "inventory.writeOff",
    "inventory.countSurplus",
  ]);
  if (input.expenseAccountCode !== undefined) await checkAccount(trx, companyId, input.expenseAccountCode, "expenseAccountCode", ["expense"], failures);
  if (input.surplusAccountCode !== undefined)
    await checkAccount(trx, companyId, input.surplusAccountCode, "surplusAccountCode", ["income", "expense"], failures);
  failures.throwIfAny();
  await refuseLockedMonth(trx, companyId, input.date);

  // Counts of the same item in the same warehouse run one after the other: an item with no layer to lock (never
  // received, sold out) would otherwise let two counts both find a surplus and both bring it in.
  await lockCountedItems(
    trx,
    companyId,
    wh.id,
    input.lines.map((l) => l.itemCode),
  );
  const writer = new OperationWriter(trx, companyId, { kind: "take", date: input.date, warehouse: wh, notes: input.notes, keyId });
  let shortage = new Decimal(0);
  let surplus = new Decimal(0);
  const counts: StockTake["counts"] = [];
  for (const { line, i } of byItem(input.lines)) {
    const lot = line.lotNumber ?? null;
    // The open layers dated on or before the count, locked until commit: what a shortage takes from.
    const { rows } = await trx.raw(
      `select remaining_quantity from stock_layers
        where company_id = ? and item_code = ? and warehouse_id = ? and remaining_quantity > 0 and date <= ? and (?::text is null or lot_number = ?::text)
        order by date, seq for update`,
      [companyId, line.itemCode, wh.id, input.date, lot, lot],
    );
    const open = rows.reduce((sum: Decimal, r: { remaining_quantity: string }) => sum.plus(r.remaining_quantity), new Decimal(0));
    const expected = await quantityOn(trx, companyId, line.itemCode, wh.id, input.date, lot);
    const counted = new Decimal(line.countedQuantity);
    const difference = counted.minus(expected);
    counts[i] = {
      itemCode: line.itemCode,
      lotNumber: lot,
      expectedQuantity: quantityText(expected),
      countedQuantity: quantityText(counted),
      difference: quantityText(difference),
    };
    if (difference.lessThan(0)) {
      if (difference.negated().greaterThan(open)) throw shortageTakenLater(line.itemCode, lot, wh.code, input.date, expected, counted, open);
      const { value } = await writer.takeOut(i + 1, {
        itemCode: line.itemCode,
        quantity: difference.negated(),
        lotNumber: line.lotNumber,
        field: `lines[${i}].countedQuantity`,
      });
      shortage = shortage.plus(value);
    } else if (difference.greaterThan(0)) {
      const unitCost =
        line.unitCost ?? (await surplusCost(trx, companyId, line.itemCode, wh.id, input.date)) ?? items.get(line.itemCode)!.purchase_price_excl_vat;
      if (unitCost === null) {
        failures.add(
          `lines[${i}].unitCost`,
          "inventory.surplus_cost_unknown",
          `item ${line.itemCode} has no layer and no purchase price to value the surplus: send unitCost`,
        );
        continue;
      }
      const value = cents(difference.times(unitCost));
      if (value.greaterThan(MAX_MONEY)) failures.add(`lines[${i}].unitCost`, "inventory.value_too_large", `the surplus's value exceeds ${MAX_MONEY}`);
      surplus = surplus.plus(
        writer.bringIn(
          i + 1,
          line.itemCode,
          [{ quantity: difference, unitCost: new Decimal(unitCost).toFixed(), value, lotNumber: lot }],
          wh,
          `lines[${i}].countedQuantity`,
        ),
      );
    }
  }
  failures.throwIfAny();
  const entries = [
    ...(shortage.greaterThan(0)
      ? [
          { accountCode: input.expenseAccountCode ?? writeOffAccount, debit: shortage.toFixed(2) },
          { accountCode: stockAccount, credit: shortage.toFixed(2) },
        ]
      : []),
    ...(surplus.greaterThan(0)
      ? [
          { accountCode: stockAccount, debit: surplus.toFixed(2) },
          { accountCode: input.surplusAccountCode ?? surplusRuleAccount, credit: surplus.toFixed(2) },
        ]
      : []),
  ];
  const operation = await writer.finish(entries.length ? { description: `Stock take in ${wh.code}`, entries } : undefined);
  return { ...operation, counts };
}

/**
 * What was in stock at the end of `date`: what movements dated on or before it brought in less what they took out
 * (per lot: the lot's layers dated on or before it less what such movements took from them). Movements dated after
 * the count do not change what it should have found, however early they were entered.
 */
async function quantityOn(db: Db, companyId: string, itemCode: string, warehouseId: string, date: string, lot: string | null): Promise<Decimal> {
  const { rows } =
    lot === null
      ? await db.raw(
          `select coalesce(sum(quantity), 0)::text as q from stock_movements where company_id = ? and item_code = ? and warehouse_id = ? and date <= ?`,
          [companyId, itemCode, warehouseId, date],
        )
      : await db.raw(
          `select (coalesce(sum(l.quantity), 0) - coalesce(sum(t.taken), 0))::text as q
             from stock_layers l
             left join lateral (select sum(c.quantity) as taken
                                  from stock_consumptions c
                                  join stock_movements m on m.company_id = c.company_id and m.id = c.movement_id
                                 where c.company_id = l.company_id and c.layer_id = l.id and m.date <= ?) t on true
            where l.company_id = ? and l.item_code = ? and l.warehouse_id = ? and l.lot_number = ? and l.date <= ?`,
          [date, companyId, itemCode, warehouseId, lot, date],
        );
  return new Decimal(rows[0].q);
}

/**
 * 409 for a back-dated count whose shortage movements dated after it have already taken: the units it finds missing
 * on `date` were issued later (FIFO took them from the same layers), so writing them off on `date` would leave a
 * later movement without its stock. The count is right about its day; the later movements were recorded from stock
 * that was not there — correct those, or date the count after them.
 */
function shortageTakenLater(
  itemCode: string,
  lot: string | null,
  warehouseCode: string,
  date: string,
  expected: Decimal,
  counted: Decimal,
  available: Decimal,
) {
  const lotText = lot ? ` (lot ${lot})` : "";
  return conflict(
    `The count of item ${itemCode}${lotText} in warehouse ${warehouseCode} on ${date} finds ${quantityText(expected.minus(counted))} missing of the ${quantityText(expected)} in stock that day, but movements dated after it have taken all but ${quantityText(available)} of those units. Correct the later movements or date the count after them.`,
    "inventory.shortage_taken_later",
    {
      itemCode,
      warehouseCode,
      ...(lot ? { lotNumber: lot } : {}),
      date,
      expected: quantityText(expected),
      counted: quantityText(counted),
      available: quantityText(available),
    },
  );
}

/** The unit cost of the item's newest layer in the warehouse dated on or before `date` (also an emptied one), or null. */
async function surplusCost(db: Db, companyId: string, itemCode: string, warehouseId: string, date: string): Promise<string | null> {
  const row = await db("stock_layers")
    .where({ company_id: companyId, item_code: itemCode, warehouse_id: warehouseId })
    .where("date", "<=", date)
    .orderBy([
      { column: "date", order: "desc" },
      { column: "seq", order: "desc" },
    ])
    .first("unit_cost");
  return row ? new Decimal(row.unit_cost).toFixed() : null;
}

/** Transaction-scoped locks on (company, warehouse, item) for a count, taken in item order so two counts never deadlock. */
export async function lockCountedItems(trx: Db, companyId: string, warehouseId: string, itemCodes: string[]) {
  await trx.raw(
    `select pg_advisory_xact_lock(hashtextextended('stock_take:' || ?::text || ':' || ?::text || ':' || code, 0))
       from (select distinct code from unnest(?::text[]) as c (code) order by code) ordered`,
    [companyId, warehouseId, [...new Set(itemCodes)]],
  );
}
