// Sustained ledger/journal/transactions/create through HTTP: balanced transactions of 2 to 4 lines, with a
// `journal` number series, the audit record and every check. Target: >= 800 transactions/s, p99 < 100 ms.
// Env: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 32), DATABASE_URL (else embedded PostgreSQL),
// BENCH_VIA_PGBOUNCER=1 (the API's pool through PgBouncer in transaction pooling).
import autocannon from "autocannon";
import { startPgBouncer } from "./infra.js";
import { benchDatabase, stopChild, benchTenant, startBenchApi } from "./lib.js";

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const database = await benchDatabase();
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
const before = Number((await db("journal_transactions").where("company_id", account.companyId).count({ n: "*" }))[0].n);
const result = await run(seconds);
const after = Number((await db("journal_transactions").where("company_id", account.companyId).count({ n: "*" }))[0].n);
const { rows: balance } = await db.raw("select sum(debit)::text as d, sum(credit)::text as c from journal_entries where company_id = ?", [account.companyId]);
await stopChild(api);
await bouncer?.stop();
await database.close();

console.log(
  `\nledger/journal/transactions/create: ${connections} connections, ${seconds} s, 2-4 lines each, ${withSeries ? "numbered from a journal series" : "no number series"}${bouncer ? ", through PgBouncer (transaction pooling)" : ""}`,
);
console.log(
  `${result.requests.average.toFixed(0)} transactions/s   p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms   non-2xx ${result.non2xx}   errors ${result.errors}`,
);
console.log(`posted in the measured run: ${after - before}; all entries balance: ${balance[0].d === balance[0].c} (${balance[0].d})`);
console.log("target: >= 800 transactions/s, p99 < 100 ms");
if (result.non2xx || result.errors) process.exitCode = 1;
