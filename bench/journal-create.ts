// Sustained ledger/journal/transactions/create through HTTP: balanced transactions of 2 to 4 lines, with a
// `journal` number series, the audit record and every check. Targets (issue 26): numbered >= 0.6 of the
// same-run raw-SQL anchor with p99 < 150 ms at 32 clients; unnumbered >= 0.25 of its anchor.
// Env: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 32), DATABASE_URL (else embedded PostgreSQL),
// BENCH_VIA_PGBOUNCER=1 (the API's pool through PgBouncer in transaction pooling), BENCH_ROUNDS (default 3): measured
// runs, alternately without and with the balances' triggers (ledger_balances_move and ledger_day_balances_move, issue
// 26) when BENCH_BALANCES_AB=1 — the same-run cost of keeping the balances, as the ratio of the medians
// (BENCH_BALANCES_AB=day: the day balances' trigger alone).
// Next to it, the database's own limit in the same run (issue 26): the raw-SQL anchor, BENCH_CONNECTIONS clients of
// node-postgres each writing the same postings as SQL — the series row's next number taken by UPDATE … RETURNING
// (gapless: held until COMMIT) when the HTTP runs number, the header, its lines, COMMIT — with every trigger and
// constraint in force; the target is the HTTP throughput at >= 0.6 of it numbered, >= 0.25 unnumbered.
// The embedded PostgreSQL runs on every CPU (benchDatabase everyCpu), like a server of its own: the database does most
// of this benchmark's work.
import autocannon from "autocannon";
import pg from "pg";
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
// BENCH_BALANCES_AB=day toggles only the day balances' trigger: what keeping them costs on top of the monthly ones.
const ab = process.env.BENCH_BALANCES_AB === "1" || process.env.BENCH_BALANCES_AB === "day";
const BALANCE_TRIGGERS = process.env.BENCH_BALANCES_AB === "day" ? ["ledger_day_balances_move"] : ["ledger_balances_move", "ledger_day_balances_move"];
const label = `ledger/journal/transactions/create: ${connections} connections, ${seconds} s, 2-4 lines each, ${withSeries ? "numbered from a journal series" : "no number series"}${bouncer ? ", through PgBouncer (transaction pooling)" : ""}`;
const results: { balances: boolean; rps: number; p50: number; p99: number; posted: number; failed: number }[] = [];
for (let r = 0; r < rounds * (ab ? 2 : 1); r++) {
  // A/B: even rounds without the balances' triggers (BALANCE_TRIGGERS), odd rounds with them.
  const balances = !ab || r % 2 === 1;
  for (const trigger of BALANCE_TRIGGERS) await db.raw(`alter table journal_entries ${balances ? "enable" : "disable"} trigger ${trigger}`);
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
for (const trigger of BALANCE_TRIGGERS) await db.raw(`alter table journal_entries enable trigger ${trigger}`);

/**
 * The raw-SQL anchor: postings/s of `connections` clients writing the rotation's postings for `duration` s, and each
 * posting's time from BEGIN to COMMIT's answer (its p50 and p99 next to the HTTP path's: numbered, the clients queue
 * for the series row, and so do the HTTP path's).
 */
async function rawAnchor(duration: number): Promise<{ rate: number; p50: number; p99: number }> {
  const [series] = withSeries ? await db("number_series").where({ company_id: account.companyId, document_type: "journal" }).select("id") : [undefined];
  const postings = bodies.map(
    (b) => JSON.parse(b) as { date: string; description: string; entries: { accountCode: string; debit?: string; credit?: string }[] },
  );
  const clients = await Promise.all(
    Array.from({ length: connections }, async () => {
      const client = new pg.Client({ connectionString: database.connectionString });
      await client.connect();
      return client;
    }),
  );
  let done = 0;
  let k = 0;
  const latencies: number[] = [];
  const until = Date.now() + duration * 1000;
  await Promise.all(
    clients.map(async (client) => {
      while (Date.now() < until) {
        const p = postings[k++ % postings.length];
        const total = p.entries.reduce((s, e) => s + Number(e.debit ?? 0), 0).toFixed(2);
        const started = performance.now();
        await client.query("begin");
        let number: string | null = null;
        if (series) {
          const { rows } = await client.query(
            "update number_series set next_number = next_number + 1 where company_id = $1 and id = $2 returning next_number - 1 as n",
            [account.companyId, series.id],
          );
          number = `RAW${rows[0].n}`;
        }
        const { rows: tx } = await client.query(
          `insert into journal_transactions (company_id, number, date, description, document_type, total, account_codes)
           values ($1, $2, $3, $4, 'manual', $5, $6) returning id`,
          [account.companyId, number, p.date, p.description, total, [...new Set(p.entries.map((e) => e.accountCode))]],
        );
        await client.query(
          `insert into journal_entries (company_id, transaction_id, line_no, date, account_code, debit, credit)
           select $1, $2, n, $3, a, d, c from unnest($4::text[], $5::numeric[], $6::numeric[]) with ordinality x(a, d, c, n)`,
          [
            account.companyId,
            tx[0].id,
            p.date,
            p.entries.map((e) => e.accountCode),
            p.entries.map((e) => e.debit ?? "0"),
            p.entries.map((e) => e.credit ?? "0"),
          ],
        );
        await client.query("commit");
        latencies.push(performance.now() - started);
        done++;
      }
    }),
  );
  await Promise.all(clients.map((c) => c.end()));
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? 0);
  return { rate: done / duration, p50: at(0.5), p99: at(0.99) };
}
const anchors: { rate: number; p50: number; p99: number }[] = [];
for (let r = 0; r < rounds; r++) anchors.push(await rawAnchor(seconds));
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
    `without ${BALANCE_TRIGGERS.join(" and ")}, same run: ${off.rps.toFixed(0)} transactions/s, p99 ${off.p99} ms; with/without ${(on.rps / off.rps).toFixed(3)} (target >= 0.9)`,
  );
}
const anchor = median(anchors.map((a) => a.rate));
console.log(
  `raw-SQL anchor, same run (${connections} clients, ${withSeries ? "numbered from the series row" : "unnumbered"}): ${anchors.map((a) => a.rate.toFixed(0)).join(", ")} postings/s, median ${anchor.toFixed(0)}, p50 ${median(anchors.map((a) => a.p50))} ms, p99 ${median(anchors.map((a) => a.p99))} ms (${anchors.map((a) => a.p99).join(", ")}); HTTP/anchor ${(on.rps / anchor).toFixed(2)} (target >= ${withSeries ? "0.6" : "0.25"})`,
);
console.log(`all entries balance: ${balance[0].d === balance[0].c} (${balance[0].d})`);
console.log(`targets (issue 26): HTTP/anchor >= ${withSeries ? "0.6" : "0.25"}${withSeries ? ", p99 < 150 ms at 32 clients" : ""}`);
if (results.some((r) => r.failed)) process.exitCode = 1;
