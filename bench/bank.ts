// Bank: statement import and suggested matches.
// 1. bank/statements/import of a camt.053.001.02 file of BENCH_ENTRIES (default 10,000) entries (a third of them
//    batch entries of two details, so 13,333 transactions), into a fresh bank account each run, BENCH_RUNS times
//    (default 5); then the same file again (duplicates only). Same-run baseline: the same transactions written by
//    one multi-row INSERT per 2,000 rows through knex (no parsing, no HTTP). Target: < 3 s. Where the time goes, in
//    this process: reading the file (parseCamt053) and writing its rows (storeRows, the import's one INSERT).
// 2. bank/transactions/suggest-matches over BENCH_INVOICES (default 100,000) open sales invoices of 1,000 customers
//    (seeded in SQL as copies of one invoice issued through the API), for transactions whose remittance text names an
//    invoice, whose amount equals many invoices', whose IBAN is a customer's, whose name is a customer's, or that
//    match nothing; BENCH_REQUESTS (default 200) sequential requests. Same-run baseline: bank/transactions/get of the
//    same transactions. Target: p50 < 50 ms.
// Env: DATABASE_URL (else embedded PostgreSQL), and the counts above.
import { benchDatabase, benchTenant, startBenchApi, stopChild } from "./lib.js";
import { base64, buildCamt, type CamtEntry } from "../test/support/camt.js";
import { ibanOf } from "../test/support/bank.js";
import { dedupeKeys, storeRows, type TransactionRow } from "../src/bank/transactions.js";
import { parseCamt053 } from "../src/bank/camt.js";

const entries = Number(process.env.BENCH_ENTRIES ?? 10_000);
const runs = Number(process.env.BENCH_RUNS ?? 5);
const invoiceCount = Number(process.env.BENCH_INVOICES ?? 100_000);
const requests = Number(process.env.BENCH_REQUESTS ?? 200);

