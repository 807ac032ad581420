// Lithuanian declarations of a large month (issue 24), through the full HTTP stack: i.SAF of October 2026 with
// 100,000 sales and 50,000 purchase documents (all its parts, streamed; peak RSS of the API process) and FR0600
// compute of that month (p50 of 5 requests), three runs each, each next to a same-run raw SQL baseline over the same
// rows (i.SAF: every document's breakdown read out to the client; FR0600: the month's sums per classifier). Seeded in
// SQL with every trigger and constraint in force: issued sales documents with their journal transactions, purchase
// documents with their lines (one in ten with a non-deductible line), registered with theirs.
// Env: BENCH_SALES (100000), BENCH_PURCHASES (50000), ISAF_PART_SIZE (50000), DATABASE_URL (else embedded PostgreSQL).
import { readFileSync } from "node:fs";
import { benchDatabase, benchTenant, startBenchApi, stopChild, benchLtChart } from "./lib.js";

const SALES = Number(process.env.BENCH_SALES ?? 100_000);
const PURCHASES = Number(process.env.BENCH_PURCHASES ?? 50_000);
const PART_SIZE = Number(process.env.ISAF_PART_SIZE ?? 50_000);
const RUNS = 3;
const CHUNK = 10_000;

const database = await benchDatabase({ everyCpu: true });
const { db } = database;
const account = await benchTenant(db);
const c = account.companyId;
await db("companies").where({ id: c }).update({ code: "304000009", vat_code: "LT119511515", name: "Bench UAB" });
await benchLtChart(db, c);
await db.raw(
  `insert into partners (company_id, code, name, vat_code, registration_code, country_code, is_customer, is_supplier)
   select :c::uuid, 'C' || lpad(i::text, 5, '0'), 'Pirkėjas ' || i || ' UAB', 'LT' || lpad((100000000 + i)::text, 9, '0'), (300000000 + i)::text, 'LT', true, false
     from generate_series(1, 1000) i
   union all
   select :c::uuid, 'S' || lpad(i::text, 4, '0'), 'Tiekėjas ' || i || ' UAB', 'LT' || lpad((200000000 + i)::text, 9, '0'), (310000000 + i)::text, 'LT', false, true
     from generate_series(1, 200) i`,
  { c },
);
const [series] = await db("number_series")
  .insert({ company_id: c, document_type: "sale_invoice", prefix: "SF", year: 2026, next_number: SALES + 1 })
  .returning("id");

