// reference/exchange-rates/list over 1,000,000 rate rows (seeded here): a filter plus `totals`, page 1 and a
// deep page, through the full HTTP stack. Prints p50/p99 of sequential requests. Target: p50 under 100 ms.
// Env: BENCH_REQUESTS (default 200 per case), DATABASE_URL (else embedded PostgreSQL).
import { benchDatabase, stopChild, benchTenant, startBenchApi } from "./lib.js";

const requests = Number(process.env.BENCH_REQUESTS ?? 200);
const database = await benchDatabase();
const { db } = database;

const seedStarted = Date.now();
// 150 currencies x every weekday 1999-01-04..2026-12-31 (7,304 days) = 1,095,600 ECB rows.
await db.raw(`
  insert into exchange_rates (currency_code, rate_date, rate)
  select code, day, round((0.5 + random() * 200)::numeric, 4)
    from (select chr(65 + i / 26 % 26) || chr(65 + i % 26) || 'X' as code from generate_series(0, 148) i
          union all select 'USD') codes,
         generate_series('1999-01-04'::date, '2026-12-31'::date, interval '1 day') day
   where extract(isodow from day) < 6`);
await db.raw("analyze exchange_rates");
const { rows: counted } = await db.raw<{ rows: { n: string }[] }>("select count(*) as n from exchange_rates");

const account = await benchTenant(db);
// Some company overrides, so the effective-rate union has work to do.
await db.raw(
  `insert into exchange_rate_overrides (company_id, currency_code, rate_date, rate, set_by_key_id)
   select ?, 'USD', day, 1.1, ? from generate_series('2024-01-01'::date, '2024-12-31'::date, interval '1 day') day`,
  [account.companyId, account.keyId],
);
await db.raw("analyze exchange_rate_overrides");
console.log(`seeded ${counted[0].n} ECB rate rows and 366 overrides in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s`);

const { child: api, url } = await startBenchApi(database.connectionString, { LOG_LEVEL: "warn" });

const cases: { name: string; body: Record<string, unknown> }[] = [
  {
    name: "USD, 2020 on, totals, page 1",
    body: {
      filter: [
        { field: "currencyCode", op: "eq", value: "USD" },
        { field: "date", op: "gte", value: "2020-01-01" },
      ],
      totals: ["rate"],
    },
  },
  {
    name: "USD, 2020 on, totals, page 35",
    body: {
      page: 35,
      filter: [
        { field: "currencyCode", op: "eq", value: "USD" },
        { field: "date", op: "gte", value: "2020-01-01" },
      ],
      totals: ["rate"],
    },
  },
  {
    name: "all currencies in 2024, totals, page 1",
    body: {
      filter: [
        { field: "date", op: "gte", value: "2024-01-01" },
        { field: "date", op: "lte", value: "2024-12-31" },
      ],
      totals: ["rate"],
    },
  },
  {
    name: "all currencies in 2024, totals, page 700",
    body: {
      page: 700,
      filter: [
        { field: "date", op: "gte", value: "2024-01-01" },
        { field: "date", op: "lte", value: "2024-12-31" },
      ],
      totals: ["rate"],
    },
  },
  {
    name: "3 currencies (in), by rate desc, page 1",
    body: { filter: [{ field: "currencyCode", op: "in", value: ["AAX", "ABX", "ACX"] }], sort: [{ field: "rate", dir: "desc" }], totals: ["rate"] },
  },
];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
console.log(`\nreference/exchange-rates/list, ${requests} sequential requests per case`);
for (const c of cases) {
  const send = async () => {
    const started = performance.now();
    const res = await fetch(`${url}/v1/reference/exchange-rates/list`, {
      method: "POST",
      headers: { authorization: `Bearer ${account.apiKey}`, "x-company-id": account.companyId, "content-type": "application/json" },
      body: JSON.stringify(c.body),
    });
    const body = (await res.json()) as { total: number; rows: unknown[] };
    if (res.status !== 200) throw new Error(`${c.name}: ${res.status} ${JSON.stringify(body)}`);
    return { ms: performance.now() - started, total: body.total, rows: body.rows.length };
  };
  for (let i = 0; i < 5; i++) await send(); // warm-up
  const times: number[] = [];
  let shape = { total: 0, rows: 0 };
  for (let i = 0; i < requests; i++) {
    const r = await send();
    times.push(r.ms);
    shape = r;
  }
  times.sort((a, b) => a - b);
  console.log(
    `${c.name.padEnd(42)} matching ${String(shape.total).padStart(7)}  rows ${String(shape.rows).padStart(3)}   p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms   p99 ${percentile(times, 99).toFixed(1).padStart(6)} ms`,
  );
}
console.log("target: p50 < 100 ms");
await stopChild(api);
await database.close();