const database = await benchDatabase();
const { db } = database;
const account = await benchTenant(db);
const { child: api, url } = await startBenchApi(database.connectionString, { DB_POOL_MAX: "20", LOG_LEVEL: "warn" });
const headers = { authorization: `Bearer ${account.apiKey}`, "x-company-id": account.companyId, "content-type": "application/json" };
async function call(path: string, body: unknown): Promise<any> {
  const res = await fetch(url + path, { method: "POST", headers, body: JSON.stringify(body) });
  const json = await res.json();
  if (res.status !== 200) throw new Error(`${path} -> ${res.status} ${JSON.stringify(json).slice(0, 500)}`);
  return json;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const load = async () =>
  (await import("node:os"))
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

await call("/v1/ledger/accounts/apply-template", { template: "lt-standard" });

// ----- 1. statement import -------------------------------------------------------------------------------------
const camtEntries: CamtEntry[] = Array.from({ length: entries }, (_, i) => {
  const day = `2026-03-${String(1 + (i % 28)).padStart(2, "0")}`;
  if (i % 3 === 2) {
    return {
      amount: "300.00",
      ref: `B-${i}`,
      bookingDate: day,
      details: [
        { amount: "120.00", name: `Mokėtojas ${i}`, ustrd: `SF-${i}` },
        { amount: "180.00", name: `Kitas ${i}`, ustrd: `SF-${i + 1}` },
      ],
    };
  }
  const incoming = i % 3 === 0;
  return {
    amount: incoming ? `${(i % 997) + 1}.${String(i % 100).padStart(2, "0")}` : `-${(i % 89) + 1}.50`,
    ref: `E-${i}`,
    bookingDate: day,
    details: [
      {
        name: incoming ? `Pirkėjas ${i % 1000} UAB` : `Tiekėjas ${i % 50} UAB`,
        iban: ibanOf("LT", `70440600${String(i).padStart(8, "0")}`),
        ustrd: `Apmokėjimas už SF-${i}`,
        e2e: `E2E-${i}`,
      },
    ],
  };
});
let ibanSeq = 0;
const newAccount = async () =>
  call("/v1/bank/accounts/create", { name: `Sąskaita ${++ibanSeq}`, iban: ibanOf("LT", `73000${String(ibanSeq).padStart(11, "0")}`) });
const fileFor = (iban: string) => base64(buildCamt("02", [{ id: "BENCH", iban, opening: "0", entries: camtEntries }]));
console.log(`camt.053.001.02 file: ${entries} entries, ${(Buffer.byteLength(Buffer.from(fileFor("LT000000000000000000"), "base64")) / 1e6).toFixed(1)} MB`);

const importTimes: number[] = [];
const baselineTimes: number[] = [];
let imported = 0;
let duplicateTime = 0;
for (let run = 0; run < runs; run++) {
  const bankAccount = await newAccount();
  const content = fileFor(bankAccount.iban);
  let started = performance.now();
  const result = await call("/v1/bank/statements/import", { bankAccountId: bankAccount.id, format: "camt.053", contentBase64: content });
  importTimes.push(performance.now() - started);
  imported = result.imported;
  if (run === 0) {
    started = performance.now();
    const again = await call("/v1/bank/statements/import", { bankAccountId: bankAccount.id, format: "camt.053", contentBase64: content });
    duplicateTime = performance.now() - started;
    if (again.imported !== 0 || again.duplicates !== imported) throw new Error(`re-import imported ${again.imported}`);
  }
  // Baseline: the same rows as plain multi-row INSERTs into another fresh account.
  const other = await newAccount();
  const rows: TransactionRow[] = (await db("bank_transactions").where({ company_id: account.companyId, bank_account_id: bankAccount.id }).select("*")).map(
    (r) => ({
      bookingDate: r.booking_date,
      valueDate: r.value_date,
      amount: r.amount,
      currency: r.currency,
      counterpartyName: r.counterparty_name,
      counterpartyIban: r.counterparty_iban,
      remittanceInformation: r.remittance_information,
      creditorReference: r.creditor_reference,
      endToEndId: r.end_to_end_id,
      bankReference: r.bank_reference,
      isReversal: r.is_reversal,
      originalAmount: r.original_amount,
      originalCurrency: r.original_currency,
    }),
  );
  started = performance.now();
  await db.transaction(async (trx) => {
    const keys = dedupeKeys(rows);
    for (let s = 0; s < rows.length; s += 2000) {
      await trx("bank_transactions").insert(
        rows.slice(s, s + 2000).map((r, i) => ({
          company_id: account.companyId,
          bank_account_id: other.id,
          booking_date: r.bookingDate,
          value_date: r.valueDate,
          amount: r.amount,
          currency: r.currency,
          counterparty_name: r.counterpartyName,
          counterparty_iban: r.counterpartyIban,
          remittance_information: r.remittanceInformation,
          creditor_reference: r.creditorReference,
          end_to_end_id: r.endToEndId,
          bank_reference: r.bankReference,
          is_reversal: r.isReversal,
          dedupe_key: keys[s + i],
          original_amount: r.originalAmount,
          original_currency: r.originalCurrency,
        })),
      );
    }
  });
  baselineTimes.push(performance.now() - started);
}
// Where the time goes, in this process: reading the file (src/bank/xml.ts and the entries read), then writing its
// rows into a fresh account (the import's one INSERT … SELECT FROM unnest, in a transaction of its own).
const parseTimes: number[] = [];
const storeTimes: number[] = [];
const sampleFile = Buffer.from(fileFor(ibanOf("LT", "7300010000000001")), "base64");
for (let i = 0; i < 3; i++) {
  let started = performance.now();
  const parsed = parseCamt053(sampleFile);
  parseTimes.push(performance.now() - started);
  const rows = parsed.statements[0].transactions;
  const target = await newAccount();
  started = performance.now();
  await db.transaction((trx) =>
    storeRows(trx, account.companyId, { rows, keys: dedupeKeys(rows), bankAccountIds: rows.map(() => target.id), statementIds: rows.map(() => null) }),
  );
  storeTimes.push(performance.now() - started);
}
console.log(`\nbank/statements/import, ${entries} entries -> ${imported} transactions, ${runs} runs, load ${await load()}`);
console.log(`import: median ${(median(importTimes) / 1000).toFixed(2)} s (runs ${importTimes.map((t) => (t / 1000).toFixed(2)).join(", ")})`);
console.log(`of which reading the file (same file, in the bench process): median ${(median(parseTimes) / 1000).toFixed(2)} s`);
console.log(`of which writing its rows (one INSERT from unnest arrays, in the bench process): median ${(median(storeTimes) / 1000).toFixed(2)} s`);
console.log(`re-import (duplicates only): ${(duplicateTime / 1000).toFixed(2)} s`);
console.log(
  `baseline multi-row INSERT of the same rows: median ${(median(baselineTimes) / 1000).toFixed(2)} s   ratio import/baseline ${(median(importTimes) / median(baselineTimes)).toFixed(1)}`,
);
console.log("target: < 3 s");

// ----- 2. suggest-matches over 100,000 open invoices ------------------------------------------------------------
const seedStarted = Date.now();
await call("/v1/partners/create", { code: "C0000", name: "Pirkėjas 0 UAB", iban: ibanOf("LT", "1010000000000000") });
const template = await call("/v1/sales/invoices/create", {
  partnerCode: "C0000",
  issueDate: "2026-03-02",
  lines: [{ description: "Paslauga", quantity: "1", unitPriceExclVat: "100", vatRatePercent: "21" }],
});
const issued = await call("/v1/sales/invoices/issue", { id: template.id });
await db.transaction(async (trx) => {
  const c = account.companyId;
  await trx.raw(
    `insert into partners (company_id, code, name, is_customer, iban)
     select ?, 'C' || lpad(g::text, 4, '0'), 'Pirkėjas ' || g || ' UAB', true,
            'LT' || lpad((98 - (('10' || lpad(g::text, 14, '0') || '212900')::numeric % 97))::text, 2, '0') || '10' || lpad(g::text, 14, '0')
       from generate_series(1, 999) g`,
    [c],
  );
  // Copies of the issued invoice: numbers SF-2.., 1,000 customers, gross 1.00..5000.00 (so an amount is shared by ~20).
  await trx.raw(
    `insert into sale_invoices (company_id, type, status, series_prefix, series_id, sequence, number, partner_code, partner_snapshot, issue_date, due_date,
       currency, rate, rate_source, rate_date, net_total, vat_total, gross_total, gross_total_base, outstanding, journal_transaction_id, issued_at)
     select s.company_id, 'invoice', 'issued', s.series_prefix, s.series_id, s.sequence + g, 'SF-' || (s.sequence + g), 'C' || lpad((g % 1000)::text, 4, '0'), s.partner_snapshot,
            s.issue_date, s.issue_date + (g % 60), s.currency, s.rate, s.rate_source, s.rate_date, x.gross, 0, x.gross, x.gross, x.gross, s.journal_transaction_id, now()
       from sale_invoices s, generate_series(1, ? - 1) g, lateral (select ((g * 7919) % 500000 + 100)::numeric / 100 as gross) x
      where s.company_id = ? and s.id = ?`,
    [invoiceCount, c, issued.id],
  );
});
await db.raw("vacuum analyze sale_invoices, partners, partner_bank_ibans");
const open = Number((await db("sale_invoices").where("company_id", account.companyId).where("outstanding", ">", 0).count({ n: "*" }))[0].n);
console.log(`\nseeded ${open} open sales invoices of 1,000 customers in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s, vacuum analyze`);

const bank = await newAccount();
const sample = await db("sale_invoices")
  .where("company_id", account.companyId)
  .orderByRaw("md5(id::text)")
  .limit(20)
  .select("number", "outstanding", "partner_code");
const partnerIbans = new Map((await db("partners").where("company_id", account.companyId).select("code", "iban", "name")).map((p) => [p.code, p]));
const rows = sample.flatMap((inv, i) => [
  { bookingDate: "2026-03-20", amount: inv.outstanding, remittanceInformation: `Apmokėjimas už ${inv.number}`, bankReference: `S-NUM-${i}` },
  { bookingDate: "2026-03-20", amount: inv.outstanding, bankReference: `S-AMT-${i}` },
  { bookingDate: "2026-03-20", amount: "12.34", counterpartyIban: partnerIbans.get(inv.partner_code)!.iban, bankReference: `S-IBAN-${i}` },
  { bookingDate: "2026-03-20", amount: "99999.99", counterpartyName: partnerIbans.get(inv.partner_code)!.name.toUpperCase(), bankReference: `S-NAME-${i}` },
  { bookingDate: "2026-03-20", amount: "0.01", remittanceInformation: "Kava ir bandelė", bankReference: `S-NONE-${i}` },
]);
await call("/v1/bank/transactions/import", { bankAccountId: bank.id, transactions: rows });
const ids: string[] = (
  await db("bank_transactions").where({ company_id: account.companyId, bank_account_id: bank.id }).orderBy("bank_reference").select("id")
).map((r) => r.id);

const timed = async (path: string, body: (id: string) => unknown) => {
  for (let i = 0; i < 10; i++) await call(path, body(ids[i % ids.length]));
  const times: number[] = [];
  let candidates = 0;
  for (let i = 0; i < requests; i++) {
    const started = performance.now();
    const r = await call(path, body(ids[i % ids.length]));
    times.push(performance.now() - started);
    candidates += r.candidates?.length ?? 0;
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), candidates: candidates / requests };
};
const baseline = await timed("/v1/bank/transactions/get", (id) => ({ id }));
const suggest = await timed("/v1/bank/transactions/suggest-matches", (id) => ({ transactionId: id }));
console.log(`${requests} sequential requests over ${ids.length} transactions (number in text, amount only, IBAN, name, nothing), load ${await load()}`);
console.log(`baseline bank/transactions/get:  p50 ${baseline.p50.toFixed(1)} ms   p99 ${baseline.p99.toFixed(1)} ms`);
console.log(
  `suggest-matches:                 p50 ${suggest.p50.toFixed(1)} ms   p99 ${suggest.p99.toFixed(1)} ms   ${suggest.candidates.toFixed(1)} candidates on average   ratio p50 to baseline ${(suggest.p50 / baseline.p50).toFixed(1)}`,
);
console.log("target: p50 < 50 ms");

await stopChild(api);
await database.close();