const seedStarted = Date.now();
// Sales: document g on day g % 31 + 1 of October, to customer g % 1000, one classifier each: PVM3 5%, PVM58 12%,
// PVM5 exempt, else PVM1 21%; net 1.00 to 1000.98.
await db.raw(
  `create unlogged table bench_sales as
   select g, gen_random_uuid() as id, gen_random_uuid() as tx, ('2026-10-01'::date + (g % 31)) as day, 'C' || lpad((g % 1000 + 1)::text, 5, '0') as partner,
          n.net, k.classifier, k.rate, round(n.net * k.rate / 100, 2) as vat
     from generate_series(1, :n::int) g,
          lateral (select ((g::bigint * 7919) % 99999 + 100) / 100.0 as net) n,
          lateral (select case g % 20 when 0 then 'PVM3' when 1 then 'PVM58' when 2 then 'PVM5' else 'PVM1' end as classifier,
                          case g % 20 when 0 then 5 when 1 then 12 when 2 then 0 else 21 end::numeric(5,2) as rate) k`,
  { n: SALES },
);
for (let from = 1; from <= SALES; from += CHUNK) {
  const to = Math.min(SALES, from + CHUNK - 1);
  await db.transaction(async (trx) => {
    await trx.raw(
      `insert into journal_transactions (company_id, id, date, description, reference, document_type, source_type, source_id, total, account_codes, partner_codes)
       select :c::uuid, tx, day, 'Sales invoice SF-' || g, 'SF-' || g, 'sale_invoice', 'sale_invoice', id::text, net + vat,
              case when vat > 0 then array['2410', '5000', '4492'] else array['2410', '5000'] end, array[partner]
         from bench_sales where g between :from and :to`,
      { c, from, to },
    );
    await trx.raw(
      `insert into journal_entries (company_id, transaction_id, line_no, date, account_code, debit, credit, partner_code)
       select :c::uuid, tx, 1, day, '2410', net + vat, 0, partner from bench_sales where g between :from and :to
       union all select :c::uuid, tx, 2, day, '5000', 0, net, null from bench_sales where g between :from and :to
       union all select :c::uuid, tx, 3, day, '4492', 0, vat, null from bench_sales where g between :from and :to and vat > 0`,
      { c, from, to },
    );
    await trx.raw(
      `insert into sale_invoices (company_id, id, type, status, series_prefix, series_id, sequence, number, partner_code, partner_snapshot, issue_date,
                                  due_date, currency, rate, rate_source, rate_date, net_total, vat_total, gross_total, gross_total_base, vat_breakdown,
                                  outstanding, journal_transaction_id, issued_at)
       select :c::uuid, s.id, 'invoice', 'issued', 'SF', :series::uuid, g, 'SF-' || g, partner,
              jsonb_build_object('code', p.code, 'name', p.name, 'vatCode', p.vat_code, 'registrationCode', p.registration_code, 'countryCode', p.country_code,
                                 'address', null, 'isPrivatePerson', false),
              day, day + 30, 'EUR', 1, 'base', day, net, vat, net + vat, net + vat,
              jsonb_build_array(jsonb_build_object('vatRatePercent', rate::text, 'vatClassifier', classifier, 'taxableAmount', net::text, 'vatAmount', vat::text)),
              net + vat, tx, now()
         from bench_sales s join partners p on p.company_id = :c::uuid and p.code = s.partner
        where g between :from and :to`,
      { c, from, to, series: series.id },
    );
  });
}
// Purchases: document g on day g % 31 + 1 from supplier g % 200; a deductible PVM1 line, and in one in ten a
// second, non-deductible one; the rate's VAT shared between them by net, as posting shares it.
await db.raw(
  `create unlogged table bench_purchases as
   select g, id, tx, day, partner, a, b, vat, share_a, vat - share_a as share_b
     from (select g, gen_random_uuid() as id, gen_random_uuid() as tx, ('2026-10-01'::date + (g % 31)) as day, 'S' || lpad((g % 200 + 1)::text, 4, '0') as partner,
                  a, b, vat,
                  case when b = 0 then vat
                       else floor(vat * a / (a + b) * 100) / 100
                            + case when round((vat - floor(vat * a / (a + b) * 100) / 100 - floor(vat * b / (a + b) * 100) / 100) * 100) >= 1
                                    and vat * a / (a + b) - floor(vat * a / (a + b) * 100) / 100 >= vat * b / (a + b) - floor(vat * b / (a + b) * 100) / 100
                                   then 0.01 else 0 end end as share_a
             from (select g, ((g::bigint * 104729) % 499999 + 100) / 100.0 as a, case when g % 10 = 0 then ((g::bigint * 15485863) % 9999 + 100) / 100.0 else 0 end as b
                     from generate_series(1, :n::int) g) x,
                  lateral (select round((a + b) * 0.21, 2) as vat) v) y`,
  { n: PURCHASES },
);
for (let from = 1; from <= PURCHASES; from += CHUNK) {
  const to = Math.min(PURCHASES, from + CHUNK - 1);
  await db.transaction(async (trx) => {
    await trx.raw(
      `insert into purchase_invoices (company_id, id, type, status, partner_code, document_number, document_date, due_date, currency, vat_treatment,
                                      net_total, vat_total, gross_total, vat_breakdown, outstanding)
       select :c::uuid, id, 'invoice', 'draft', partner, 'PI-' || g, day, day + 30, 'EUR', 'standard', a + b, vat, a + b + vat,
              jsonb_build_array(jsonb_build_object('vatRatePercent', '21.00', 'vatClassifier', 'PVM1', 'taxableAmount', (a + b)::text, 'vatAmount', vat::text)),
              0
         from bench_purchases where g between :from and :to`,
      { c, from, to },
    );
    await trx.raw(
      `insert into purchase_invoice_lines (company_id, invoice_id, line_no, description, quantity, unit, unit_price, vat_rate_percent, vat_classifier, vat_deductible, net_amount)
       select :c::uuid, id, 1, 'Prekės', 1, 'vnt.', a, 21, 'PVM1', true, a from bench_purchases where g between :from and :to
       union all
       select :c::uuid, id, 2, 'Reprezentacija', 1, 'vnt.', b, 21, 'PVM1', false, b from bench_purchases where g between :from and :to and b > 0`,
      { c, from, to },
    );
    await trx.raw(
      `insert into journal_transactions (company_id, id, date, description, reference, document_type, source_type, source_id, total, account_codes, partner_codes)
       select :c::uuid, tx, day, 'Purchase invoice PI-' || g, 'PI-' || g, 'purchase_invoice', 'purchase_invoice', id::text, a + b + vat,
              case when b > 0 then array['4430', '6312', '2441', '63081'] else array['4430', '6312', '2441'] end, array[partner]
         from bench_purchases where g between :from and :to`,
      { c, from, to },
    );
    await trx.raw(
      `insert into journal_entries (company_id, transaction_id, line_no, date, account_code, debit, credit, partner_code)
       select :c::uuid, tx, 1, day, '4430', 0, a + b + vat, partner from bench_purchases where g between :from and :to
       union all select :c::uuid, tx, 2, day, '6312', a + b, 0, null from bench_purchases where g between :from and :to
       union all select :c::uuid, tx, 3, day, '2441', share_a, 0, null from bench_purchases where g between :from and :to
       union all select :c::uuid, tx, 4, day, '63081', share_b, 0, null from bench_purchases where g between :from and :to and share_b > 0`,
      { c, from, to },
    );
    await trx.raw(
      `update purchase_invoices p
          set status = 'registered', partner_snapshot = jsonb_build_object('code', s.code, 'name', s.name, 'vatCode', s.vat_code,
                'registrationCode', s.registration_code, 'countryCode', s.country_code, 'address', null, 'isPrivatePerson', false),
              rate = 1, rate_source = 'base', rate_date = b.day, gross_total_base = b.a + b.b + b.vat, outstanding = b.a + b.b + b.vat,
              journal_transaction_id = b.tx, registered_at = now()
         from bench_purchases b join partners s on s.company_id = :c::uuid and s.code = b.partner
        where p.company_id = :c::uuid and p.id = b.id and b.g between :from and :to`,
      { c, from, to },
    );
  });
}
await db.raw("drop table bench_sales, bench_purchases");
await db.raw("analyze sale_invoices, purchase_invoices, purchase_invoice_lines, journal_entries, journal_transactions, partners");
console.log(`seeded ${SALES} sales and ${PURCHASES} purchase documents with their postings in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s`);

