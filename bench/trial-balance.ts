// ledger/reports/trial-balance over 1,000,000 journal entries of one company (seeded here in SQL: 500,000 valid,
// balanced two-line transactions over 60 accounts, 2024-2026, with every trigger and constraint in force),
// for one-year ranges through the full HTTP stack. Prints p50/p99 of sequential requests. Target: p50 < 500 ms.
// Env: BENCH_REQUESTS (default 30 per case), BENCH_VACUUM=1 (VACUUM ANALYZE instead of ANALYZE after seeding,
// as autovacuum would eventually do), DATABASE_URL (else embedded PostgreSQL).
import { LT_STANDARD } from "../src/ledger/lt-standard.js";
import { benchDatabase, stopChild, benchTenant, startBenchApi } from "./lib.js";

const requests = Number(process.env.BENCH_REQUESTS ?? 30);
const TRANSACTIONS = 500_000;
const BATCH = 50_000;
const database = await benchDatabase();
const { db } = database;

const account = await benchTenant(db);
await db("ledger_accounts").insert(
  LT_STANDARD.map((a) => ({
    company_id: account.companyId,
    code: a.code,
    name: a.name,
    name_en: a.nameEn,
    type: a.type,
    parent_code: a.parentCode,
    is_postable: a.isPostable,
  })),
);
const accounts = LT_STANDARD.filter((a) => a.isPostable)
  .slice(0, 60)
  .map((a) => a.code);
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
             (${accountArray})[(g % 60 + 1)::int] as debit_code,
             (${accountArray})[((g % 60 + 1 + g / 60 % 59) % 60 + 1)::int] as credit_code,
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
await db.raw(process.env.BENCH_VACUUM ? "vacuum analyze journal_entries, journal_transactions" : "analyze journal_entries, journal_transactions");
const { rows: counted } = await db.raw<{ rows: { n: string; d: string; c: string }[] }>(
  "select count(*) as n, sum(debit)::text as d, sum(credit)::text as c from journal_entries where company_id = ?",
  [account.companyId],
);
console.log(
  `seeded ${counted[0].n} journal entries (debits ${counted[0].d} = credits ${counted[0].c}) in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s${process.env.BENCH_VACUUM ? ", vacuum analyze" : ", analyze"}`,
);

const { child: api, url } = await startBenchApi(database.connectionString, { LOG_LEVEL: "warn" });

const cases = [
  { name: "2025 (opening from 2024)", body: { from: "2025-01-01", to: "2025-12-31" } },
  { name: "2026 (opening from 2024-2025)", body: { from: "2026-01-01", to: "2026-12-31" } },
];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
console.log(`\nledger/reports/trial-balance, ${requests} sequential requests per case`);
for (const c of cases) {
  const send = async () => {
    const started = performance.now();
    const res = await fetch(`${url}/v1/ledger/reports/trial-balance`, {
      method: "POST",
      headers: { authorization: `Bearer ${account.apiKey}`, "x-company-id": account.companyId, "content-type": "application/json" },
      body: JSON.stringify(c.body),
    });
    const body = (await res.json()) as { rows: unknown[]; balanced: boolean };
    if (res.status !== 200) throw new Error(`${c.name}: ${res.status} ${JSON.stringify(body)}`);
    if (!body.balanced) throw new Error(`${c.name}: the trial balance does not balance`);
    return { ms: performance.now() - started, rows: body.rows.length };
  };
  for (let i = 0; i < 3; i++) await send(); // warm-up
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < requests; i++) {
    const r = await send();
    times.push(r.ms);
    rows = r.rows;
  }
  times.sort((a, b) => a - b);
  console.log(
    `${c.name.padEnd(32)} accounts ${String(rows).padStart(3)}   p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms   p99 ${percentile(times, 99).toFixed(1).padStart(7)} ms`,
  );
}
console.log("target: p50 < 500 ms");
await stopChild(api);
await database.close();
