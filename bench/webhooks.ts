// Webhook delivery (issue 9): events emitted through the API (partners/create at a steady offered rate) and delivered
// by a worker process to a local receiver, through the whole path — outbox row in the request's transaction, job,
// claim, signed POST, outcome. Prints deliveries per second and commit-to-receipt latency p50/p99 (receipt time minus
// the commit time of the event's transaction, which the embedded PostgreSQL records with track_commit_timestamp; on
// DATABASE_URL without that setting, minus the event's createdAt, its transaction's start), per run and the median of
// BENCH_RUNS runs. Baseline in the same run: bare signed POSTs from one Node process to the same
// receiver (no database), as deliveries/s can only be a fraction of that.
// Target: >= 300 deliveries/s with p50 < 200 ms.
// Env: BENCH_RUNS (3), BENCH_SECONDS (10), BENCH_RATE (events/s offered, 75: 300 deliveries/s with 4 subscriptions), BENCH_SUBSCRIPTIONS (4 per company:
// each event is delivered to each), BENCH_CONNECTIONS (16), WEBHOOK_CONCURRENCY (worker, 16), DATABASE_URL.
import { createServer, request, Agent } from "node:http";
import type { AddressInfo } from "node:net";
import autocannon from "autocannon";
import { signatureHeaders } from "../src/webhooks/signing.js";
import { bootstrapAccount, setKeyLimit } from "../src/account/accounts.js";
import { benchDatabase, startBenchApi, startChild, stopChild } from "./lib.js";

const runs = Number(process.env.BENCH_RUNS ?? 3);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const rate = Number(process.env.BENCH_RATE ?? 75);
const subscriptions = Number(process.env.BENCH_SUBSCRIPTIONS ?? 4);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);

// ---- the receiver: records when each (event, subscription path) arrived ---------------------------------------
const receipts = new Map<string, { at: number; createdAt: number; id: string }>();
let _received = 0;
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const at = Date.now();
    _received++;
    try {
      const event = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      if (event.id) receipts.set(`${req.url}|${event.id}`, { at, createdAt: Date.parse(event.createdAt), id: event.id });
    } catch {
      // the baseline's bodies are not recorded
    }
    res.writeHead(200);
    res.end();
  });
});
await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

// ---- the product: API and worker as processes of their own -----------------------------------------------------
const database = await benchDatabase({ settings: { track_commit_timestamp: "on" } });
const { db } = database;
const env = { WEBHOOK_ALLOW_PRIVATE_URLS: "true", LOG_LEVEL: "warn" };
const { child: api, url } = await startBenchApi(database.connectionString, { ...env, DB_POOL_MAX: "20" });
const worker = await startChild(
  ["src/main.ts", "--worker-only"],
  { DATABASE_URL: database.connectionString, ...env, DB_POOL_MAX: "20", WEBHOOK_CONCURRENCY: process.env.WEBHOOK_CONCURRENCY ?? "16" },
  "0,1",
  async () => Number((await db("worker_registry").count({ n: "*" }))[0].n) > 0,
);

// ---- baseline: bare signed POSTs to the receiver, 32 at a time, for 3 s ------------------------------------------
async function baseline(): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  const body = JSON.stringify({ id: "baseline", data: { name: "x".repeat(300) } });
  let sent = 0;
  const end = Date.now() + 3000;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const t = Math.floor(Date.now() / 1000);
      const req = request(
        `${receiverUrl}/baseline`,
        { method: "POST", agent, headers: { "content-type": "application/json", ...signatureHeaders(["whsec_baseline"], t, body) } },
        (res) => {
          res.resume();
          res.on("end", () => resolve());
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (Date.now() < end) {
        await one();
        sent++;
      }
    }),
  );
  agent.destroy();
  return sent / 3;
}

let commitClock = "commit";
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

interface RunResult {
  events: number;
  deliveries: number;
  perSecond: number;
  p50: number;
  p99: number;
  emitted: number;
}

