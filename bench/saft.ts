// SAF-T (issue 27): a year of 1,000,000 journal entries — 100,000 sales postings of three lines naming one of 1,000
// customers (receivable, income, VAT) and 350,000 two-line postings — written as a GL file by the real worker process
// (`src/main.ts --worker-only`), in parts of SAFT_PART_SIZE (default 20,000) transactions. Seeded in SQL with every
// trigger and constraint in force, as the trial-balance benchmark does. Prints, per run, the time from the request to
// the file's ready (its `finished_at` less its `created_at`), the parts and bytes, and the worker's peak RSS; next to it,
// the same run's baseline: `COPY (the file's rows) TO STDOUT` through psql, the database's own time to hand out the
// journal lines the file carries. Targets: the file in < 60 s, the worker's peak RSS < 400 MB.
// Env: BENCH_RUNS (default 3), BENCH_ENTRIES (default 1,000,000), SAFT_PART_SIZE, DATABASE_URL (else embedded PostgreSQL).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { requestSaft } from "../src/declarations/index.js";
import { benchDatabase, benchLtChart, benchTenant, startChild, stopChild } from "./lib.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 1_000_000);
const SALES = Math.round(ENTRIES / 10); // three lines each
const OTHERS = Math.round((ENTRIES - SALES * 3) / 2); // two lines each
const BATCH = 50_000;
const database = await benchDatabase({ everyCpu: true });
const { db } = database;
const account = await benchTenant(db);
const c = account.companyId;
await benchLtChart(db, c);
await db("companies")
  .where({ id: c })
  .update({
    address: JSON.stringify({ line1: "Gedimino pr. 1", city: "Vilnius", postalCode: "LT-01103", countryCode: "LT" }),
    phone: "+370 600 00000",
    contact_person: JSON.stringify({ firstName: "Ona", lastName: "Onaitė" }),
  });
await db.raw(
  `insert into partners (company_id, code, name, address, vat_code)
   select ?, 'P' || g, 'Pirkėjas ' || g || ' UAB', jsonb_build_object('line1', 'Laisvės al. ' || g, 'city', 'Kaunas', 'postalCode', 'LT-44240', 'countryCode', 'LT'), null
     from generate_series(1, 1000) g`,
  [c],
);

const seedStarted = Date.now();
// Posting g (1..SALES+OTHERS) on a day of 2026: a sale (three lines, partner P(g % 1000 + 1)) while g <= SALES, else
// a two-line posting between the bank and an expense or income account.
for (let start = 1; start <= SALES + OTHERS; start += BATCH) {
  const end = Math.min(start + BATCH - 1, SALES + OTHERS);
  await db.transaction(async (trx) => {
    const params = { c, start, end, sales: SALES };
    const pick = `
      select g, md5('saft-' || g)::uuid as id, '2026-01-01'::date + (g * 7919 % 365)::int as day, g <= :sales::bigint as sale,
             'P' || (g % 1000 + 1) as partner, ((g * 104729 % 100000) + 100) / 100.0 as net,
             (array['6300', '6320', '5000', '2441'])[(g % 4 + 1)::int] as other
        from generate_series(:start::bigint, :end::bigint) g`;
    await trx.raw(
      `insert into journal_transactions (company_id, id, date, description, document_type, total, account_codes, partner_codes)
       select :c::uuid, id, day, case when sale then 'Pardavimas ' || g else 'Banko operacija ' || g end,
              case when sale then 'sale_invoice' else 'manual' end,
              case when sale then round(net * 1.21, 2) else net end,
              case when sale then array['2410', '5000', '4492'] else array['2710', other] end,
              case when sale then array[partner] else '{}' end
         from (${pick}) p`,
      params,
    );
    await trx.raw(
      `insert into journal_entries (company_id, transaction_id, line_no, date, account_code, debit, credit, partner_code)
       select :c::uuid, id, 1, day, '2410', round(net * 1.21, 2), 0, partner from (${pick}) p where sale
       union all select :c::uuid, id, 2, day, '5000', 0, net, partner from (${pick}) p where sale
       union all select :c::uuid, id, 3, day, '4492', 0, round(net * 1.21, 2) - net, null from (${pick}) p where sale
       union all select :c::uuid, id, 1, day, case when other in ('5000') then '2710' else other end, net, 0, null from (${pick}) p where not sale
       union all select :c::uuid, id, 2, day, case when other in ('5000') then other else '2710' end, 0, net, null from (${pick}) p where not sale`,
      params,
    );
  });
}
await db.raw("analyze");
const [{ n }] = await db("journal_entries").where({ company_id: c }).count({ n: "*" });
console.log(`seeded ${n} journal entries (${SALES} sales postings of 3 lines, ${OTHERS} of 2) in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s`);

