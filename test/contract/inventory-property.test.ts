// Property: after any sequence of receipts, transfers, write-offs, stock takes, sales invoices issued and purchase
// invoices registered (dated in any order), the stock account's ledger balance equals the value of all open layers,
// every item's balance per warehouse equals the sum of its layers, `inventory/stock/levels` says the same, a count
// expects what the levels say was there on its date, and a refused operation changes nothing. A fresh company per run; fast-check shrinks a failure to its shortest sequence and prints its seed. Every call goes through the SDK and the shared world.
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import fc from "fast-check";
import { Decimal } from "decimal.js";
import { startHarness, type Harness } from "../support/harness.js";
import { settle } from "../support/expect.js";
import type { AccountingApiError } from "../../sdk/typescript/src/index.js";
import { accountBalance, ITEMS, layersValue, WAREHOUSES as STOCK_WAREHOUSES } from "../support/inventory.js";
import { world, type World } from "../support/world.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const WAREHOUSES = ["CENTR", "FILIAL"] as const;
// Mostly whole units (so that one layer is taken from several times and its rounding adds up), some fractions.
const quantity = fc.oneof(
  fc.integer({ min: 1, max: 3 }).map(String),
  fc.integer({ min: 1, max: 50_000 }).map((n) => new Decimal(n).dividedBy(10_000).toFixed()),
);
const bigQuantity = fc.oneof(
  fc.integer({ min: 1, max: 12 }).map(String),
  fc.integer({ min: 1, max: 200_000 }).map((n) => new Decimal(n).dividedBy(10_000).toFixed()),
);
// Costs that do not divide into cents (a third, a half cent) as well as any six-decimal cost.
const unitCost = fc.oneof(
  fc.constantFrom("0.333333", "0.005", "1.666667", "0"),
  fc.integer({ min: 0, max: 99_999_999 }).map((n) => new Decimal(n).dividedBy(1_000_000).toFixed()),
);
// An invoice line's unit price carries at most 4 decimals.
const linePrice = fc.oneof(
  fc.constantFrom("0.3333", "0.005", "1.6667", "0"),
  fc.integer({ min: 0, max: 99_999_999 }).map((n) => new Decimal(n).dividedBy(10_000).toFixed()),
);
const warehouse = fc.constantFrom(...WAREHOUSES);
const day = fc.integer({ min: 1, max: 4 }).map((d) => `2026-03-0${d}`);
const item = fc.constantFrom({ code: "PREKE" }, { code: "PREKE" }, { code: "PIENAS", lot: "A" }, { code: "PIENAS", lot: "B" });

type Op =
  | { kind: "receive"; warehouse: string; date: string; item: { code: string; lot?: string }; quantity: string; unitCost: string }
  | { kind: "transfer"; from: string; date: string; item: { code: string; lot?: string }; quantity: string }
  | { kind: "writeOff"; warehouse: string; date: string; item: { code: string; lot?: string }; quantity: string }
  | { kind: "take"; warehouse: string; date: string; item: { code: string; lot?: string }; counted: string; unitCost: string }
  | { kind: "sell"; warehouse: string; date: string; item: { code: string; lot?: string }; quantity: string }
  | { kind: "buy"; warehouse: string; date: string; quantity: string; unitCost: string };

const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant("receive" as const), warehouse, date: day, item, quantity: bigQuantity, unitCost }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant("transfer" as const), from: warehouse, date: day, item, quantity }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant("writeOff" as const), warehouse, date: day, item, quantity }), weight: 3 },
  {
    arbitrary: fc.record({ kind: fc.constant("take" as const), warehouse, date: day, item, counted: fc.oneof(fc.constant("0"), bigQuantity), unitCost }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant("sell" as const), warehouse, date: day, item, quantity }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant("buy" as const), warehouse, date: day, quantity: bigQuantity, unitCost: linePrice }), weight: 2 },
);

const lot = (i: { lot?: string }) => (i.lot ? { lotNumber: i.lot } : {});

