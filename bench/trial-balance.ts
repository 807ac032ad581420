// ledger/reports/trial-balance over 1,000,000 journal entries of one company (seeded here in SQL: 500,000 valid,
// balanced two-line transactions over 60 accounts, 2024-2026, with every trigger and constraint in force),
// for one-year ranges through the full HTTP stack. Prints p50/p99 of sequential requests. Target: p50 < 500 ms.
// Issue 26: the reports read whole months from ledger_balances (kept by the journal's trigger while seeding too), so
// besides the trial balance it measures the balance sheet, profit and loss and one account's general ledger for a
// month, and, in the same run, two SQL baselines: the balances table alone (every account's sums up to the range's
// end, straight from ledger_balances: the floor of a report) and the aggregate over the entries the reports ran
// before issue 26 (the same trial balance from journal_entries).
// Env: BENCH_REQUESTS (default 30 per case), BENCH_VACUUM=1 (VACUUM ANALYZE instead of ANALYZE after seeding,
// as autovacuum would eventually do), DATABASE_URL (else embedded PostgreSQL).
import { LT_STANDARD } from "../src/ledger/lt-standard.js";
import { benchDatabase, stopChild, benchTenant, startBenchApi, benchLtChart } from "./lib.js";

const requests = Number(process.env.BENCH_REQUESTS ?? 30);
// BENCH_ENTRIES (default 1,000,000; two per transaction) and BENCH_ACCOUNTS (default 60, at most the template's
// postable accounts) size the journal.
const TRANSACTIONS = Math.round(Number(process.env.BENCH_ENTRIES ?? 1_000_000) / 2);
const BATCH = 50_000;
const database = await benchDatabase();
const { db } = database;

const account = await benchTenant(db);
await benchLtChart(db, account.companyId);
const accounts = LT_STANDARD.filter((a) => a.isPostable)
  .slice(0, Number(process.env.BENCH_ACCOUNTS ?? 60))
  .map((a) => a.code);
const N = accounts.length;
// Codes of the template (letters and digits only), inlined as an array literal.
const accountArray = `array[${accounts.map((c) => `'${c}'`).join(",")}]`;

const seedStarted = Date.now();
// Transaction g: debit accounts[g % 60], credit another of the 60, an amount from 0.01 to 100.00, a day of
// 2024-01-01..2026-12-31 (1,096 days). Ids are derived from g so that the entries can name their header. Each batch
// is one database transaction: the entry trigger wants entries written in their header's transaction, and the
// deferred balance trigger checks every header at commit.
for (let start = 1; start <= TRANSACTIONS; start += BATCH) {
  const end = Math.min(start + BATCH - 1, TRANSACTIONS);
  await db.transaction(async (trx) => {
    const params = { companyId: account.companyId, start, end };
    const pick = `
      select g, md5('bench-' || g)::uuid as id, '2024-01-01'::date + (g * 7919 % 1096)::int as day,
             (${accountArray})[(g % ${N} + 1)::int] as debit_code,
             (${accountArray})[((g % ${N} + 1 + g / ${N} % ${N - 1}) % ${N} + 1)::int] as credit_code,
             ((g * 104729 % 10000) + 1) / 100.0 as amount
        from generate_series(:start::bigint, :end::bigint) g`;
    await trx.raw(
      `insert into journal_transactions (company_id, id, date, description, document_type, total, account_codes)
       select :companyId::uuid, id, day, 'Bench ' || g, 'manual', amount, array[debit_code, credit_code] from (${pick}) p`,
      params,
    );
    await trx.raw(
      `insert into journal_entries (company_id, transaction_id, line_no, date, account_code, debit, credit)
       select :companyId::uuid, id, 1, day, debit_code, amount, 0 from (${pick}) p
       union all
       select :companyId::uuid, id, 2, day, credit_code, 0, amount from (${pick}) p`,
      params,
    );
  });
}
// The whole database: the journal and, where it exists, ledger_balances.
await db.raw(process.env.BENCH_VACUUM ? "vacuum analyze" : "analyze");
const { rows: counted } = await db.raw<{ rows: { n: string; d: string; c: string }[] }>(
  "select count(*) as n, sum(debit)::text as d, sum(credit)::text as c from journal_entries where company_id = ?",
  [account.companyId],
);
console.log(
  `seeded ${counted[0].n} journal entries (debits ${counted[0].d} = credits ${counted[0].c}) in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s${process.env.BENCH_VACUUM ? ", vacuum analyze" : ", analyze"}`,
);

const { child: api, url } = await startBenchApi(database.connectionString, { LOG_LEVEL: "warn" });

