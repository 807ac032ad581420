// Invoicing throughput and listing.
// 1. create + issue of 5-line sales invoices over HTTP on one company, BENCH_CONNECTIONS clients each looping
//    create -> issue for BENCH_SECONDS; then checks the numbers are SF-1..SF-N (gapless, no duplicates) and every
//    posting balances. Same-run baseline: ledger/journal/transactions/create (one 3-line posting per request)
//    through the same client loop, so the ratio survives a machine that is 2-3x slower or faster. Then, to show where
//    the time goes, creates alone and issues alone (of those drafts), BENCH_SECONDS / 2 each.
//    Target: >= 250 issued invoices/s.
// 2. sales/invoices/list with totals over 1,000,000 invoices of one company (seeded in SQL with every constraint
//    in force and every trigger but the line freeze; one line each), sequential requests. Target: p50 < 150 ms.
// Env: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 16), BENCH_INVOICES (default 1000000),
// BENCH_REQUESTS (default 30 per list case), BENCH_POOL (the API's DB_POOL_MAX, default 20), DATABASE_URL (else
// embedded PostgreSQL).
import { benchDatabase, benchTenant, startBenchApi, stopChild, closedLoop, jsonPoster } from "./lib.js";

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const invoices = Number(process.env.BENCH_INVOICES ?? 1_000_000);
const requests = Number(process.env.BENCH_REQUESTS ?? 30);
const database = await benchDatabase({ everyCpu: true });
const { db } = database;
const account = await benchTenant(db);
const { child: api, url } = await startBenchApi(database.connectionString, { DB_POOL_MAX: process.env.BENCH_POOL ?? "20", LOG_LEVEL: "warn" });
const headers = { authorization: `Bearer ${account.apiKey}`, "x-company-id": account.companyId, "content-type": "application/json" };
const call = jsonPoster(url, headers, connections);
await call("/v1/ledger/accounts/apply-template", { template: "lt-standard" });
await call("/v1/partners/create", { name: "Pirkėjas UAB", code: "PIRKEJAS", vatCode: "LT119511515", registrationCode: "300000003", paymentTermDays: 14 });
await call("/v1/catalog/items/create", { code: "KONS", name: "Konsultacija", type: "service", unit: "val.", vatRatePercent: "21", salePriceExclVat: "60" });

const invoiceBody = {
  partnerCode: "PIRKEJAS",
  issueDate: "2026-03-10",
  lines: [
    { itemCode: "KONS", quantity: "2.5" },
    { description: "Programavimo darbai", quantity: "12", unitPriceExclVat: "45.50", vatRatePercent: "21" },
    { description: "Knyga", quantity: "3", unitPriceExclVat: "19.99", vatRatePercent: "5", vatClassifier: "PVM3" },
    { description: "Apgyvendinimas", quantity: "2", unitPriceExclVat: "80", vatRatePercent: "12", vatClassifier: "PVM58" },
    { description: "Nuolaida taikoma", quantity: "1", unitPriceExclVat: "100", discountPercent: "12.5", vatRatePercent: "21" },
  ],
};
const journalBody = {
  date: "2026-03-02",
  description: "Pardavimas",
  entries: [
    { accountCode: "2410", debit: "121.00" },
    { accountCode: "5000", credit: "100.00" },
    { accountCode: "4492", credit: "21.00" },
  ],
};

const loop = (duration: number, step: () => Promise<void>) => closedLoop(connections, duration, step);

const issueOne = async () => {
  const draft = await call("/v1/sales/invoices/create", invoiceBody);
  await call("/v1/sales/invoices/issue", { id: draft.id });
};
await loop(2, issueOne); // warm-up (its invoices count in the gapless check below)
// Steady state: the planner statistics of a database in use. A new database has none; PostgreSQL then plans the
// first statements (PL/pgSQL's and the prepared ones, kept per connection) on tables it takes for empty, and where
// two indexes then cost alike it may keep one that reads every row of the company (the journal's balance check at
// commit through the date index: 19,600 index entries a posting, a minute into the run) until autovacuum analyzes
// the tables, which it had not done within a run. An operator's database is analyzed by autovacuum (README).
await db.raw("analyze");
const baseline = await loop(seconds, async () => void (await call("/v1/ledger/journal/transactions/create", journalBody)));
const issued = await loop(seconds, issueOne);
// Where an invoice's time goes: creates alone, then issues alone of drafts made for them (half the time each). The
// issues of one series are numbered one at a time (the series row is locked from the numbering statement to its
// commit), the creates run side by side.
const drafts: string[] = [];
const created = await loop(seconds / 2, async () => void drafts.push((await call("/v1/sales/invoices/create", invoiceBody)).id));
let issuedCount = 0;
const issuedAlone = await loop(seconds / 2, async () => {
  const id = drafts.pop();
  if (!id) return void (await new Promise((r) => setTimeout(r, 5)));
  await call("/v1/sales/invoices/issue", { id });
  issuedCount++;
});
issuedAlone.perSecond = issuedCount / (seconds / 2); // what ran out of drafts (not expected: issues are the slower) is not counted

