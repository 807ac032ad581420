// SAF-T (issue 27): a year of 1,000,000 journal entries — 100,000 sales invoices, each issued with one line and posted
// in three lines naming one of 1,000 customers (receivable, income, VAT), and 350,000 two-line postings — written as
// the whole file (`F`: the general ledger and the sales invoices; BENCH_DATA_TYPE=GL for the ledger alone) by the real
// worker process (`src/main.ts --worker-only`), in parts of SAFT_PART_SIZE (default 20,000) transactions or documents.
// Seeded in SQL with every trigger and constraint in force, as the trial-balance benchmark does: the invoices are
// inserted as drafts with their lines and then issued, so the database stores what each declares (vat_declared_rows)
// as an issue does. Prints, per run, the time from the request to the file's ready (its `finished_at` less its
// `created_at`), the parts and bytes, and the worker's peak RSS; next to it, the same run's baseline: `COPY (the file's
// rows) TO STDOUT` through psql — the journal lines, and for `F` the invoices' lines with what they declare — the
// database's own time to hand out the rows the file carries. Targets: the file in < 60 s, the worker's peak RSS < 400 MB.
// Env: BENCH_RUNS (default 3), BENCH_ENTRIES (default 1,000,000), BENCH_DATA_TYPE (F or GL, default F),
// SAFT_PART_SIZE, DATABASE_URL (else embedded PostgreSQL).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { requestSaft } from "../src/declarations/index.js";
import { benchDatabase, benchLtChart, benchTenant, startChild, stopChild } from "./lib.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 1_000_000);
const SALES = Math.round(ENTRIES / 10); // three lines each
const OTHERS = Math.round((ENTRIES - SALES * 3) / 2); // two lines each
const BATCH = 50_000;
const DATA_TYPE = (process.env.BENCH_DATA_TYPE ?? "F") as "F" | "GL";
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

const [series] = await db("number_series")
  .insert({ company_id: c, document_type: "sale_invoice", prefix: "SF", year: 2026, next_number: SALES + 1 })
  .returning("id");

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
    // Sale g's invoice (id md5('inv-' || g)): a draft with its line, then issued with its posting (as an issue does).
    const invoice = { ...params, series: series.id };
    await trx.raw(
      `insert into sale_invoices (company_id, id, type, status, series_prefix, partner_code, issue_date, due_date, currency, net_total, vat_total, gross_total)
       select :c::uuid, md5('inv-' || g)::uuid, 'invoice', 'draft', 'SF', partner, day, day + 14, 'EUR', net, round(net * 1.21, 2) - net, round(net * 1.21, 2)
         from (${pick}) p where sale`,
      invoice,
    );
    await trx.raw(
      `insert into sale_invoice_lines (company_id, invoice_id, line_no, description, quantity, unit, unit_price, vat_rate_percent, vat_classifier, revenue_account_code, net_amount)
       select :c::uuid, md5('inv-' || g)::uuid, 1, 'Paslauga ' || g, 1, 'vnt.', net, 21, 'PVM1', '5000', net from (${pick}) p where sale`,
      invoice,
    );
    // Fresh statistics: without them the planner takes the new drafts for a handful and joins them row by row.
    await trx.raw("analyze sale_invoices");
    await trx.raw(
      `update sale_invoices s
          set status = 'issued', series_id = :series::uuid, sequence = p.g, number = 'SF-' || p.g, rate = 1, rate_source = 'base', rate_date = p.day,
              partner_snapshot = jsonb_build_object('code', p.partner, 'name', 'Pirkėjas ' || p.partner || ' UAB', 'vatCode', null, 'registrationCode', null,
                                                    'countryCode', 'LT', 'address', null, 'isPrivatePerson', false),
              gross_total_base = round(p.net * 1.21, 2), outstanding = round(p.net * 1.21, 2), journal_transaction_id = p.id, issued_at = now(),
              vat_breakdown = jsonb_build_array(jsonb_build_object('vatClassifier', 'PVM1', 'vatRatePercent', '21.00', 'taxableAmount', p.net::numeric(17,2)::text,
                                                                   'vatAmount', (round(p.net * 1.21, 2) - p.net)::numeric(17,2)::text))
         from (${pick}) p
        where p.sale and s.company_id = :c::uuid and s.id = md5('inv-' || p.g)::uuid`,
      invoice,
    );
  });
}
await db.raw("analyze");
const [{ n }] = await db("journal_entries").where({ company_id: c }).count({ n: "*" });
const [{ declared }] = (await db.raw("select count(*)::int as declared from vat_declared_rows where company_id = ?", [c])).rows;
console.log(
  `seeded ${n} journal entries (${SALES} sales invoices posted in 3 lines, ${OTHERS} postings of 2; ${declared} declared VAT rows) in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s`,
);

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

/** The baseline: the file's rows as COPY hands them out (psql to /dev/null), in ms. */
function copyBaseline(): number {
  const copies = [
    `copy (select t.id, t.number, t.date, t.description, t.document_type, t.created_at, e.line_no, e.account_code, e.debit, e.credit, e.partner_code
             from journal_transactions t join journal_entries e on e.company_id = t.company_id and e.transaction_id = t.id
            where t.company_id = '${c}' and t.date between '2026-01-01' and '2026-12-31'
            order by t.document_type, t.date, t.created_at, t.id, e.line_no) to stdout`,
  ];
  if (DATA_TYPE === "F") {
    copies.push(
      `copy (select s.id, s.number, s.issue_date, s.partner_snapshot, l.line_no, l.description, l.quantity, l.unit_price, l.net_amount, v.classifier, v.base, v.vat
               from sale_invoices s join sale_invoice_lines l on l.company_id = s.company_id and l.invoice_id = s.id
               join vat_declared_rows v on v.company_id = s.company_id and v.document_id = s.id and v.ord = 1
              where s.company_id = '${c}' and s.issue_date between '2026-01-01' and '2026-12-31' and s.status <> 'draft'
              order by s.issue_date, s.id, l.line_no) to stdout`,
    );
  }
  const started = performance.now();
  for (const sql of copies) {
    const result = spawnSync("psql", [database.connectionString, "-qAtc", sql], { stdio: ["ignore", "ignore", "inherit"] });
    if (result.status !== 0) throw new Error("psql copy failed");
  }
  return performance.now() - started;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const times: number[] = [];
const baselines: number[] = [];
try {
  for (let run = 1; run <= RUNS; run++) {
    const { id } = await db.transaction((trx) => requestSaft(trx, c, account.keyId, { from: "2026-01-01", to: "2026-12-31", dataType: DATA_TYPE }));
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
      `run ${run}: ${DATA_TYPE}, ${row.rows_total} rows (transactions and documents) in ${parts} parts, ${(Number(bytes) / 1e6).toFixed(1)} MB, ${ms} ms; COPY baseline ${base.toFixed(0)} ms; ratio ${(ms / base).toFixed(1)}; worker peak RSS ${memory("VmHWM").toFixed(0)} MiB`,
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
