// `npm run bench -- scale-out` (issue 15): the service as operators run it — Debian's PgBouncer in transaction
// pooling in front of PostgreSQL, two API processes on it (DATABASE_URL = PgBouncer, DIRECT_DATABASE_URL = the
// database), one worker on the direct connection, Debian's nginx in front of the two API processes. It drives a
// mixed load through nginx for BENCH_SECONDS (default 30): reads, numbered journal postings with an Idempotency-Key
// (every fifth sent twice at once, as a client retrying too early would), partner creations; meanwhile a key with a
// limit of 60 requests per minute sends 100 requests through nginx, which spreads them over both processes. Then it
// kills one API process with SIGKILL under load and keeps going for BENCH_KILL_SECONDS (default 10).
// A webhook subscription (journal_transaction.posted, partner.created) points at a local receiver that verifies
// every delivery's signature as an integrator would; after the load, the worker gets up to 60 s to drain.
// It checks: no 5xx during the load; every event of the load delivered with a valid signature; the rate limit exact across both processes (60 answered, 40 refused);
// every acknowledged posting present and balanced, numbering gapless, each Idempotency-Key executed once; after
// the kill, nginx keeps serving and nothing acknowledged is lost. Exit code 1 when a check fails.
// Skips (exit 0, with a message) when pgbouncer or nginx is not installed; .ci/run installs them.
import type { ChildProcess } from "node:child_process";
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { installed, NGINX, PGBOUNCER, startNginx, startPgBouncer } from "./infra.js";
import { benchDatabase, benchTenant, killHard, startBenchApi, startChild, stopChild } from "./lib.js";
import { bootstrapAccount, setKeyLimit } from "../src/account/accounts.js";

if (!installed(PGBOUNCER) || !installed(NGINX)) {
  console.log(`scale-out: skipped — ${[PGBOUNCER, NGINX].filter((p) => !installed(p)).join(" and ")} not installed (apt-get install pgbouncer nginx-light)`);
  process.exit(0);
}

const loadSeconds = Number(process.env.BENCH_SECONDS ?? 30);
const killSeconds = Number(process.env.BENCH_KILL_SECONDS ?? 10);
const clients = Number(process.env.BENCH_CLIENTS ?? 16);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const database = await benchDatabase();
const { db } = database;
const bouncer = await startPgBouncer(database.connectionString, { poolSize: 20 });
const tenant = await benchTenant(db);
// TRUST_PROXY=true: behind nginx, the client address is the one nginx appended to X-Forwarded-For.
const env = {
  DIRECT_DATABASE_URL: database.connectionString,
  TRUST_PROXY: "true",
  DB_POOL_MAX: "10",
  RATE_LIMIT_PER_MINUTE: "100000000",
  LOG_LEVEL: "warn",
  WEBHOOK_ALLOW_PRIVATE_URLS: "true",
};

// ---- the webhook receiver: verifies x-service-signature-v2 (t=<unix>,v1=<hex HMAC-SHA256 of "t.body">) --------
let webhookSecret = "";
const delivered = new Map<string, number>(); // event id -> deliveries received
let badSignatures = 0;
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8");
    const header = String(req.headers["x-service-signature-v2"] ?? "");
    const t = /(?:^|,)t=(\d+)/.exec(header)?.[1];
    const expected = t ? createHmac("sha256", webhookSecret).update(`${t}.${body}`).digest() : undefined;
    const valid =
      expected !== undefined &&
      Math.abs(Date.now() / 1000 - Number(t)) < 300 &&
      [...header.matchAll(/v1=([0-9a-f]{64})/g)].some((m) => timingSafeEqual(Buffer.from(m[1], "hex"), expected));
    if (!valid) {
      badSignatures++;
      res.writeHead(400).end();
      return;
    }
    const id = (JSON.parse(body) as { id: string }).id;
    delivered.set(id, (delivered.get(id) ?? 0) + 1);
    res.writeHead(204).end();
  });
});
await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
const apiA = await startBenchApi(bouncer.url, env);
const apiB = await startBenchApi(bouncer.url, env);
const worker: ChildProcess = await startChild(
  ["src/main.ts", "--worker-only"],
  { ...env, DATABASE_URL: bouncer.url },
  "0",
  async () => (await db("worker_registry").count({ n: "*" }))[0].n !== "0",
);
const nginx = await startNginx([apiA.url, apiB.url]);