let docSeq = 0;

/** How an operation ended: the error it was refused with, or (a count) the quantity it expected. */
type Outcome = { error?: AccountingApiError; expectedQuantity?: string };

/**
 * Sends the operation (a sale: a draft, then its issue; a purchase: a draft, then its registration) and settles it;
 * the count's expected quantity is returned for a take.
 */
async function run(w: World, o: Op): Promise<Outcome> {
  const { api } = w;
  const done = async (call: Promise<unknown>): Promise<Outcome> => ({ error: (await settle(call)).error });
  switch (o.kind) {
    case "sell": {
      const d = await api.sales.invoices.create({
        partnerCode: "PIRKEJAS",
        issueDate: o.date,
        lines: [{ itemCode: o.item.code, quantity: o.quantity, unitPriceExclVat: "10", warehouseCode: o.warehouse }],
      });
      return done(api.sales.invoices.issue({ id: d.id }));
    }
    case "buy": {
      const d = await api.purchases.invoices.create({
        partnerCode: "TIEKEJAS",
        documentNumber: `P-${++docSeq}`,
        documentDate: o.date,
        lines: [{ itemCode: "PREKE", quantity: o.quantity, unitPriceExclVat: o.unitCost, warehouseCode: o.warehouse }],
      });
      return done(api.purchases.invoices.register({ id: d.id }));
    }
    case "receive":
      return done(
        api.inventory.stock.receive({
          warehouseCode: o.warehouse,
          date: o.date,
          counterAccountCode: "4430",
          lines: [{ itemCode: o.item.code, quantity: o.quantity, unitCost: o.unitCost, ...lot(o.item) }],
        }),
      );
    case "transfer":
      return done(
        api.inventory.stock.transfer({
          fromWarehouseCode: o.from,
          toWarehouseCode: o.from === "CENTR" ? "FILIAL" : "CENTR",
          date: o.date,
          lines: [{ itemCode: o.item.code, quantity: o.quantity, ...lot(o.item) }],
        }),
      );
    case "writeOff":
      return done(
        api.inventory.stock.writeOff({ warehouseCode: o.warehouse, date: o.date, lines: [{ itemCode: o.item.code, quantity: o.quantity, ...lot(o.item) }] }),
      );
    case "take": {
      const s = await settle(
        api.inventory.stock.take({
          warehouseCode: o.warehouse,
          date: o.date,
          lines: [{ itemCode: o.item.code, countedQuantity: o.counted, unitCost: o.unitCost, ...lot(o.item) }],
        }),
      );
      return s.error ? { error: s.error } : { expectedQuantity: s.data.counts[0].expectedQuantity };
    }
  }
}

/** Everything the stock and the ledger hold for the company, to compare before and after a refused operation. */
const snapshot = async (w: World) => ({
  layers: await h.db("stock_layers").where({ company_id: w.companyId }).orderBy("seq"),
  balances: await h.db("stock_balances").where({ company_id: w.companyId }).orderBy(["item_code", "warehouse_id"]),
  journal: await h.db("journal_transactions").where({ company_id: w.companyId }).count("* as n"),
});

/** An item's quantity in a warehouse at the end of `asOf`, as `inventory/stock/levels` says. */
async function levelOn(w: World, asOf: string, itemCode: string, warehouseCode: string): Promise<string> {
  const levels = await w.api.inventory.stock.levels({
    asOf,
    filter: [
      { field: "itemCode", op: "eq", value: itemCode },
      { field: "warehouseCode", op: "eq", value: warehouseCode },
    ],
  });
  return levels.rows[0]?.quantity ?? "0";
}

