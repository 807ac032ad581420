// `npm run bench -- faults`: the fault battery (issue 7). Under a mixed write load — numbered journal postings and
// partner creations, each with an Idempotency-Key and retried until acknowledged, plus reads — it
//   (a) kills the API process with SIGKILL and starts it again,
//   (b) terminates every database connection of the API process (the process itself keeps running),
//   (c) kills the worker process with SIGKILL in the middle of a job and starts it again,
// then checks that every acknowledged write exists, that no write is partial (every transaction balanced, with its
// lines), that numbering is gapless, that no retried request executed twice, that every mutation has its audit
// record, and that the job of the killed worker completed. It prints, per fault: requests, acknowledged writes,
// lost writes (must be 0), 5xx answers during the fault, and seconds until the service answered again.
// Env: BENCH_CLIENTS (default 12), BENCH_PHASE_SECONDS (default 6), DATABASE_URL (else embedded PostgreSQL).
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { ecbXml, startEcbServer } from "../test/support/ecb-server.js";
import { benchDatabase, benchTenant, freePort, killHard, startBenchApi, startChild, stopChild } from "./lib.js";

const clients = Number(process.env.BENCH_CLIENTS ?? 12);
const phaseSeconds = Number(process.env.BENCH_PHASE_SECONDS ?? 6);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const database = await benchDatabase();
const { db } = database;
const tenant = await benchTenant(db);
const ecb = await startEcbServer();
// The history file answers after 3 s: long enough to kill the worker in the middle of the job.
const slowFolder = ecb.serve("slow", { hist: { body: ecbXml([{ date: "2026-03-02", rates: { USD: "1.0812", GBP: "0.8421" } }]), delayMs: 3000 } });

const port = await freePort();
const apiEnv = { RATE_LIMIT_PER_MINUTE: "100000000", DB_POOL_MAX: "10", LOG_LEVEL: "warn", EXCHANGE_RATES_URL: slowFolder };
const startApi = () => startBenchApi(database.connectionString, apiEnv, port);
const startWorkerProcess = async (): Promise<ChildProcess> => {
  const before = new Set((await db("worker_registry").distinct("process_id")).map((r) => r.process_id));
  return startChild(["src/main.ts", "--worker-only"], { ...apiEnv, DATABASE_URL: database.connectionString, WORKER_SWEEP_INTERVAL_MS: "500" }, "0", async () =>
    (await db("worker_registry").distinct("process_id")).some((r) => !before.has(r.process_id)),
  );
};
let api = await startApi();
let worker = await startWorkerProcess();
const url = api.url;
const headers = { authorization: `Bearer ${tenant.apiKey}`, "x-company-id": tenant.companyId, "content-type": "application/json" };

