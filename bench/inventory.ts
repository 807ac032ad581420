// Inventory throughput and reading.
// 1. Issuing sales invoices whose product lines take stock FIFO across several layers, over HTTP on one company:
//    BENCH_CONNECTIONS clients each looping create -> issue for BENCH_SECONDS. Each invoice has 3 product lines of
//    items whose layers hold 1 unit each, so every line takes from 2-3 layers. Checks afterwards that every layer
//    stayed within 0..its quantity, that the stock account equals the layers' value and that every posting
//    balances. Same-run baseline: the same invoices with service lines only (no stock), through the same loop.
//    Target: >= 200 issued invoices/s.
// 1b. Stock write-offs (the operation writer's FIFO take, line by line) of the same shape: 3 lines of items whose layers
//    hold 1 unit each, BENCH_CONNECTIONS clients for BENCH_SECONDS, checked like 1. Same-run baseline: receipts of the
//    same 3 lines into another warehouse (the same operation writer and posting, no FIFO).
// 2. inventory/stock/levels over 100,000 items x 3 warehouses (300,000 balances, seeded in SQL as one migration
//    operation with its movements and layers), sequential requests: today (the balances as they are) and a past
//    date (balances less later movements). Same-run baseline: catalog/items/list over the same 100,000 items.
//    Target: p50 < 200 ms.
// Env: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 16), BENCH_ITEMS (default 100000), BENCH_REQUESTS
// (default 30 per case), BENCH_PARTS (issue, writeoff, levels, comma-separated; default all three), DATABASE_URL (else embedded PostgreSQL).
import { benchDatabase, benchTenant, startBenchApi, stopChild, closedLoop, jsonPoster } from "./lib.js";

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const itemCount = Number(process.env.BENCH_ITEMS ?? 100_000);
const requests = Number(process.env.BENCH_REQUESTS ?? 30);
const parts = (process.env.BENCH_PARTS ?? "issue,writeoff,levels").split(",");
const database = await benchDatabase({ everyCpu: true });
const { db } = database;
const account = await benchTenant(db);
const { child: api, url } = await startBenchApi(database.connectionString, { DB_POOL_MAX: "20", LOG_LEVEL: "warn" });
const headers = { authorization: `Bearer ${account.apiKey}`, "x-company-id": account.companyId, "content-type": "application/json" };
const call = jsonPoster(url, headers, connections);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

await call("/v1/ledger/accounts/apply-template", { template: "lt-standard" });
await call("/v1/partners/create", { name: "Pirkėjas UAB", code: "PIRKEJAS", vatCode: "LT119511515", registrationCode: "300000003", paymentTermDays: 14 });
await call("/v1/inventory/warehouses/create", { code: "W1", name: "Sandėlis 1" });
await call("/v1/inventory/warehouses/create", { code: "W2", name: "Sandėlis 2" });
await call("/v1/inventory/warehouses/create", { code: "W3", name: "Sandėlis 3" });

const loop = (duration: number, step: () => Promise<void>) => closedLoop(connections, duration, step);

