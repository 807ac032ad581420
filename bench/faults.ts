// `npm run bench -- faults`: the fault battery (issue 7). Under a mixed write load — numbered journal postings and
// partner creations, each with an Idempotency-Key and retried until acknowledged, plus reads — it
//   (a) kills the API process with SIGKILL and starts it again,
//   (b) terminates every database connection of the API process (the process itself keeps running),
//   (c) kills the worker process with SIGKILL in the middle of a job and starts it again,
// then checks that every acknowledged write exists, that no write is partial (every transaction balanced, with its
// lines), that numbering is gapless, that no retried request executed twice, that every mutation has its audit
// record, and that the job of the killed worker completed. It prints, per fault: requests, acknowledged writes,
// lost writes (must be 0), 5xx answers during the fault, and seconds until the service answered again.
// Then (d), on a fresh API process with the mixed load stopped (issue 22, item 4): four accounts each validate a
// 32 MB historical-books package (migration/books/validate) over and over, in parallel, while another account
// reads one partner (partners/get) in a loop; its latency is compared with the same loop on the idle process just
// before (p50, p99, max, and the ratio of the p99s), with the process's peak RSS (VmHWM) before and after. Target:
// that account's p99 under 100 ms. One of the four also sends a second validation while its first runs: refused
// (429 upload.in_progress), counted.
// Env: BENCH_CLIENTS (default 12), BENCH_PHASE_SECONDS (default 6), BENCH_FAULTS (which faults, default
// `a,b,c,d`), BENCH_LARGE_VALIDATIONS (per account in (d), default 3), DATABASE_URL (else embedded PostgreSQL).
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import { loadavg } from "node:os";
import { ecbXml, startEcbServer } from "../test/support/ecb-server.js";
import { benchDatabase, benchTenant, freePort, killHard, startBenchApi, startChild, stopChild } from "./lib.js";

const clients = Number(process.env.BENCH_CLIENTS ?? 12);
const phaseSeconds = Number(process.env.BENCH_PHASE_SECONDS ?? 6);
const faults = new Set((process.env.BENCH_FAULTS ?? "a,b,c,d").split(",").map((f) => f.trim()));
const largeValidations = Number(process.env.BENCH_LARGE_VALIDATIONS ?? 3);
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
      const body = {
        date: "2026-03-02",
        description: `fault ${key}`,
        entries: [
          { accountCode: "2410", debit: amount },
          { accountCode: "4430", credit: amount },
        ],
      };
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

if (faults.has("a"))
  await phase("(a) kill -9 of the API process, then a restart", async () => {
    const since = Date.now();
    await killHard(api.child);
    api = await startApi();
    return { since, note: `restart took ${((Date.now() - since) / 1000).toFixed(1)} s` };
  });

if (faults.has("b"))
  await phase("(b) the API's database connections terminated", async () => {
    const since = Date.now();
    const { rows } = await db.raw<{ rows: unknown[] }>(
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = 'accounting-api' and pid <> pg_backend_pid()",
    );
    return { since, note: `${rows.length} connections terminated; no restart` };
  });

let jobNote = "";
if (faults.has("c"))
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

const large = faults.has("d") ? await largeBodyPhase() : undefined;

await stopChild(api.child);
await stopChild(worker);
await ecb.close();
await database.close();