const env = { LOG_LEVEL: "warn", ...(process.env.SAFT_PART_SIZE ? { SAFT_PART_SIZE: process.env.SAFT_PART_SIZE } : {}) };
const worker = await startChild(
  ["src/main.ts", "--worker-only"],
  { ...env, DATABASE_URL: database.connectionString },
  "0",
  async () => Number((await db("worker_registry").count({ n: "*" }))[0].n) > 0,
);
const memory = (field: "VmRSS" | "VmHWM") => {
  const line = readFileSync(`/proc/${worker.pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${field}:`));
  return line ? Number(line.replace(/\D+/g, "")) / 1024 : Number.NaN;
};
console.log(`worker RSS after start: ${memory("VmRSS").toFixed(0)} MiB`);

/** The baseline: the file's journal lines as COPY hands them out (psql to /dev/null), in ms. */
function copyBaseline(): number {
  const started = performance.now();
  const result = spawnSync(
    "psql",
    [
      database.connectionString,
      "-qAtc",
      `copy (select t.id, t.number, t.date, t.description, t.document_type, t.created_at, e.line_no, e.account_code, e.debit, e.credit, e.partner_code
               from journal_transactions t join journal_entries e on e.company_id = t.company_id and e.transaction_id = t.id
              where t.company_id = '${c}' and t.date between '2026-01-01' and '2026-12-31'
              order by t.document_type, t.date, t.created_at, t.id, e.line_no) to stdout`,
    ],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  if (result.status !== 0) throw new Error("psql copy failed");
  return performance.now() - started;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const times: number[] = [];
const baselines: number[] = [];
try {
  for (let run = 1; run <= RUNS; run++) {
    const { id } = await db.transaction((trx) => requestSaft(trx, c, account.keyId, { from: "2026-01-01", to: "2026-12-31", dataType: "GL" }));
    let row: Record<string, any> | undefined;
    for (const deadline = Date.now() + 600_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
      row = await db("saft_files").where({ company_id: c, id }).first();
      if (row?.status === "ready" || row?.status === "failed") break;
    }
    if (row?.status !== "ready") throw new Error(`run ${run}: the file is ${row?.status}: ${JSON.stringify(row?.error)}`);
    const ms = new Date(row.finished_at).getTime() - new Date(row.created_at).getTime();
    const [{ parts, bytes }] = (
      await db.raw("select count(*)::int as parts, sum(bytes)::bigint as bytes from saft_file_parts where company_id = ? and file_id = ?", [c, id])
    ).rows;
    const base = copyBaseline();
    times.push(ms);
    baselines.push(base);
    console.log(
      `run ${run}: ${row.rows_total} transactions in ${parts} parts, ${(Number(bytes) / 1e6).toFixed(1)} MB, ${ms} ms; COPY baseline ${base.toFixed(0)} ms; ratio ${(ms / base).toFixed(1)}; worker peak RSS ${memory("VmHWM").toFixed(0)} MiB`,
    );
    await db("saft_files").where({ company_id: c, id }).delete();
  }
  console.log(
    `median of ${RUNS}: ${median(times)} ms, COPY baseline ${median(baselines).toFixed(0)} ms, ratio ${(median(times) / median(baselines)).toFixed(1)}; worker peak RSS ${memory("VmHWM").toFixed(0)} MiB (targets < 60000 ms, < 400 MB)`,
  );
} finally {
  await stopChild(worker);
  await database.close();
}