if (parts.includes("issue")) {
  // ----- 1. issuing invoices that take stock across layers ---------------------------------------------------
  const PRODUCTS = 30;
  for (let p = 0; p < PRODUCTS; p++)
    await call("/v1/catalog/items/create", { code: `P${p}`, name: `Prekė ${p}`, type: "product", unit: "vnt.", vatRatePercent: "21", salePriceExclVat: "25" });
  for (let s = 0; s < 3; s++)
    await call("/v1/catalog/items/create", {
      code: `S${s}`,
      name: `Paslauga ${s}`,
      type: "service",
      unit: "val.",
      vatRatePercent: "21",
      salePriceExclVat: "25",
    });
  // Enough one-unit layers for every line of the run (an invoice takes 6.5 units, so 7-9 layers; up to 400
  // invoices/s), at costs that differ layer by layer (FIFO matters), in receipts of 500 lines.
  const layersPerItem = Number(process.env.BENCH_LAYERS_PER_ITEM ?? Math.ceil(((seconds + 2) * 400 * 6.5) / PRODUCTS));
  const allLines = Array.from({ length: layersPerItem * PRODUCTS }, (_, k) => ({
    itemCode: `P${k % PRODUCTS}`,
    quantity: "1",
    unitCost: `${10 + (k % 13)}.333333`,
  }));
  for (let start = 0; start < allLines.length; start += 500) {
    process.stdout.write(`\rreceiving layers ${start}/${allLines.length}`);
    await call("/v1/inventory/stock/receive", {
      warehouseCode: "W1",
      date: "2026-03-01",
      counterAccountCode: "4430",
      lines: allLines.slice(start, start + 500),
    });
  }
  console.log(`\rreceived ${layersPerItem} one-unit layers of each of ${PRODUCTS} items`);
  let next = 0;
  const productInvoice = () => {
    const n = next++;
    return {
      partnerCode: "PIRKEJAS",
      issueDate: "2026-03-10",
      lines: [0, 1, 2].map((k) => ({ itemCode: `P${(n * 3 + k) % PRODUCTS}`, quantity: k === 0 ? "2.5" : "2", warehouseCode: "W1" })),
    };
  };
  const serviceInvoice = {
    partnerCode: "PIRKEJAS",
    issueDate: "2026-03-10",
    lines: [0, 1, 2].map((k) => ({ itemCode: `S${k}`, quantity: k === 0 ? "2.5" : "2" })),
  };
  const issue = (body: () => unknown) => async () => {
    const draft = await call("/v1/sales/invoices/create", body());
    await call("/v1/sales/invoices/issue", { id: draft.id });
  };
  await loop(2, issue(productInvoice)); // warm-up
  await db.raw("analyze"); // steady state: the statistics of a database in use (see bench/invoices.ts)
  const baseline = await loop(
    seconds,
    issue(() => serviceInvoice),
  );
  const stocked = await loop(seconds, issue(productInvoice));
  const { rows: check } = await db.raw(
    `select (select count(*) from stock_layers where company_id = :c and (remaining_quantity < 0 or remaining_quantity > quantity))::int as bad_layers,
            (select coalesce(sum(remaining_value), 0) from stock_layers where company_id = :c)::text as layers_value,
            (select coalesce(sum(debit - credit), 0) from journal_entries where company_id = :c and account_code = '2040')::text as stock_account,
            (select count(*) from stock_consumptions where company_id = :c)::int as parts,
            (select count(*) from stock_movements where company_id = :c and direction = 'out')::int as issues,
            (select sum(debit)::text from journal_entries where company_id = :c) as d,
            (select sum(credit)::text from journal_entries where company_id = :c) as cr`,
    { c: account.companyId },
  );
  const r = check[0];
  const consistent = r.bad_layers === 0 && Number(r.layers_value) === Number(r.stock_account) && r.d === r.cr;
  console.log(`\nsales/invoices create + issue, 3 product lines each taking FIFO from one-unit layers, ${connections} clients, ${seconds} s`);
  console.log(
    `baseline: the same invoices with service lines (no stock): ${baseline.perSecond.toFixed(0)}/s   p50 ${baseline.p50.toFixed(1)} ms   p99 ${baseline.p99.toFixed(1)} ms`,
  );
  console.log(
    `with stock: ${stocked.perSecond.toFixed(0)} invoices/s   create+issue p50 ${stocked.p50.toFixed(1)} ms   p99 ${stocked.p99.toFixed(1)} ms   ratio to baseline ${(stocked.perSecond / baseline.perSecond).toFixed(2)}`,
  );
  console.log(
    `${r.issues} outgoing movements took ${r.parts} layer parts (${(r.parts / Math.max(1, r.issues)).toFixed(2)} layers per line); layers within bounds: ${r.bad_layers === 0}; stock account ${r.stock_account} = layers ${r.layers_value}: ${Number(r.layers_value) === Number(r.stock_account)}; postings balance: ${r.d === r.cr}`,
  );
  console.log("target: >= 200 issued invoices/s");
  if (!consistent) process.exitCode = 1;
}

/** Layers within bounds, the stock account equal to the layers' value, every posting balanced. */
async function stockConsistency() {
  const { rows } = await db.raw(
    `select (select count(*) from stock_layers where company_id = :c and (remaining_quantity < 0 or remaining_quantity > quantity))::int as bad_layers,
            (select coalesce(sum(remaining_value), 0) from stock_layers where company_id = :c)::text as layers_value,
            (select coalesce(sum(debit - credit), 0) from journal_entries where company_id = :c and account_code = '2040')::text as stock_account,
            (select sum(debit)::text from journal_entries where company_id = :c) as d,
            (select sum(credit)::text from journal_entries where company_id = :c) as cr`,
    { c: account.companyId },
  );
  const r = rows[0];
  return { ...r, consistent: r.bad_layers === 0 && Number(r.layers_value) === Number(r.stock_account) && r.d === r.cr };
}