console.log(
  `\nfault battery: ${clients} clients (journal postings and partner creations with Idempotency-Key, retried until acknowledged; reads), ${phaseSeconds} s after each fault\n`,
);
console.log("| fault | requests | acknowledged writes | 5xx | connection errors | seconds to answer again | |");
console.log("|---|---|---|---|---|---|---|");
for (const r of results) {
  console.log(
    `| ${r.fault} | ${r.requests} | ${r.acknowledged} | ${r.serverErrors} | ${r.networkErrors} | ${r.recoverySeconds?.toFixed(2) ?? "never"} | ${r.note} |`,
  );
}
const checks: [string, boolean, string][] = [
  ["acknowledged journal postings lost", lostJournal === 0, `${lostJournal} of ${ids.length}`],
  ["acknowledged partners lost", lostPartners === 0, `${lostPartners} of ${codes.length}`],
  ["transactions unbalanced or without lines", unbalanced.length === 0, String(unbalanced.length)],
  [
    "numbering gapless (FB-1 .. FB-n)",
    numbering[0].max === journalRows && Number(numbering[0].distinct_numbers) === journalRows,
    `${journalRows} transactions, highest number ${numbering[0].max}`,
  ],
  ["a retried request executed twice", twice.length === 0, String(twice.length)],
  [
    "an audit record per posting",
    auditOf("ledger.journal.transactions.create") === journalRows,
    `${auditOf("ledger.journal.transactions.create")} records, ${journalRows} postings`,
  ],
  ["an audit record per partner", auditOf("partners.create") === partnerRows, `${auditOf("partners.create")} records, ${partnerRows} partners`],
  ...(faults.has("c") ? [["the killed worker's job completed", jobNote.includes(" completed"), jobNote] as [string, boolean, string]] : []),
];
if (large) {
  const f = (ms: number) => ms.toFixed(1);
  console.log(
    `\n(d) another account's partners/get (${large.probes} clients, one request each per 50 ms at most) while four accounts each validate a ${large.megabytes.toFixed(1)} MB package ${largeValidations} times in parallel; load average ${large.load}`,
  );
  console.log("| | requests | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|");
  for (const [name, l] of [
    ["idle (the same process, just before)", large.idle],
    ["during the four validations", large.during],
  ] as const)
    console.log(`| ${name} | ${l.n} | ${f(l.p50)} | ${f(l.p99)} | ${f(l.max)} |`);
  console.log(
    `p99 during / p99 idle: ${(large.during.p99 / large.idle.p99).toFixed(1)}; validations answered 200: ${large.ok}, other answers: ${JSON.stringify(large.other)}; took ${large.seconds.toFixed(1)} s`,
  );
  console.log(`the same account's second validation while its first ran: ${JSON.stringify(large.sameAccount)}`);
  console.log(`API process peak RSS (VmHWM): ${large.rssBefore} MiB before the validations, ${large.rssAfter} MiB after`);
  checks.push([
    "another account's p99 during four parallel 32 MB validations under 100 ms",
    large.during.p99 < 100,
    `${f(large.during.p99)} ms (idle ${f(large.idle.p99)} ms)`,
  ]);
  checks.push(["every validation answered 200", large.ok === 4 * largeValidations, `${large.ok} of ${4 * largeValidations}`]);
}
console.log("\n| check | holds | figures |\n|---|---|---|");
for (const [name, holds, figures] of checks) console.log(`| ${name} | ${holds ? "yes" : "NO"} | ${figures} |`);
if (checks.some(([, holds]) => !holds)) process.exitCode = 1;
process.exit();

// ---- (d) large bodies beside another tenant --------------------------------------------------------------------

/** A ~32 MB package valid for a company with the lt-standard chart: partners, items and padded journal history. */
function largePackage(): Buffer {
  const N = { partners: 20_000, items: 20_000, journal: 80_000 };
  const make = (pad: string) => ({
    cutoverDate: "2026-07-01",
    source: "Bench ERP",
    partners: Array.from({ length: N.partners }, (_, i) => ({ code: `P${100000 + i}`, name: `UAB Partneris ${i}`, isSupplier: i % 4 === 0 })),
    items: Array.from({ length: N.items }, (_, i) => ({ code: `I${100000 + i}`, name: `Prekė ${i}`, unit: "vnt", salePriceExclVat: `${10 + (i % 500)}.50` })),
    journal: Array.from({ length: N.journal }, (_, i) => {
      const a = 1000 + ((i * 7919) % 900000);
      const b = Math.floor(a / 3);
      const cents = (n: number) => (n / 100).toFixed(2);
      return {
        date: `2026-0${1 + (i % 6)}-${String(1 + (i % 28)).padStart(2, "0")}`,
        description: `Operacija ${i} ${pad}`,
        reference: `DOK-${i}`,
        entries: [
          { accountCode: "2410", debit: cents(a) },
          { accountCode: "5000", credit: cents(b) },
          { accountCode: "2710", credit: cents(a - b) },
        ],
      };
    }),
  });
  const limit = 32 * 1024 * 1024 - 4096;
  const bare = Buffer.byteLength(JSON.stringify(make("")));
  return Buffer.from(JSON.stringify(make("x".repeat(Math.max(0, Math.floor((limit - bare) / N.journal))))));
}

