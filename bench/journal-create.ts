// Sustained ledger/journal/transactions/create through HTTP: balanced transactions of 2 to 4 lines, with a
// `journal` number series, the audit record and every check. Target: >= 800 transactions/s, p99 < 100 ms.
// Env: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 32), DATABASE_URL (else embedded PostgreSQL),
// BENCH_VIA_PGBOUNCER=1 (the API's pool through PgBouncer in transaction pooling), BENCH_ROUNDS (default 3): measured
// runs, alternately without and with the balances' trigger (ledger_balances_move, issue 26) when BENCH_BALANCES_AB=1 —
// the same-run cost of keeping the balances, as the ratio of the medians.
// The embedded PostgreSQL runs on every CPU (benchDatabase everyCpu), like a server of its own: the database does most
// of this benchmark's work.
import autocannon from "autocannon";
import { startPgBouncer } from "./infra.js";
import { benchDatabase, stopChild, benchTenant, startBenchApi } from "./lib.js";

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const database = await benchDatabase({ everyCpu: true });
const { db } = database;
const account = await benchTenant(db);

const bouncer = process.env.BENCH_VIA_PGBOUNCER === "1" ? await startPgBouncer(database.connectionString, { poolSize: 20 }) : undefined;
const { child: api, url } = await startBenchApi(bouncer?.url ?? database.connectionString, {
  DB_POOL_MAX: process.env.BENCH_POOL ?? "20",
  ...(bouncer ? { DIRECT_DATABASE_URL: database.connectionString } : {}),
});
const headers = { authorization: `Bearer ${account.apiKey}`, "x-company-id": account.companyId, "content-type": "application/json" };
const call = (path: string, body: unknown) => fetch(url + path, { method: "POST", headers, body: JSON.stringify(body) });
await call("/v1/ledger/accounts/apply-template", { template: "lt-standard" });
// With a series every posting takes its next number (gapless: one row lock held until commit); BENCH_SERIES=0
// measures without one (numbers stay null).
const withSeries = process.env.BENCH_SERIES !== "0";
if (withSeries) await call("/v1/reference/series/create", { documentType: "journal", prefix: "BZ", year: 2026 });

// A rotation of realistic bodies: 2, 3 and 4 lines over common accounts.
const bodies = [
  {
    date: "2026-03-02",
    description: "Pardavimas",
    entries: [
      { accountCode: "2410", debit: "121.00" },
      { accountCode: "5000", credit: "100.00" },
      { accountCode: "4492", credit: "21.00" },
    ],
  },
  {
    date: "2026-03-03",
    description: "Apmokėjimas",
    entries: [
      { accountCode: "2710", debit: "121.00" },
      { accountCode: "2410", credit: "121.00" },
    ],
  },
  {
    date: "2026-03-04",
    description: "Pirkimas",
    entries: [
      { accountCode: "2040", debit: "80.00" },
      { accountCode: "2441", debit: "16.80" },
      { accountCode: "4430", credit: "96.80" },
    ],
  },
  {
    date: "2026-03-05",
    description: "Sąnaudos",
    entries: [
      { accountCode: "6300", debit: "500.00" },
      { accountCode: "6320", debit: "75.25" },
      { accountCode: "2441", debit: "120.80" },
      { accountCode: "4430", credit: "696.05" },
    ],
  },
].map((b) => JSON.stringify(b));
for (const body of bodies) {
  const res = await fetch(`${url}/v1/ledger/journal/transactions/create`, { method: "POST", headers, body });
  if (res.status !== 200) throw new Error(`journal create answered ${res.status}: ${await res.text()}`);
}

let i = 0;
const run = (duration: number) =>
  autocannon({
    url: `${url}/v1/ledger/journal/transactions/create`,
    method: "POST",
    headers,
    connections,
    duration,
    requests: [{ setupRequest: (req) => ({ ...req, body: bodies[i++ % bodies.length] }) }],
  });
await run(2); // warm-up
const count = async () => Number((await db("journal_transactions").where("company_id", account.companyId).count({ n: "*" }))[0].n);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const ab = process.env.BENCH_BALANCES_AB === "1";
const label = `ledger/journal/transactions/create: ${connections} connections, ${seconds} s, 2-4 lines each, ${withSeries ? "numbered from a journal series" : "no number series"}${bouncer ? ", through PgBouncer (transaction pooling)" : ""}`;
const results: { balances: boolean; rps: number; p50: number; p99: number; posted: number; failed: number }[] = [];
for (let r = 0; r < rounds * (ab ? 2 : 1); r++) {
  // A/B: even rounds without the balances' trigger (the write path before issue 26), odd rounds with it.
  const balances = !ab || r % 2 === 1;
  await db.raw(`alter table journal_entries ${balances ? "enable" : "disable"} trigger ledger_balances_move`);
  const before = await count();
  const result = await run(seconds);
  results.push({
    balances,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    posted: (await count()) - before,
    failed: result.non2xx + result.errors,
  });
}
await db.raw("alter table journal_entries enable trigger ledger_balances_move");
const { rows: balance } = await db.raw("select sum(debit)::text as d, sum(credit)::text as c from journal_entries where company_id = ?", [account.companyId]);
await stopChild(api);
await bouncer?.stop();
await database.close();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`\n${label}`);
for (const r of results)
  console.log(
    `${ab ? (r.balances ? "with balances     " : "without balances  ") : ""}${r.rps.toFixed(0)} transactions/s   p50 ${r.p50} ms   p99 ${r.p99} ms   posted ${r.posted}   failed ${r.failed}`,
  );
const summary = (withBalances: boolean) => {
  const rs = results.filter((r) => r.balances === withBalances);
  return { rps: median(rs.map((r) => r.rps)), p99: median(rs.map((r) => r.p99)) };
};
const on = summary(true);
console.log(`median of ${rounds}: ${on.rps.toFixed(0)} transactions/s, p99 ${on.p99} ms`);
if (ab) {
  const off = summary(false);
  console.log(
    `without the balances' trigger, same run: ${off.rps.toFixed(0)} transactions/s, p99 ${off.p99} ms; with/without ${(on.rps / off.rps).toFixed(3)} (target >= 0.9)`,
  );
}
console.log(`all entries balance: ${balance[0].d === balance[0].c} (${balance[0].d})`);
console.log("target: >= 800 transactions/s, p99 < 100 ms");
if (results.some((r) => r.failed)) process.exitCode = 1;
