// partners/balances and partners/statement (issue 26) over 1,000,000 journal entries of one company and 2,000 partners
// (seeded here in SQL with every trigger in force, so ledger_balances is kept as a posting keeps it): 500,000 two-line
// transactions over 2024-2026, each naming one partner on a partner account — a sale (2410 / 5000), a customer's
// payment (2710 / 2410), a purchase (6312 / 4430) or a payment to a supplier (4430 / 2710). Through the full HTTP
// stack: every partner's balances on a mid-month day (page 1 with totals, and sorted and filtered on the balance),
// one partner's balances, and one partner's statement over a mid-month range of 15 months and over one month.
// Same-run SQL baselines: the partners' sums from ledger_balances alone (the floor), and the straight aggregate over
// the entries that the operations would be without the balances.
// Env: BENCH_REQUESTS (default 30 per case), BENCH_ENTRIES (default 1,000,000), BENCH_PARTNERS (default 2,000),
// DATABASE_URL (else embedded PostgreSQL).
import { benchDatabase, benchTenant, startBenchApi, stopChild, benchLtChart } from "./lib.js";

const requests = Number(process.env.BENCH_REQUESTS ?? 30);
const TRANSACTIONS = Math.round(Number(process.env.BENCH_ENTRIES ?? 1_000_000) / 2);
const PARTNERS = Number(process.env.BENCH_PARTNERS ?? 2_000);
const BATCH = 50_000;
const database = await benchDatabase();
const { db } = database;

const account = await benchTenant(db);
await benchLtChart(db, account.companyId);
await db.raw(
  `insert into partners (company_id, code, name, is_customer, is_supplier)
   select ?::uuid, 'P' || lpad(p::text, 5, '0'), 'Partneris ' || p, true, p % 2 = 0 from generate_series(0, ? - 1) p`,
  [account.companyId, PARTNERS],
);

const seedStarted = Date.now();
// Transaction g: kind g % 4, partner g * 7919 % PARTNERS, a day of 2024-01-01..2026-12-31, 0.01 to 100.00.
for (let start = 1; start <= TRANSACTIONS; start += BATCH) {
  const end = Math.min(start + BATCH - 1, TRANSACTIONS);
  await db.transaction(async (trx) => {
    const params = { companyId: account.companyId, start, end, partners: PARTNERS };
    const pick = `
      select g, md5('pbal-' || g)::uuid as id, '2024-01-01'::date + (g * 7919 % 1096)::int as day,
             'P' || lpad((g * 7919 % :partners)::text, 5, '0') as partner,
             (array['2410', '2710', '6312', '4430'])[(g % 4 + 1)::int] as debit_code,
             (array['5000', '2410', '4430', '2710'])[(g % 4 + 1)::int] as credit_code,
             ((g * 104729 % 10000) + 1) / 100.0 as amount
        from generate_series(:start::bigint, :end::bigint) g`;
    await trx.raw(
      `insert into journal_transactions (company_id, id, date, description, document_type, total, account_codes, partner_codes)
       select :companyId::uuid, id, day, 'Bench ' || g, 'manual', amount, array[debit_code, credit_code], array[partner] from (${pick}) p`,
      params,
    );
    await trx.raw(
      `insert into journal_entries (company_id, transaction_id, line_no, date, account_code, debit, credit, partner_code)
       select :companyId::uuid, id, 1, day, debit_code, amount, 0, case when debit_code in ('2410', '4430') then partner end from (${pick}) p
       union all
       select :companyId::uuid, id, 2, day, credit_code, 0, amount, case when credit_code in ('2410', '4430') then partner end from (${pick}) p`,
      params,
    );
  });
}
await db.raw("analyze");
const { rows: counted } = await db.raw<{ rows: { n: string; p: string }[] }>(
  "select count(*) as n, count(partner_code) as p from journal_entries where company_id = ?",
  [account.companyId],
);
const { rows: balanceRows } = await db.raw<{ rows: { n: string }[] }>("select count(*)::text as n from ledger_balances where company_id = ?", [
  account.companyId,
]);
console.log(
  `seeded ${counted[0].n} journal entries (${counted[0].p} naming one of ${PARTNERS} partners; ledger_balances ${balanceRows[0].n} rows) in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s`,
);