/** POSTs a prepared body (no JSON.stringify per request: the load generator shares the machine). */
function postRaw(agent: http.Agent, base: string, path: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { agent, hostname, port, path, method: "POST", headers: { ...headers, "content-type": "application/json", "content-length": body.length } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

function vmHwmMiB(pid: number): number {
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024);
}

interface Latencies {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

async function largeBodyPhase() {
  const body = largePackage();
  // A fresh API process: its peak RSS is this phase's.
  await stopChild(api.child);
  api = await startApi();
  const base = api.url;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const json = (text: string) => (text ? (JSON.parse(text) as Record<string, any>) : {});
  const tenantHeaders = (t: { apiKey: string; companyId: string }) => ({ authorization: `Bearer ${t.apiKey}`, "x-company-id": t.companyId });
  const uploaders = [];
  for (let i = 0; i < 4; i++) {
    const t = await benchTenant(db);
    const res = await postRaw(agent, base, "/v1/ledger/accounts/apply-template", tenantHeaders(t), Buffer.from(JSON.stringify({ template: "lt-standard" })));
    if (res.status !== 200) throw new Error(`apply-template: ${res.status} ${res.text}`);
    uploaders.push(t);
  }
  const other = await benchTenant(db);
  const created = await postRaw(agent, base, "/v1/partners/create", tenantHeaders(other), Buffer.from(JSON.stringify({ code: "KITAS-1", name: "UAB Kitas" })));
  if (created.status !== 200) throw new Error(`partners/create: ${created.status} ${created.text}`);
  const getBody = Buffer.from(JSON.stringify({ id: json(created.text).id }));

  const probes = 2;
  const paceMs = 50;
  /**
   * Another account's partners/get on `probes` connections until `done()`, each sending one every `paceMs` (or as soon
   * as its previous answer came, when that took longer): a light, steady demand, the same whether the uploads run or
   * not, so that its latencies say what the uploads cost it. Its latencies.
   */
  const probe = async (done: () => boolean): Promise<Latencies> => {
    const times: number[] = [];
    await Promise.all(
      Array.from({ length: probes }, async () => {
        while (!done()) {
          const started = performance.now();
          const res = await postRaw(agent, base, "/v1/partners/get", tenantHeaders(other), getBody);
          if (res.status !== 200) throw new Error(`partners/get: ${res.status} ${res.text}`);
          const took = performance.now() - started;
          times.push(took);
          if (took < paceMs) await sleep(paceMs - took);
        }
      }),
    );
    times.sort((a, b) => a - b);
    const at = (p: number) => times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)];
    return { n: times.length, p50: at(50), p99: at(99), max: times[times.length - 1] };
  };

  // Warm the worker thread (its first start compiles the contract's validators), then measure the idle process.
  const warm = await postRaw(
    agent,
    base,
    "/v1/migration/books/validate",
    tenantHeaders(uploaders[0]),
    Buffer.from(JSON.stringify({ cutoverDate: "2026-07-01" })),
  );
  if (warm.status !== 200) throw new Error(`warm-up validate: ${warm.status} ${warm.text}`);
  const idleUntil = performance.now() + 8000;
  const idle = await probe(() => performance.now() > idleUntil);
  const rssBefore = vmHwmMiB(api.child.pid!);

  let ok = 0;
  const other4: Record<string, number> = {};
  const sameAccount: Record<string, number> = {};
  let uploading = 4;
  const started = performance.now();
  const deadline = started + 300_000;
  const uploads = uploaders.map(async (t, i) => {
    for (let n = 0; n < largeValidations && performance.now() < deadline; ) {
      // The first account also sends a second validation while its first runs (once, after a moment).
      const second = i === 0 && n === 0 ? sleep(500).then(() => postRaw(agent, base, "/v1/migration/books/validate", tenantHeaders(t), body)) : undefined;
      const res = await postRaw(agent, base, "/v1/migration/books/validate", tenantHeaders(t), body);
      if (second) {
        const s = await second;
        const key = `${s.status} ${json(s.text).error?.key ?? ""}`.trim();
        sameAccount[key] = (sameAccount[key] ?? 0) + 1;
      }
      if (res.status === 200) {
        ok++;
        n++;
      } else {
        const key = `${res.status} ${json(res.text).error?.key ?? ""}`.trim();
        other4[key] = (other4[key] ?? 0) + 1;
        if (res.status === 429) await sleep(1000);
        else n++;
      }
    }
    uploading--;
  });
  const during = await probe(() => uploading === 0);
  await Promise.all(uploads);
  const seconds = (performance.now() - started) / 1000;
  const rssAfter = vmHwmMiB(api.child.pid!);
  agent.destroy();
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
  return { probes, megabytes: body.length / 1024 / 1024, idle, during, ok, other: other4, sameAccount, seconds, rssBefore, rssAfter, load };
}