const cases: { name: string; path: string; body: Record<string, string> }[] = [
  { name: "trial balance 2025 (opening 2024)", path: "trial-balance", body: { from: "2025-01-01", to: "2025-12-31" } },
  { name: "trial balance 2026 (opening 2024-25)", path: "trial-balance", body: { from: "2026-01-01", to: "2026-12-31" } },
  { name: "trial balance mid-month range", path: "trial-balance", body: { from: "2025-03-15", to: "2026-10-20" } },
  { name: "balance sheet 2026-06-15", path: "balance-sheet", body: { date: "2026-06-15" } },
  { name: "profit and loss 2026-01-01..06-15", path: "profit-and-loss", body: { from: "2026-01-01", to: "2026-06-15" } },
  { name: `general ledger ${accounts[0]} 2026-05`, path: "general-ledger", body: { accountCode: accounts[0], from: "2026-05-01", to: "2026-05-31" } },
];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const timed = async (send: () => Promise<number>) => {
  for (let i = 0; i < 3; i++) await send(); // warm-up
  const times: number[] = [];
  let size = 0;
  for (let i = 0; i < requests; i++) {
    const started = performance.now();
    size = await send();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), size };
};
const line = (name: string, r: { p50: number; p99: number; size: number }, unit: string) =>
  `${name.padEnd(40)} ${unit} ${String(r.size).padStart(4)}   p50 ${r.p50.toFixed(1).padStart(7)} ms   p99 ${r.p99.toFixed(1).padStart(7)} ms`;

console.log(`\nledger reports through HTTP, ${requests} sequential requests per case`);
const http: Record<string, number> = {};
for (const c of cases) {
  const r = await timed(async () => {
    const res = await fetch(`${url}/v1/ledger/reports/${c.path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${account.apiKey}`, "x-company-id": account.companyId, "content-type": "application/json" },
      body: JSON.stringify(c.body),
    });
    const body = (await res.json()) as { rows?: unknown[]; entries?: unknown[]; balanced?: boolean };
    if (res.status !== 200) throw new Error(`${c.name}: ${res.status} ${JSON.stringify(body)}`);
    if (body.balanced === false) throw new Error(`${c.name}: does not balance`);
    return (body.rows ?? body.entries ?? []).length;
  });
  http[c.name] = r.p50;
  console.log(line(c.name, r, c.path === "general-ledger" ? "lines   " : c.path === "trial-balance" ? "accounts" : "        "));
}

// Same-run SQL baselines on the bench's own connection (no HTTP).
const sql = (text: string, bindings: Record<string, string>) => timed(async () => (await db.raw<{ rows: unknown[] }>(text, bindings)).rows.length);
// Before issue 26 (this program run on an older tree) there is no balances table: that baseline is left out.
const hasBalances = (await db.raw<{ rows: { t: string | null }[] }>("select to_regclass('ledger_balances')::text as t")).rows[0].t !== null;
const floor = await sql(
  hasBalances
    ? `select account_code, sum(debit)::text, sum(credit)::text from ledger_balances where company_id = :companyId and month <= :to group by account_code`
    : "select :companyId::uuid, :to::date",
  { companyId: account.companyId, to: "2026-12-01" },
);
const old = await sql(
  `select account_code, coalesce(sum(debit - credit) filter (where date < :from), 0)::text, coalesce(sum(debit) filter (where date >= :from), 0)::text,
          coalesce(sum(credit) filter (where date >= :from), 0)::text
     from journal_entries where company_id = :companyId and date <= :to group by account_code`,
  { companyId: account.companyId, from: "2026-01-01", to: "2026-12-31" },
);
const { rows: size } = hasBalances
  ? await db.raw<{ rows: { n: string }[] }>("select count(*)::text as n from ledger_balances where company_id = ?", [account.companyId])
  : { rows: [{ n: "no table" }] };
console.log(`\nSQL, same run (ledger_balances: ${size[0].n} rows)`);
if (hasBalances) console.log(line("ledger_balances alone (to 2026-12)", floor, "accounts"));
console.log(line("entries aggregate (the report before #26)", old, "accounts"));
const tb = http["trial balance 2026 (opening 2024-25)"];
console.log(
  `${hasBalances ? `trial balance 2026 through HTTP / balances alone: ${(tb / floor.p50).toFixed(2)} (target < 5); ` : ""}entries aggregate / trial balance through HTTP: ${(old.p50 / tb).toFixed(2)}`,
);
console.log("target: p50 < 50 ms each (issue 26, at 10,000,000 entries); < 5x the balances alone");
await stopChild(api);
await database.close();