const month = { c, from: "2026-10-01", to: "2026-10-31" };
/** i.SAF's baseline: every document of the month with its breakdown, read out to this process. */
async function isafBaseline(): Promise<{ ms: number; rows: number }> {
  const started = performance.now();
  const { rows } = await db.raw(
    `select s.number, s.issue_date, s.supply_date, s.partner_code, s.partner_snapshot, s.type, b.value
       from sale_invoices s cross join lateral jsonb_array_elements(s.vat_breakdown) b
      where s.company_id = :c and s.status <> 'draft' and s.issue_date between :from and :to
     union all
     select p.document_number, p.document_date, p.supply_date, p.partner_code, p.partner_snapshot, p.type, b.value
       from purchase_invoices p cross join lateral jsonb_array_elements(p.vat_breakdown) b
      where p.company_id = :c and p.status <> 'draft' and p.accounting_date between :from and :to`,
    month,
  );
  return { ms: performance.now() - started, rows: rows.length };
}
/** FR0600's baseline: the month's taxable value and VAT per side and classifier, summed in SQL. */
async function fr0600Baseline(): Promise<number> {
  const started = performance.now();
  await db.raw(
    `select 'sale' as side, b.value ->> 'vatClassifier' as classifier, sum((b.value ->> 'taxableAmount')::numeric), sum((b.value ->> 'vatAmount')::numeric)
       from sale_invoices s cross join lateral jsonb_array_elements(s.vat_breakdown) b
      where s.company_id = :c and s.status <> 'draft' and s.issue_date between :from and :to group by 1, 2
     union all
     select 'purchase', b.value ->> 'vatClassifier', sum((b.value ->> 'taxableAmount')::numeric), sum((b.value ->> 'vatAmount')::numeric)
       from purchase_invoices p cross join lateral jsonb_array_elements(p.vat_breakdown) b
      where p.company_id = :c and p.status <> 'draft' and p.accounting_date between :from and :to group by 1, 2`,
    month,
  );
  return performance.now() - started;
}