async function checkInvariants(w: World) {
  expect(await accountBalance(h, w.companyId, "2040")).toBe(await layersValue(h, w.companyId));
  const { rows } = await h.db.raw(
    `select b.item_code, b.warehouse_id, b.quantity::text as bq, b.value::text as bv,
            coalesce(sum(l.remaining_quantity), 0)::text as lq, coalesce(sum(l.remaining_value), 0)::text as lv
       from stock_balances b
       left join stock_layers l on l.company_id = b.company_id and l.item_code = b.item_code and l.warehouse_id = b.warehouse_id
      where b.company_id = ?
      group by b.item_code, b.warehouse_id, b.quantity, b.value`,
    [w.companyId],
  );
  for (const r of rows)
    expect([r.item_code, new Decimal(r.bq).toFixed(), new Decimal(r.bv).toFixed(2)]).toEqual([
      r.item_code,
      new Decimal(r.lq).toFixed(),
      new Decimal(r.lv).toFixed(2),
    ]);
  // The sums the database keeps of the layers (stock_layer_sums, which its balance check reads) are the layers' sums.
  const { rows: sums } = await h.db.raw(
    `select l.item_code, l.warehouse_id, sum(l.remaining_quantity)::text as lq, sum(l.remaining_value)::text as lv, s.quantity::text as sq, s.value::text as sv
       from stock_layers l
       left join stock_layer_sums s on s.company_id = l.company_id and s.item_code = l.item_code and s.warehouse_id = l.warehouse_id
      where l.company_id = ?
      group by l.item_code, l.warehouse_id, s.quantity, s.value`,
    [w.companyId],
  );
  for (const r of sums)
    expect([r.item_code, r.sq === null ? null : new Decimal(r.sq).toFixed(), r.sv === null ? null : new Decimal(r.sv).toFixed(2)]).toEqual([
      r.item_code,
      new Decimal(r.lq).toFixed(),
      new Decimal(r.lv).toFixed(2),
    ]);
  // The levels as of the last day equal the layers; the movements' net value equals them too.
  const levels = await w.api.inventory.stock.levels({ asOf: "2026-03-31", totals: ["quantity", "value"], includeZero: true, pageSize: 500 });
  expect(levels.totals?.value).toBe(await layersValue(h, w.companyId));
  const movements = await w.api.inventory.stock.movements.list({ totals: ["value"] });
  expect(movements.totals?.value).toBe(await layersValue(h, w.companyId));
}

const tally: Record<string, number> = { ok: 0 };
afterAll(() =>
  console.log(
    `inventory property: ${Object.entries(tally)
      .map(([k, n]) => `${n} ${k}`)
      .join(", ")}`,
  ),
);

test("the stock account equals the layers' value; balances equal their layers; refusals change nothing", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 25, size: "max" }), async (ops) => {
      const w = await world(h, {
        company: { vatCode: "LT100001919017" },
        items: ITEMS,
        warehouses: STOCK_WAREHOUSES,
        partners: [
          { name: "Pirkėjas UAB", code: "PIRKEJAS" },
          { name: "Tiekėjas UAB", code: "TIEKEJAS", isSupplier: true },
        ],
      });
      for (const o of ops) {
        const before = await snapshot(w);
        // A count expects what the levels say was there at the end of its date, whatever came after it.
        const onTheDay = o.kind === "take" && !o.item.lot ? await levelOn(w, o.date, o.item.code, o.warehouse) : undefined;
        const res = await run(w, o);
        if (onTheDay !== undefined && !res.error) expect(res.expectedQuantity).toBe(onTheDay);
        const outcome = res.error ? `${res.error.status} ${res.error.key}` : "ok";
        tally[outcome] = (tally[outcome] ?? 0) + 1;
        if (res.error) {
          // Only "not enough stock", a surplus worth more than one posting may carry, a purchase worth 0.00, or a count
          // dated before later movements that took the shortage it finds may refuse one.
          expect([
            "422 inventory.insufficient_stock",
            "422 inventory.value_too_large",
            "422 purchase_invoice.nothing_to_post",
            "409 inventory.shortage_taken_later",
          ]).toContain(outcome);
          expect(await snapshot(w)).toEqual(before);
        }
      }
      await checkInvariants(w);
    }),
    { numRuns: 20, seed: Number(process.env.PROPERTY_SEED ?? 20261124), endOnFailure: true },
  );
}, 300_000);