const { rows: numbering } = await db.raw<{ rows: { n: string; lo: string; hi: string; distinct_n: string }[] }>(
  `select count(*) as n, min(sequence) as lo, max(sequence) as hi, count(distinct sequence) as distinct_n
     from sale_invoices where company_id = ? and status = 'issued'`,
  [account.companyId],
);
const { rows: balance } = await db.raw<{ rows: { d: string; c: string }[] }>(
  "select sum(debit)::text as d, sum(credit)::text as c from journal_entries where company_id = ?",
  [account.companyId],
);
const n = numbering[0];
const gapless = n.lo === "1" && n.hi === n.n && n.distinct_n === n.n;
console.log(`\nsales/invoices create + issue (5 lines), ${connections} clients, ${seconds} s`);
console.log(
  `baseline ledger/journal/transactions/create (3 lines): ${baseline.perSecond.toFixed(0)}/s   p50 ${baseline.p50.toFixed(1)} ms   p99 ${baseline.p99.toFixed(1)} ms`,
);
console.log(
  `issued invoices: ${issued.perSecond.toFixed(0)}/s   create+issue p50 ${issued.p50.toFixed(1)} ms   p99 ${issued.p99.toFixed(1)} ms   ratio to baseline ${(issued.perSecond / baseline.perSecond).toFixed(2)}`,
);
console.log(
  `  of which: create alone ${created.perSecond.toFixed(0)}/s (p50 ${created.p50.toFixed(1)} ms), issue alone ${issuedAlone.perSecond.toFixed(0)}/s (p50 ${issuedAlone.p50.toFixed(1)} ms, p99 ${issuedAlone.p99.toFixed(1)} ms)`,
);
console.log(
  `numbers SF-${n.lo}..SF-${n.hi} for ${n.n} issued invoices: gapless and unique: ${gapless}; all postings balance: ${balance[0].d === balance[0].c}`,
);
console.log("target: >= 250 issued invoices/s with gapless numbers");
if (!gapless || balance[0].d !== balance[0].c) process.exitCode = 1;