const { child: api, url } = await startBenchApi(database.connectionString, { LOG_LEVEL: "warn", ISAF_PART_SIZE: String(PART_SIZE) });
const memory = (field: "VmRSS" | "VmHWM") => {
  const line = readFileSync(`/proc/${api.pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${field}:`));
  return line ? Number(line.replace(/\D+/g, "")) / 1024 : Number.NaN;
};
const call = async (path: string, body: unknown) => {
  const res = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${account.apiKey}`, "x-company-id": c, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text.slice(0, 500)}`);
  return { body: JSON.parse(text), bytes: text.length };
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  console.log(`\nAPI process RSS before: ${memory("VmRSS").toFixed(0)} MiB (peak so far ${memory("VmHWM").toFixed(0)} MiB)`);
  const isafMs: number[] = [];
  const isafBase: number[] = [];
  console.log(`\ndeclarations/lt/isaf/generate, ${SALES} sales + ${PURCHASES} purchases, parts of ${PART_SIZE}`);
  for (let run = 1; run <= RUNS; run++) {
    const base = await isafBaseline();
    const started = performance.now();
    let parts = 1;
    const counts = { sales: 0, purchases: 0 };
    let bytes = 0;
    for (let part = 1; part <= parts; part++) {
      const { body, bytes: b } = await call("/v1/declarations/lt/isaf/generate", { period: "2026-10", dataType: "F", partNumber: part });
      parts = body.parts;
      counts.sales += body.invoices.sales;
      counts.purchases += body.invoices.purchases;
      bytes += b;
    }
    const ms = performance.now() - started;
    if (counts.sales !== SALES || counts.purchases !== PURCHASES) throw new Error(`i.SAF wrote ${JSON.stringify(counts)}`);
    isafMs.push(ms);
    isafBase.push(base.ms);
    console.log(
      `run ${run}: ${parts} parts, ${(bytes / 1e6).toFixed(1)} MB of answers, ${ms.toFixed(0)} ms; baseline (${base.rows} rows read) ${base.ms.toFixed(0)} ms; ratio ${(ms / base.ms).toFixed(1)}; API peak RSS ${memory("VmHWM").toFixed(0)} MiB`,
    );
  }
  console.log(
    `median of ${RUNS}: i.SAF ${median(isafMs).toFixed(0)} ms, baseline ${median(isafBase).toFixed(0)} ms, ratio ${(median(isafMs) / median(isafBase)).toFixed(1)}; API peak RSS ${memory("VmHWM").toFixed(0)} MiB (targets < 10000 ms, < 300 MiB)`,
  );

  const fr0600: number[] = [];
  const fr0600Base: number[] = [];
  console.log(`\ndeclarations/lt/fr0600/compute of the same month, p50 of 5 requests per run`);
  for (let run = 1; run <= RUNS; run++) {
    const times: number[] = [];
    const bases: number[] = [];
    let body: { boxes: { box: string; amount: string }[]; reconciliation: { balanced: boolean } } | undefined;
    for (let i = 0; i < 5; i++) {
      bases.push(await fr0600Baseline());
      const started = performance.now();
      body = (await call("/v1/declarations/lt/fr0600/compute", { period: "2026-10" })).body;
      times.push(performance.now() - started);
    }
    if (!body?.reconciliation.balanced) throw new Error("the bench month does not reconcile");
    fr0600.push(median(times));
    fr0600Base.push(median(bases));
    const box = (n: string) => body!.boxes.find((b) => b.box === n)!.amount;
    console.log(
      `run ${run}: p50 ${median(times).toFixed(0)} ms (boxes 11 ${box("11")}, 25 ${box("25")}, 29 ${box("29")}, 36 ${box("36")}); baseline p50 ${median(bases).toFixed(0)} ms; ratio ${(median(times) / median(bases)).toFixed(1)}`,
    );
  }
  console.log(
    `median of ${RUNS}: FR0600 p50 ${median(fr0600).toFixed(0)} ms, baseline ${median(fr0600Base).toFixed(0)} ms, ratio ${(median(fr0600) / median(fr0600Base)).toFixed(1)} (target < 500 ms)`,
  );
} finally {
  await stopChild(api);
  await database.close();
}