async function runOnce(n: number): Promise<RunResult> {
  // Each run has an account and company of its own.
  const tenant = await benchTenantNumbered(n);
  const headers = { authorization: `Bearer ${tenant.apiKey}`, "x-company-id": tenant.companyId, "content-type": "application/json" };
  const paths: string[] = [];
  for (let s = 0; s < subscriptions; s++) {
    const path = `/run${n}/sub${s}`;
    paths.push(path);
    const res = await fetch(`${url}/v1/webhooks/subscriptions/create`, {
      method: "POST",
      headers,
      body: JSON.stringify({ url: receiverUrl + path, eventTypes: ["partner.created"] }),
    });
    if (res.status !== 200) throw new Error(`subscription create: ${res.status} ${await res.text()}`);
  }
  let i = 0;
  const started = Date.now();
  const load = await autocannon({
    url: `${url}/v1/partners/create`,
    method: "POST",
    headers,
    connections,
    duration: seconds,
    overallRate: rate,
    requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ name: `Partneris ${i}`, code: `R${n}-P${i++}` }) }) }],
  });
  if (load.non2xx || load.errors) throw new Error(`partners/create: ${load.non2xx} non-2xx, ${load.errors} errors`);
  await new Promise((r) => setTimeout(r, 500)); // the last requests' transactions commit
  const events = await db("webhook_events").where({ company_id: tenant.companyId }).select("id");
  const expected = events.length * subscriptions;
  const deadline = Date.now() + 120_000;
  const mine = () => [...receipts.entries()].filter(([k]) => k.startsWith(`/run${n}/`));
  while (mine().length < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const got = mine().map(([, v]) => v);
  const last = Math.max(...got.map((g) => g.at));
  const committed = new Map<string, number>();
  const { rows } = await db
    .raw("select id, pg_xact_commit_timestamp(xmin) as at from webhook_events where company_id = ?", [tenant.companyId])
    .catch(() => ({ rows: [] }));
  for (const row of rows as { id: string; at: Date | null }[]) if (row.at) committed.set(row.id, new Date(row.at).getTime());
  commitClock = committed.size > 0 ? "commit" : "createdAt";
  const latencies = got.map((g) => g.at - (committed.get(g.id) ?? g.createdAt)).sort((a, b) => a - b);
  console.log(`  partners/create latency p50 ${load.latency.p50} ms p99 ${load.latency.p99} ms`);
  return {
    events: events.length,
    deliveries: got.length,
    perSecond: got.length / ((last - started) / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    emitted: load.requests.average,
  };
}

async function benchTenantNumbered(n: number) {
  const account = await bootstrapAccount(db, `bench ${n}`);
  await setKeyLimit(db, account.keyId, 1_000_000_000);
  const [company] = await db("companies")
    .insert({ account_id: account.accountId, name: `Bench ${n} UAB`, code: `BENCH${n}`, country_code: "LT", base_currency: "EUR", invoice_currency: "EUR" })
    .returning("id");
  return { ...account, companyId: company.id as string };
}

const baselinePerSecond = await baseline();
const results: RunResult[] = [];
try {
  for (let n = 1; n <= runs; n++) {
    const r = await runOnce(n);
    results.push(r);
    console.log(
      `run ${n}: ${r.events} events (${r.emitted.toFixed(0)}/s emitted) x ${subscriptions} subscriptions -> ${r.deliveries} deliveries, ` +
        `${r.perSecond.toFixed(0)} deliveries/s, commit-to-receipt p50 ${r.p50} ms p99 ${r.p99} ms`,
    );
  }
} finally {
  await stopChild(worker);
  await stopChild(api);
  await database.close();
  receiver.close();
}

const perSecond = median(results.map((r) => r.perSecond));
console.log(
  `\nwebhooks: partners/create at ${rate} events/s for ${seconds} s, each event to ${subscriptions} subscriptions (one worker process, WEBHOOK_CONCURRENCY ${process.env.WEBHOOK_CONCURRENCY ?? 16}); median of ${runs} runs`,
);
console.log(
  `${perSecond.toFixed(0)} deliveries/s   ${commitClock === "commit" ? "commit" : "transaction start"}-to-receipt p50 ${median(results.map((r) => r.p50))} ms   p99 ${median(results.map((r) => r.p99))} ms`,
);
console.log(
  `baseline (same run): bare signed POSTs to the receiver ${baselinePerSecond.toFixed(0)}/s; deliveries/s = ${(perSecond / baselinePerSecond).toFixed(3)} x baseline`,
);
console.log("target: >= 300 deliveries/s, p50 < 200 ms");
const lost = results.some((r) => r.deliveries < r.events * subscriptions);
if (lost) {
  console.error("some deliveries did not arrive within 120 s");
  process.exitCode = 1;
}