if (parts.includes("writeoff")) {
  // ----- 1b. write-offs that take stock across layers (the operation writer's take) ------------------------------
  const ITEMS = 30;
  for (let p = 0; p < ITEMS; p++)
    await call("/v1/catalog/items/create", { code: `Q${p}`, name: `Nurašoma prekė ${p}`, type: "product", unit: "vnt.", vatRatePercent: "21" });
  // Enough one-unit layers in W1 for every write-off of the run (6.5 units each, up to 400/s), costs differing.
  const layersPerItem = Number(process.env.BENCH_LAYERS_PER_ITEM ?? Math.ceil(((seconds + 2) * 400 * 6.5) / ITEMS));
  const allLines = Array.from({ length: layersPerItem * ITEMS }, (_, k) => ({ itemCode: `Q${k % ITEMS}`, quantity: "1", unitCost: `${10 + (k % 13)}.333333` }));
  for (let start = 0; start < allLines.length; start += 500) {
    process.stdout.write(`\rreceiving layers ${start}/${allLines.length}`);
    await call("/v1/inventory/stock/receive", {
      warehouseCode: "W1",
      date: "2026-03-01",
      counterAccountCode: "4430",
      lines: allLines.slice(start, start + 500),
    });
  }
  console.log(`\rreceived ${layersPerItem} one-unit layers of each of ${ITEMS} items`);
  let next = 0;
  const lines = () => {
    const n = next++;
    return [0, 1, 2].map((k) => ({ itemCode: `Q${(n * 3 + k) % ITEMS}`, quantity: k === 0 ? "2.5" : "2" }));
  };
  const writeOff = async () => {
    await call("/v1/inventory/stock/write-off", { warehouseCode: "W1", date: "2026-03-10", lines: lines() });
  };
  const receipt = async () => {
    await call("/v1/inventory/stock/receive", {
      warehouseCode: "W2",
      date: "2026-03-10",
      counterAccountCode: "4430",
      lines: lines().map((l) => ({ ...l, unitCost: "10.333333" })),
    });
  };
  await loop(2, writeOff); // warm-up
  await db.raw("analyze");
  const baseline = await loop(seconds, receipt);
  const taken = await loop(seconds, writeOff);
  const r = await stockConsistency();
  console.log(`\ninventory/stock/write-off, 3 lines each taking FIFO from one-unit layers, ${connections} clients, ${seconds} s`);
  console.log(
    `baseline: receipts of the same 3 lines (no FIFO): ${baseline.perSecond.toFixed(0)}/s   p50 ${baseline.p50.toFixed(1)} ms   p99 ${baseline.p99.toFixed(1)} ms`,
  );
  console.log(
    `write-offs: ${taken.perSecond.toFixed(0)}/s   p50 ${taken.p50.toFixed(1)} ms   p99 ${taken.p99.toFixed(1)} ms   ratio to baseline ${(taken.perSecond / baseline.perSecond).toFixed(2)}`,
  );
  console.log(
    `layers within bounds: ${r.bad_layers === 0}; stock account ${r.stock_account} = layers ${r.layers_value}: ${Number(r.layers_value) === Number(r.stock_account)}; postings balance: ${r.d === r.cr}`,
  );
  if (!r.consistent) process.exitCode = 1;
}