// ----- 1b. a document's files: its PDF and its Peppol UBL, next to the issue path (issue 25) ----------------------
// One client, one request at a time, so that a file's time is the API process's own (one Node process: one core).
const twentyLines = {
  partnerCode: "PIRKEJAS",
  issueDate: "2026-03-10",
  lines: Array.from({ length: 20 }, (_, i) => ({
    description: `Programavimo darbai, etapas ${i + 1} (ąčęėįšųūž)`,
    quantity: String(1 + (i % 5)),
    unitPriceExclVat: (10 + i * 1.37).toFixed(2),
    vatRatePercent: "21",
  })),
};
const twenty = await call("/v1/sales/invoices/issue", { id: (await call("/v1/sales/invoices/create", twentyLines)).id });
const fileTimes = async (path: string, body: unknown) => {
  const times: number[] = [];
  for (let i = 0; i < requests; i++) {
    const started = performance.now();
    await call(path, body);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
};
const pdfP50 = await fileTimes("/v1/sales/invoices/pdf", { id: twenty.id });
const ublP50 = await fileTimes("/v1/sales/invoices/peppol-xml", { id: twenty.id });
const issueP50 = issuedAlone.p50;
console.log(`\na 20-line invoice's files, one client, ${requests} requests each`);
console.log(
  `PDF: p50 ${pdfP50.toFixed(1)} ms (${(1000 / pdfP50).toFixed(0)} PDFs/s on one core), ${(pdfP50 / issueP50).toFixed(2)} x the issue path's p50 (${issueP50.toFixed(1)} ms)`,
);
console.log(`Peppol UBL: p50 ${ublP50.toFixed(1)} ms, ${(ublP50 / issueP50).toFixed(2)} x the issue path's p50`);

// ----- 2. list over a million invoices -------------------------------------------------------------------------
const seedStarted = Date.now();
const [series2025] = await db("number_series")
  .insert({ company_id: account.companyId, document_type: "sale_invoice", prefix: "BN", year: 2025, next_number: invoices + 1 })
  .returning("id");
const anchor = await db("journal_transactions").where({ company_id: account.companyId, document_type: "sale_invoice" }).first("id");
const snapshot = JSON.stringify({
  code: "PIRKEJAS",
  name: "Pirkėjas UAB",
  vatCode: "LT119511515",
  registrationCode: "300000003",
  countryCode: "LT",
  address: null,
  isPrivatePerson: false,
});
for (let p = 0; p < 10; p++) await call("/v1/partners/create", { name: `Klientas ${p}`, code: `K${p}` });
const BATCH = 100_000;
for (let start = 1; start <= invoices; start += BATCH) {
  const end = Math.min(start + BATCH - 1, invoices);
  await db.transaction(async (trx) => {
    // Invoice g: one of 11 partners, a day of 2025, net 1.00..1000.00 at 21%, a third of them paid.
    await trx.raw(
      `insert into sale_invoices (company_id, id, type, status, series_prefix, series_id, sequence, number, partner_code, partner_snapshot,
                                  issue_date, due_date, currency, rate, rate_source, rate_date, net_total, vat_total, gross_total,
                                  gross_total_base, vat_breakdown, paid_amount, outstanding, journal_transaction_id, issued_at)
       select :companyId::uuid, md5('inv-' || g)::uuid, 'invoice', case when g % 3 = 0 then 'paid' else 'issued' end, 'BN', :seriesId::uuid, g, 'BN-' || g,
              case when g % 11 = 10 then 'PIRKEJAS' else 'K' || (g % 11) end, :snapshot::jsonb,
              day, day + 14, 'EUR', 1, 'base', day, net, round(net * 0.21, 2), net + round(net * 0.21, 2),
              net + round(net * 0.21, 2), jsonb_build_array(jsonb_build_object('vatRatePercent', '21.00', 'vatClassifier', 'PVM1',
                'taxableAmount', net::text, 'vatAmount', round(net * 0.21, 2)::text)),
              case when g % 3 = 0 then net + round(net * 0.21, 2) else 0 end,
              case when g % 3 = 0 then 0 else net + round(net * 0.21, 2) end, :anchor::uuid, day::timestamptz
         from (select g, '2025-01-01'::date + (g * 7919 % 365)::int as day, ((g * 104729 % 100000) + 100) / 100.0 as net
                 from generate_series(:start::bigint, :end::bigint) g) s`,
      { companyId: account.companyId, seriesId: series2025.id, snapshot, anchor: anchor.id, start, end },
    );
    // The lines of an issued invoice are frozen by a trigger (they can only be written while it is a draft); the
    // seed writes issued invoices directly, so that one trigger is off for this transaction's line insert only.
    await trx.raw("alter table sale_invoice_lines disable trigger sale_invoice_lines_frozen");
    await trx.raw(
      `insert into sale_invoice_lines (company_id, invoice_id, line_no, description, quantity, unit, unit_price, vat_rate_percent, vat_classifier, net_amount)
       select :companyId::uuid, md5('inv-' || g)::uuid, 1, 'Paslauga', 1, 'vnt.', net, 21, 'PVM1', net
         from (select g, ((g * 104729 % 100000) + 100) / 100.0 as net from generate_series(:start::bigint, :end::bigint) g) s`,
      { companyId: account.companyId, start, end },
    );
    await trx.raw("alter table sale_invoice_lines enable trigger sale_invoice_lines_frozen");
  });
}
await db.raw("vacuum analyze sale_invoices, sale_invoice_lines");
const total = Number((await db("sale_invoices").where("company_id", account.companyId).count({ n: "*" }))[0].n);
console.log(`\nseeded ${invoices} invoices (${total} in the company) in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s, vacuum analyze`);

const cases = [
  { name: "first page, totals over all", body: { totals: ["grossTotal", "outstanding"] } },
  { name: "one partner, totals", body: { filter: [{ field: "partnerCode", op: "eq", value: "K3" }], totals: ["grossTotal", "outstanding"] } },
  {
    name: "one month, totals",
    body: {
      filter: [
        { field: "issueDate", op: "gte", value: "2025-06-01" },
        { field: "issueDate", op: "lte", value: "2025-06-30" },
      ],
      totals: ["grossTotal"],
    },
  },
  { name: "unpaid (status issued), totals", body: { filter: [{ field: "status", op: "eq", value: "issued" }], totals: ["outstanding"] } },
  { name: "overdue, totals", body: { filter: [{ field: "overdue", op: "eq", value: true }], totals: ["outstanding"] } },
  { name: "by number", body: { filter: [{ field: "number", op: "eq", value: "BN-777777" }] } },
];
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
// Same-run baseline: the bare aggregate of the first case (count and two sums over every invoice of the company)
// as one SQL statement on a direct connection, without HTTP, the page or its lines.
const rawTimes: number[] = [];
for (let i = 0; i < requests + 3; i++) {
  const started = performance.now();
  await db.raw("select count(*), sum(gross_total), sum(outstanding) from sale_invoices where company_id = ?", [account.companyId]);
  if (i >= 3) rawTimes.push(performance.now() - started);
}
rawTimes.sort((a, b) => a - b);
const rawP50 = percentile(rawTimes, 50);
console.log(`sales/invoices/list over ${total} invoices, page of 50 with lines, ${requests} sequential requests per case`);
console.log(`baseline: the raw SQL aggregate over all (count, 2 sums)   p50 ${rawP50.toFixed(1)} ms`);
for (const c of cases) {
  const send = async () => {
    const started = performance.now();
    const body = await call("/v1/sales/invoices/list", c.body);
    return { ms: performance.now() - started, total: body.total as number };
  };
  for (let i = 0; i < 3; i++) await send();
  const times: number[] = [];
  let matched = 0;
  for (let i = 0; i < requests; i++) {
    const r = await send();
    times.push(r.ms);
    matched = r.total;
  }
  times.sort((a, b) => a - b);
  console.log(
    `${c.name.padEnd(34)} rows ${String(matched).padStart(8)}   p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms   p99 ${percentile(times, 99).toFixed(1).padStart(7)} ms   p50 / baseline ${(percentile(times, 50) / rawP50).toFixed(2)}`,
  );
}
console.log("target: p50 < 150 ms");
await stopChild(api);
await database.close();