const { child: api, url } = await startBenchApi(database.connectionString, { LOG_LEVEL: "warn" });
const one = (await db("partners").where({ company_id: account.companyId, code: "P00042" }).first("id")).id as string;

const cases: { name: string; path: string; body: Record<string, unknown> }[] = [
  {
    name: "balances 2026-06-15, page 1, totals",
    path: "balances",
    body: { asOf: "2026-06-15", totals: ["receivable", "payable", "balance"] },
  },
  {
    name: "balances 2026-06-15, balance >= 100, desc",
    path: "balances",
    body: { asOf: "2026-06-15", filter: [{ field: "balance", op: "gte", value: "100" }], sort: [{ field: "balance", dir: "desc" }] },
  },
  { name: "balances 2026-06-15, one partner", path: "balances", body: { asOf: "2026-06-15", partnerIds: [one] } },
  { name: "statement 2025-03-15..2026-06-15", path: "statement", body: { partnerId: one, from: "2025-03-15", to: "2026-06-15" } },
  { name: "statement 2026-05", path: "statement", body: { partnerId: one, from: "2026-05-01", to: "2026-05-31" } },
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
const line = (name: string, r: { p50: number; p99: number; size: number }) =>
  `${name.padEnd(44)} rows ${String(r.size).padStart(4)}   p50 ${r.p50.toFixed(1).padStart(7)} ms   p99 ${r.p99.toFixed(1).padStart(7)} ms`;

console.log(`\npartners/balances and partners/statement through HTTP, ${requests} sequential requests per case`);
const http: Record<string, number> = {};
for (const c of cases) {
  const r = await timed(async () => {
    const res = await fetch(`${url}/v1/partners/${c.path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${account.apiKey}`, "x-company-id": account.companyId, "content-type": "application/json" },
      body: JSON.stringify(c.body),
    });
    const body = (await res.json()) as { rows?: unknown[]; lines?: unknown[] };
    if (res.status !== 200) throw new Error(`${c.name}: ${res.status} ${JSON.stringify(body)}`);
    return (body.rows ?? body.lines ?? []).length;
  });
  http[c.name] = r.p50;
  console.log(line(c.name, r));
}

// Same-run SQL baselines on the bench's own connection (no HTTP).
const sql = (text: string, bindings: Record<string, string>) => timed(async () => (await db.raw<{ rows: unknown[] }>(text, bindings)).rows.length);
const floor = await sql(
  `select partner_code, sum(debit - credit)::text from ledger_balances where company_id = :companyId and partner_code is not null and month <= :month group by partner_code`,
  { companyId: account.companyId, month: "2026-06-01" },
);
const entries = await sql(
  `select e.partner_code, coalesce(sum(e.debit - e.credit) filter (where a.type = 'asset'), 0)::text,
          coalesce(sum(e.credit - e.debit) filter (where a.type = 'liability'), 0)::text
     from journal_entries e join ledger_accounts a on a.company_id = e.company_id and a.code = e.account_code
    where e.company_id = :companyId and e.partner_code is not null and e.date <= :to group by e.partner_code`,
  { companyId: account.companyId, to: "2026-06-15" },
);
const oneEntries = await sql(
  `select sum(debit - credit)::text from journal_entries where company_id = :companyId and partner_code = 'P00042' and date < :from`,
  { companyId: account.companyId, from: "2025-03-15" },
);
console.log("\nSQL, same run");
console.log(line("ledger_balances alone, every partner", floor));
console.log(line("entries aggregate, every partner", entries));
console.log(line("entries aggregate, one partner's opening", oneEntries));
const all = http["balances 2026-06-15, page 1, totals"];
console.log(
  `balances through HTTP / ledger_balances alone: ${(all / floor.p50).toFixed(2)}; entries aggregate / balances through HTTP: ${(entries.p50 / all).toFixed(2)}`,
);
await stopChild(api);
await database.close();