if (parts.includes("levels")) {
  // ----- 2. levels over 100,000 items x 3 warehouses -----------------------------------------------------------
  const seedStarted = Date.now();
  const warehouses: { id: string; code: string }[] = await db("warehouses").where("company_id", account.companyId).orderBy("code").select("id", "code");
  await db.transaction(async (trx) => {
    const c = account.companyId;
    await trx.raw(
      `insert into catalog_items (company_id, code, name, type, unit, vat_rate_percent, vat_classifier, purchase_price_excl_vat)
       select ?, 'I' || lpad(g::text, 6, '0'), 'Prekė ' || g, 'product', 'vnt.', 21, 'PVM1', 1 + g % 97 from generate_series(1, ?) g`,
      [c, itemCount],
    );
    // Migration operations of 1000 lines each (line numbers are unique per operation, 1..1000).
    const slots = itemCount * warehouses.length;
    await trx.raw(
      `insert into stock_operations (company_id, id, kind, date, warehouse_id)
       select ?, md5('op-' || o)::uuid, 'migration', '2026-01-01', ? from generate_series(0, ? - 1) o`,
      [c, warehouses[0].id, Math.ceil(slots / 1000)],
    );
    // Per item and warehouse: one movement of 1..50 units at 1..97 EUR starting one layer, dated 2026-01-01 or
    // (one in seven) 2026-03-15, so that a level as of 2026-02-01 subtracts later movements.
    await trx.raw(
      `with src as (
         select k, w.id as warehouse_id, 'I' || lpad(g::text, 6, '0') as item_code, (1 + (g * 31 + w.n) % 50)::numeric as q, (1 + g % 97)::numeric as cost,
                case when (g + w.n) % 7 = 0 then date '2026-03-15' else date '2026-01-01' end as day, md5('mv-' || k)::uuid as movement_id
           from generate_series(1, :items) g cross join unnest(:ids::uuid[]) with ordinality as w (id, n),
                lateral (select (g - 1) * :wn + (w.n - 1) as k) kk
       ), mv as (
         insert into stock_movements (company_id, id, operation_id, line_no, direction, date, warehouse_id, item_code, quantity, value)
         select :c, movement_id, md5('op-' || (k / 1000))::uuid, 1 + k % 1000, 'in', day, warehouse_id, item_code, q, q * cost from src
         returning 1
       ), ly as (
         insert into stock_layers (company_id, movement_id, warehouse_id, item_code, date, quantity, remaining_quantity, unit_cost, value, remaining_value)
         select :c, movement_id, warehouse_id, item_code, day, q, q, cost, q * cost, q * cost from src
         returning 1
       )
       insert into stock_balances (company_id, item_code, warehouse_id, quantity, value)
       select :c, item_code, warehouse_id, q, q * cost from src`,
      { c, items: itemCount, ids: warehouses.map((w) => w.id), wn: warehouses.length },
    );
  });
  await db.raw("vacuum analyze catalog_items, stock_movements, stock_layers, stock_balances, warehouses");
  const balances = Number((await db("stock_balances").where("company_id", account.companyId).count({ n: "*" }))[0].n);
  console.log(
    `\nseeded ${itemCount} items x ${warehouses.length} warehouses = ${balances} balances with their movements and layers in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s, vacuum analyze`,
  );

  const cases: { name: string; path: string; body: unknown }[] = [
    { name: "baseline catalog/items/list, totals", path: "/v1/catalog/items/list", body: { totals: ["purchasePriceExclVat"] } },
    { name: "levels today, first page, totals", path: "/v1/inventory/stock/levels", body: { totals: ["quantity", "value"] } },
    {
      name: "levels today, one warehouse, totals",
      path: "/v1/inventory/stock/levels",
      body: { filter: [{ field: "warehouseCode", op: "eq", value: "W2" }], totals: ["quantity", "value"] },
    },
    { name: "levels today, page 1000 of 100", path: "/v1/inventory/stock/levels", body: { page: 1000, pageSize: 100 } },
    { name: "levels today, one item", path: "/v1/inventory/stock/levels", body: { filter: [{ field: "itemCode", op: "eq", value: "I054321" }] } },
    { name: "levels 2026-02-01 (later moves), totals", path: "/v1/inventory/stock/levels", body: { asOf: "2026-02-01", totals: ["quantity", "value"] } },
  ];
  console.log(`${requests} sequential requests per case, page of 50 unless said`);
  for (const c of cases) {
    const send = async () => {
      const started = performance.now();
      const body = await call(c.path, c.body);
      return { ms: performance.now() - started, total: body.total as number };
    };
    for (let i = 0; i < 3; i++) await send();
    const times: number[] = [];
    let matched = 0;
    for (let i = 0; i < requests; i++) {
      const r = await send();
      times.push(r.ms);
      matched = r.total;
    }
    times.sort((a, b) => a - b);
    console.log(
      `${c.name.padEnd(42)} rows ${String(matched).padStart(8)}   p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms   p99 ${percentile(times, 99).toFixed(1).padStart(7)} ms`,
    );
  }
  console.log("target: p50 < 200 ms");
}
await stopChild(api);
await database.close();
