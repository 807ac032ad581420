// assets/depreciation/post for a company of 50,000 fixed assets in 10 groups (seeded here in SQL), through the full
// HTTP stack: one request computes and records every asset's month, moves every card and posts one journal
// transaction. Three consecutive months are posted; each is timed, and so is, in the same run, a baseline: a raw
// INSERT ... SELECT of the same 50,000 rows (the month's amount per asset) into a table of the lines' shape without
// constraints or triggers. Prints each figure, the median and the ratio of the medians. Target: < 5 s per month.
// Env: BENCH_ASSETS (default 50000), DATABASE_URL (else embedded PostgreSQL).
import { benchDatabase, benchTenant, startBenchApi, stopChild, benchLtChart } from "./lib.js";

const ASSETS = Number(process.env.BENCH_ASSETS ?? 50_000);
const MONTHS = ["2026-01", "2026-02", "2026-03"];
const GROUPS = [
  ["BLD", "1210", "1217", 240],
  ["MACH", "1220", "1227", 96],
  ["VAN", "1230", "1237", 60],
  ["TOOL", "1240", "1247", 36],
  ["INV", "12510", "12517", 300],
  ["BLD2", "1210", "1217", 180],
  ["MACH2", "1220", "1227", 60],
  ["VAN2", "1230", "1237", 48],
  ["TOOL2", "1240", "1247", 24],
  ["PC", "1240", "1247", 36],
] as const;

const database = await benchDatabase({ everyCpu: true });
const { db } = database;
const account = await benchTenant(db);
await benchLtChart(db, account.companyId);
await db("asset_groups").insert(
  GROUPS.map(([code, asset, depreciation, life]) => ({
    company_id: account.companyId,
    code,
    name: code,
    asset_account_code: asset,
    depreciation_account_code: depreciation,
    expense_account_code: "6206",
    default_useful_life_months: life,
  })),
);
const seedStarted = Date.now();
// Asset g: a group by g % 10, a cost of 100.00 to 100,000.00 with odd cents, a salvage of a tenth for every third,
// a life of 1..120 months, acquired in 2025 and put into use in December 2025 (so every asset depreciates from 2026-01);
// every seventh imported with part of its life already depreciated.
await db.raw(
  `insert into fixed_assets (company_id, code, name, group_code, acquisition_date, put_into_use_date, depreciation_start_date,
                             acquisition_cost, salvage_value, useful_life_months, opening_accumulated_depreciation, opening_depreciated_months,
                             accumulated_depreciation, depreciated_months)
   select :companyId::uuid, 'FA-' || g, 'Asset ' || g, (:groups::text[])[g % 10 + 1], day, '2025-12-01'::date + (g % 31), '2026-01-01',
          cost, salvage, life, opening, opening_months, opening, opening_months
     from (select g, ('2025-01-01'::date + (g % 334)) as day, c.cost, c.salvage, c.life,
                  case when g % 7 = 0 then trunc((c.cost - c.salvage) * (c.life / 2) / c.life, 2) else 0 end as opening,
                  case when g % 7 = 0 then c.life / 2 else 0 end as opening_months
             from generate_series(1, :n::int) g,
                  lateral (select ((g * 7919) % 9990001 + 10000) / 100.0 as cost) k,
                  lateral (select k.cost, case when g % 3 = 0 then trunc(k.cost / 10, 2) else 0 end as salvage, 1 + (g * 31) % 120 as life) c) s`,
  { companyId: account.companyId, groups: GROUPS.map(([code]) => code), n: ASSETS },
);
await db.raw("analyze fixed_assets, asset_groups");
console.log(`seeded ${ASSETS} fixed assets in ${GROUPS.length} groups in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s`);

// The baseline: the same rows a month writes, as one raw INSERT ... SELECT into a table of the lines' shape.
await db.raw("create table bench_depreciation_lines (like asset_depreciation_lines)");
async function baseline(month: string): Promise<number> {
  const started = performance.now();
  const { rowCount } = await db.raw(
    `insert into bench_depreciation_lines (company_id, asset_id, month, run_no, group_code, expense_account_code, depreciation_account_code, amount, accumulated_after, depreciated_months_after)
     select a.company_id, a.id, :month::date, 1, a.group_code, '6206', '1237',
            trunc((a.acquisition_cost - a.salvage_value - a.accumulated_depreciation) / greatest(a.useful_life_months - a.depreciated_months, 1), 2),
            a.accumulated_depreciation, a.depreciated_months + 1
       from fixed_assets a where a.company_id = :companyId::uuid`,
    { month: `${month}-01`, companyId: account.companyId },
  );
  if (rowCount !== ASSETS) throw new Error(`baseline wrote ${rowCount} rows`);
  return performance.now() - started;
}

const { child: api, url } = await startBenchApi(database.connectionString, { LOG_LEVEL: "warn" });
const post = async (month: string) => {
  const started = performance.now();
  const res = await fetch(`${url}/v1/assets/depreciation/post`, {
    method: "POST",
    headers: { authorization: `Bearer ${account.apiKey}`, "x-company-id": account.companyId, "content-type": "application/json" },
    body: JSON.stringify({ month }),
  });
  const body = (await res.json()) as { assetCount: number; total: string; journalTransactionId: string };
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`${month}: ${res.status} ${JSON.stringify(body)}`);
  return { ms, body };
};

try {
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const posted: number[] = [];
  const baselines: number[] = [];
  console.log(`\nassets/depreciation/post, ${ASSETS} assets, one request per month`);
  for (const month of MONTHS) {
    const base = await baseline(month);
    const { ms, body } = await post(month);
    // What was posted agrees with the rows: one line per asset, their sum is the journal transaction's total.
    const [check] = (
      await db.raw(
        `select count(*)::int as n, sum(l.amount)::text as lines, (select total::text from journal_transactions t where t.company_id = :c and t.id = :tx) as journal
           from asset_depreciation_lines l where l.company_id = :c and l.month = :m::date`,
        { c: account.companyId, tx: body.journalTransactionId, m: `${month}-01` },
      )
    ).rows;
    if (check.n !== body.assetCount || check.lines !== check.journal || check.journal !== body.total)
      throw new Error(`${month}: rows and journal disagree ${JSON.stringify({ check, body })}`);
    posted.push(ms);
    baselines.push(base);
    console.log(
      `${month}   assets ${String(body.assetCount).padStart(6)}   total ${body.total.padStart(14)}   post ${ms.toFixed(0).padStart(6)} ms   baseline INSERT ... SELECT ${base.toFixed(0).padStart(5)} ms   ratio ${(ms / base).toFixed(1)}`,
    );
  }
  console.log(
    `median of ${MONTHS.length}: post ${median(posted).toFixed(0)} ms, baseline ${median(baselines).toFixed(0)} ms, ratio ${(median(posted) / median(baselines)).toFixed(1)}`,
  );
  console.log("target: < 5000 ms per month");
} finally {
  await stopChild(api);
  await database.close();
}