const headers = { authorization: `Bearer ${tenant.apiKey}`, "x-company-id": tenant.companyId, "content-type": "application/json" };
interface Answer {
  status: number;
  body: Record<string, any>;
  ms: number;
}
async function call(path: string, body: unknown, extra: Record<string, string> = {}): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(nginx.url + path, {
    method: "POST",
    headers: { ...headers, ...extra },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let parsed: Record<string, any> = {};
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = { raw: text.slice(0, 200) };
  }
  return { status: res.status, body: parsed, ms: performance.now() - started };
}
for (const [path, body] of [
  ["/v1/ledger/accounts/apply-template", { template: "lt-standard" }],
  ["/v1/reference/series/create", { documentType: "journal", prefix: "SO", year: 2026 }],
  ["/v1/webhooks/subscriptions/create", { url: receiverUrl, eventTypes: ["journal_transaction.posted", "partner.created"] }],
] as const) {
  const res = await call(path, body);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  if (path.includes("webhooks")) webhookSecret = res.body.secret;
}

// ---- load ------------------------------------------------------------------------------------------------------
interface Tally {
  requests: number;
  byStatus: Map<number, number>;
  networkErrors: number;
  latencies: number[];
}
const tally = (): Tally => ({ requests: 0, byStatus: new Map(), networkErrors: 0, latencies: [] });
let current = tally();
const count = (a: Answer) => {
  current.requests++;
  current.byStatus.set(a.status, (current.byStatus.get(a.status) ?? 0) + 1);
  current.latencies.push(a.ms);
};
const acked = new Map<string, string>(); // idempotency key -> transaction id
let stopping = false;

async function post(key: string, body: unknown): Promise<void> {
  while (!stopping) {
    try {
      const a = await call("/v1/ledger/journal/transactions/create", body, { "idempotency-key": key });
      count(a);
      if (a.status === 200) {
        acked.set(key, a.body.id);
        return;
      }
      if (a.status !== 409 && a.status < 500) throw new Error(`posting answered ${a.status}: ${JSON.stringify(a.body)}`);
    } catch (error) {
      if ((error as Error).message.startsWith("posting answered")) throw error;
      current.networkErrors++;
    }
    await sleep(30);
  }
}

async function client(n: number): Promise<void> {
  for (let i = 0; !stopping; i++) {
    const kind = (n + i) % 5;
    try {
      if (kind <= 1) {
        const key = randomUUID();
        const amount = `${(i % 90) + 10}.${String(n % 100).padStart(2, "0")}`;
        const body = {
          date: "2026-05-04",
          description: `so ${key}`,
          entries: [
            { accountCode: "2410", debit: amount },
            { accountCode: "4430", credit: amount },
          ],
        };
        // Every other posting is sent twice at once, as an impatient client would.
        await (kind === 0 ? Promise.all([post(key, body), post(key, body)]) : post(key, body));
      } else if (kind === 2) {
        count(await call("/v1/partners/create", { name: "Skalė", code: `S-${randomUUID().slice(0, 18)}` }));
      } else {
        count(await call(kind === 3 ? "/v1/partners/list" : "/v1/ledger/journal/transactions/list", { pageSize: 20 }));
      }
    } catch (error) {
      if ((error as Error).message.startsWith("posting answered")) throw error;
      current.networkErrors++;
      await sleep(30);
    }
  }
}

// The rate limit, exact across both processes: a key of its own, limited to 60 a minute, sends 100 requests.
const limited = await bootstrapAccount(db, "limited");
await setKeyLimit(db, limited.keyId, 60);
const secondsLeft = async () => Number((await db.raw("select 60 - extract(second from now()) as s")).rows[0].s);
if ((await secondsLeft()) < 15) await sleep((await secondsLeft()) * 1000 + 500);
const limitAnswers = await Promise.all(
  Array.from({ length: 100 }, () =>
    fetch(`${nginx.url}/v1/account/companies/list`, {
      method: "POST",
      headers: { authorization: `Bearer ${limited.apiKey}`, "content-type": "application/json" },
      body: "{}",
    }).then((r) => r.status),
  ),
);
const rateLimit = { ok: limitAnswers.filter((s) => s === 200).length, refused: limitAnswers.filter((s) => s === 429).length };

const started = Date.now();
const running = Array.from({ length: clients }, (_, n) => client(n));
await sleep(loadSeconds * 1000);
const loadPhase = current;
const loadElapsed = (Date.now() - started) / 1000;

// ---- kill one API process under load ---------------------------------------------------------------------------
current = tally();
const ackedBeforeKill = acked.size;
const killedAt = Date.now();
await killHard(apiA.child);
await sleep(killSeconds * 1000);
const killPhase = current;
stopping = true;
await Promise.all(running);