const call = async (path: string, body: unknown, idempotencyKey?: string) => {
  const res = await fetch(url + path, {
    method: "POST",
    headers: idempotencyKey ? { ...headers, "idempotency-key": idempotencyKey } : headers,
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};
for (const [path, body] of [
  ["/v1/ledger/accounts/apply-template", { template: "lt-standard" }],
  ["/v1/reference/series/create", { documentType: "journal", prefix: "FB", year: 2026 }],
] as const) {
  const res = await call(path, body);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
}

// ---- the load -------------------------------------------------------------------------------------------------

interface Counters {
  requests: number;
  serverErrors: number;
  networkErrors: number;
  acknowledged: number;
}
let counters: Counters = { requests: 0, serverErrors: 0, networkErrors: 0, acknowledged: 0 };
let lastSuccessAt = 0;
const ackedJournal = new Map<string, string>(); // idempotency key -> transaction id
const ackedPartners = new Map<string, string>(); // idempotency key -> partner code
let stopping = false;

/** Sends one write with its Idempotency-Key until it is acknowledged (a 200 or a replayed 200). */
async function untilAcknowledged(path: string, body: unknown, key: string): Promise<Record<string, any> | undefined> {
  while (!stopping) {
    counters.requests++;
    try {
      const res = await call(path, body, key);
      if (res.status >= 500) counters.serverErrors++;
      else lastSuccessAt = Date.now();
      if (res.status === 200) {
        counters.acknowledged++;
        return res.body;
      }
      if (res.status !== 409 && res.status < 500) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    } catch (error) {
      if ((error as Error).message.includes("answered")) throw error;
      counters.networkErrors++;
    }
    await sleep(50);
  }
  return undefined;
}

async function client(n: number): Promise<void> {
  for (let i = 0; !stopping; i++) {
    const roll = (n * 7 + i) % 4;
    const key = randomUUID();
    if (roll < 2) {
      const amount = `${(i % 50) + 1}.${String(n).padStart(2, "0")}`;
      const body = { date: "2026-03-02", description: `fault ${key}`, entries: [{ accountCode: "2410", debit: amount }, { accountCode: "4430", credit: amount }] };
      const res = await untilAcknowledged("/v1/ledger/journal/transactions/create", body, key);
      if (res) ackedJournal.set(key, res.id);
    } else if (roll === 2) {
      const code = `F-${key.slice(0, 13)}`;
      const res = await untilAcknowledged("/v1/partners/create", { name: "Gedimų Partneris", code }, key);
      if (res) ackedPartners.set(key, code);
    } else {
      counters.requests++;
      try {
        const res = await call("/v1/partners/list", { pageSize: 5 });
        if (res.status >= 500) counters.serverErrors++;
        else lastSuccessAt = Date.now();
      } catch {
        counters.networkErrors++;
        await sleep(50);
      }
    }
  }
}

const running = Array.from({ length: clients }, (_, n) => client(n));

interface PhaseResult {
  fault: string;
  requests: number;
  acknowledged: number;
  serverErrors: number;
  networkErrors: number;
  recoverySeconds: number | null;
  note: string;
}
const results: PhaseResult[] = [];

async function phase(fault: string, inject: () => Promise<{ since: number; note?: string }>): Promise<void> {
  counters = { requests: 0, serverErrors: 0, networkErrors: 0, acknowledged: 0 };
  await sleep(1000);
  const { since, note = "" } = await inject();
  // Recovery: the first successful answer after the fault began.
  const deadline = Date.now() + 60_000;
  while (lastSuccessAt < since && Date.now() < deadline) await sleep(20);
  const recovered = lastSuccessAt >= since ? (lastSuccessAt - since) / 1000 : null;
  await sleep(phaseSeconds * 1000);
  results.push({ fault, ...counters, recoverySeconds: recovered, note });
}

await phase("none (baseline)", async () => ({ since: Date.now() }));

await phase("(a) kill -9 of the API process, then a restart", async () => {
  const since = Date.now();
  await killHard(api.child);
  api = await startApi();
  return { since, note: `restart took ${((Date.now() - since) / 1000).toFixed(1)} s` };
});

await phase("(b) the API's database connections terminated", async () => {
  const since = Date.now();
  const { rows } = await db.raw<{ rows: unknown[] }>(
    "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = 'accounting-api' and pid <> pg_backend_pid()",
  );
  return { since, note: `${rows.length} connections terminated; no restart` };
});

let jobNote = "";
await phase("(c) kill -9 of the worker in the middle of a job, then a restart", async () => {
  await db.raw("select graphile_worker.add_job('backfill_exchange_rates', ?::json)", [JSON.stringify({ from: "2026-03-01", to: "2026-03-31" })]);
  while (!(await db("graphile_worker.jobs").where({ task_identifier: "backfill_exchange_rates" }).whereNotNull("locked_by").first())) await sleep(50);
  const since = Date.now();
  await killHard(worker);
  worker = await startWorkerProcess();
  while ((await db("graphile_worker.jobs").where({ task_identifier: "backfill_exchange_rates" }).first()) && Date.now() - since < 60_000) await sleep(100);
  const done = !(await db("graphile_worker.jobs").where({ task_identifier: "backfill_exchange_rates" }).first());
  const rates = Number((await db("exchange_rates").count({ n: "*" }))[0].n);
  jobNote = `job ${done ? "completed" : "NOT completed"} ${((Date.now() - since) / 1000).toFixed(1)} s after the kill (${rates} rates imported)`;
  return { since, note: jobNote };
});

stopping = true;
await Promise.all(running);

// ---- the checks -----------------------------------------------------------------------------------------------

const companyId = tenant.companyId;
const ids = [...ackedJournal.values()];
const found = new Set((await db("journal_transactions").where({ company_id: companyId }).whereIn("id", ids).pluck("id")) as string[]);
const lostJournal = ids.filter((id) => !found.has(id)).length;
const codes = [...ackedPartners.values()];
const foundCodes = new Set((await db("partners").where({ company_id: companyId }).whereIn("code", codes).pluck("code")) as string[]);
const lostPartners = codes.filter((c) => !foundCodes.has(c)).length;
const { rows: unbalanced } = await db.raw<{ rows: unknown[] }>(
  `select t.id from journal_transactions t left join journal_entries e on e.company_id = t.company_id and e.transaction_id = t.id
    where t.company_id = ? group by t.id having count(e.*) < 2 or sum(e.debit) <> sum(e.credit)`,
  [companyId],
);
const { rows: numbering } = await db.raw<{ rows: { n: string; max: number | null; distinct_numbers: string }[] }>(
  `select count(*)::text as n, max(split_part(number, '-', 2)::int) as max, count(distinct number)::text as distinct_numbers
     from journal_transactions where company_id = ? and document_type = 'manual'`,
  [companyId],
);
const { rows: twice } = await db.raw<{ rows: unknown[] }>(
  "select description from journal_transactions where company_id = ? group by description having count(*) > 1",
  [companyId],
);
const { rows: audit } = await db.raw<{ rows: { operation: string; n: string }[] }>(
  "select operation, count(*)::text as n from audit_log where company_id = ? and operation in ('ledger.journal.transactions.create', 'partners.create') group by operation",
  [companyId],
);
const auditOf = (op: string) => Number(audit.find((a) => a.operation === op)?.n ?? 0);
const journalRows = Number(numbering[0].n);
const partnerRows = Number((await db("partners").where({ company_id: companyId }).count({ n: "*" }))[0].n);

await stopChild(api.child);
await stopChild(worker);
await ecb.close();
await database.close();

console.log(`\nfault battery: ${clients} clients (journal postings and partner creations with Idempotency-Key, retried until acknowledged; reads), ${phaseSeconds} s after each fault\n`);
console.log("| fault | requests | acknowledged writes | 5xx | connection errors | seconds to answer again | |");
console.log("|---|---|---|---|---|---|---|");
for (const r of results) {
  console.log(`| ${r.fault} | ${r.requests} | ${r.acknowledged} | ${r.serverErrors} | ${r.networkErrors} | ${r.recoverySeconds?.toFixed(2) ?? "never"} | ${r.note} |`);
}
const checks: [string, boolean, string][] = [
  ["acknowledged journal postings lost", lostJournal === 0, `${lostJournal} of ${ids.length}`],
  ["acknowledged partners lost", lostPartners === 0, `${lostPartners} of ${codes.length}`],
  ["transactions unbalanced or without lines", unbalanced.length === 0, String(unbalanced.length)],
  ["numbering gapless (FB-1 .. FB-n)", numbering[0].max === journalRows && Number(numbering[0].distinct_numbers) === journalRows, `${journalRows} transactions, highest number ${numbering[0].max}`],
  ["a retried request executed twice", twice.length === 0, String(twice.length)],
  ["an audit record per posting", auditOf("ledger.journal.transactions.create") === journalRows, `${auditOf("ledger.journal.transactions.create")} records, ${journalRows} postings`],
  ["an audit record per partner", auditOf("partners.create") === partnerRows, `${auditOf("partners.create")} records, ${partnerRows} partners`],
  ["the killed worker's job completed", jobNote.includes(" completed"), jobNote],
];
console.log("\n| check | holds | figures |\n|---|---|---|");
for (const [name, holds, figures] of checks) console.log(`| ${name} | ${holds ? "yes" : "NO"} | ${figures} |`);
if (checks.some(([, holds]) => !holds)) process.exitCode = 1;
process.exit();