// ---- checks ----------------------------------------------------------------------------------------------------
const ids = [...acked.values()];
const present = Number((await db("journal_transactions").where({ company_id: tenant.companyId }).whereIn("id", ids).count({ n: "*" }))[0].n);
const { rows: unbalanced } = await db.raw<{ rows: unknown[] }>(
  `select t.id from journal_transactions t left join journal_entries e on e.company_id = t.company_id and e.transaction_id = t.id
    where t.company_id = ? group by t.id having count(e.*) < 2 or sum(e.debit) <> sum(e.credit)`,
  [tenant.companyId],
);
const { rows: numbers } = await db.raw<{ rows: { n: string; max: number; distinct_numbers: string }[] }>(
  "select count(*)::text as n, max(split_part(number, '-', 2)::int) as max, count(distinct number)::text as distinct_numbers from journal_transactions where company_id = ?",
  [tenant.companyId],
);
const { rows: twice } = await db.raw<{ rows: unknown[] }>(
  "select description from journal_transactions where company_id = ? group by description having count(*) > 1",
  [tenant.companyId],
);
const postings = Number(numbers[0].n);

// Every event of the load delivered (at least once) with a valid signature: the worker gets up to 60 s to drain.
const eventIds: string[] = (await db("webhook_events").where({ company_id: tenant.companyId }).select("id")).map((r: { id: string }) => String(r.id));
const drainStarted = Date.now();
while (Date.now() - drainStarted < 60_000 && eventIds.some((id) => !delivered.has(id))) await sleep(250);
const undelivered = eventIds.filter((id) => !delivered.has(id)).length;
const deliveredTwice = eventIds.filter((id) => (delivered.get(id) ?? 0) > 1).length;
receiver.close();

await stopChild(apiB.child);
await stopChild(worker);
await nginx.stop();
await bouncer.stop();
await database.close();

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(0) : "-";
};
const statuses = (t: Tally) =>
  [...t.byStatus]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}: ${n}`)
    .join(", ");
const fivexx = (t: Tally) => [...t.byStatus].filter(([s]) => s >= 500).reduce((sum, [, n]) => sum + n, 0);

console.log(
  `\nscale-out: nginx -> 2 API processes -> PgBouncer 1.18 (transaction pooling) -> PostgreSQL; 1 worker on the direct connection; ${clients} clients`,
);
console.log(
  `load, ${loadElapsed.toFixed(0)} s: ${loadPhase.requests} requests (${(loadPhase.requests / loadElapsed).toFixed(0)}/s), p50 ${percentile(loadPhase.latencies, 50)} ms, p99 ${percentile(loadPhase.latencies, 99)} ms; statuses ${statuses(loadPhase)}; connection errors ${loadPhase.networkErrors}`,
);
console.log(
  `after killing one API process (SIGKILL), ${killSeconds} s: ${killPhase.requests} requests; statuses ${statuses(killPhase)}; connection errors ${killPhase.networkErrors}; postings acknowledged ${acked.size - ackedBeforeKill}`,
);
const checks: [string, boolean, string][] = [
  ["no 5xx under load", fivexx(loadPhase) === 0 && loadPhase.networkErrors === 0, `${fivexx(loadPhase)} 5xx, ${loadPhase.networkErrors} connection errors`],
  [
    "rate limit exact across both processes",
    rateLimit.ok === 60 && rateLimit.refused === 40,
    `${rateLimit.ok} answered, ${rateLimit.refused} refused (limit 60 of 100)`,
  ],
  ["every acknowledged posting present", present === ids.length, `${present} of ${ids.length}`],
  ["every posting balanced, with its lines", unbalanced.length === 0, `${unbalanced.length} not`],
  ["numbering gapless", numbers[0].max === postings && Number(numbers[0].distinct_numbers) === postings, `${postings} postings, SO-1 .. SO-${numbers[0].max}`],
  ["each Idempotency-Key executed once", twice.length === 0, `${twice.length} executed twice`],
  [
    "every event delivered, signatures valid",
    eventIds.length > 0 && undelivered === 0 && badSignatures === 0,
    `${eventIds.length} events, ${undelivered} undelivered after ${((Date.now() - drainStarted) / 1000).toFixed(1)} s of drain, ${badSignatures} bad signatures, ${deliveredTwice} delivered twice (at least once)`,
  ],
  [
    "nginx kept serving after the kill",
    (killPhase.byStatus.get(200) ?? 0) > 0 && acked.size > ackedBeforeKill,
    `${killPhase.byStatus.get(200) ?? 0} answers of 200 in the ${killSeconds} s after the kill (${(Date.now() - killedAt) / 1000} s)`,
  ],
];
console.log("\n| check | holds | figures |\n|---|---|---|");
for (const [name, holds, figures] of checks) console.log(`| ${name} | ${holds ? "yes" : "NO"} | ${figures} |`);
if (checks.some(([, holds]) => !holds)) process.exitCode = 1;
process.exit();
