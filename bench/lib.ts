// Shared pieces of the benchmark programs: a database of their own, child servers, autocannon runs.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, readFileSync } from "node:fs";
import http from "node:http";
import { createServer } from "node:net";
import { cpus, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import pg from "pg";
import { createDb, withDatabase, type Db } from "../src/db/connection.js";
import { startEmbeddedPostgres } from "../src/db/embedded.js";
import { bootstrapAccount, setKeyLimit } from "../src/account/accounts.js";
import { migrate } from "../src/db/migrate.js";
import { SERVER_NODE_FLAGS } from "../src/node-flags.js";
import { applyTemplate } from "../src/ledger/accounts.js";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

// The API and worker processes a benchmark starts use DATABASE_URL, so they need a secrets key (src/secrets.ts).
process.env.SECRETS_KEY ||= randomBytes(32).toString("base64");

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface BenchDatabase {
  db: Db;
  connectionString: string;
  close(): Promise<void>;
}

/**
 * A fresh, migrated database on DATABASE_URL's server or on a throw-away embedded one. `everyCpu`: the embedded
 * server runs on every CPU (see unpinServer), for the benchmarks of throughput where the database does most of the
 * work; without it, it stays on the load generator's CPU and the API process has CPU 0 to itself, which is what the
 * benchmarks of the API's own cost per request measure (`platform`: 10.5% of bare Koa pinned so, 5.4% with the
 * database on every CPU, one run each on 2026-11-26).
 */
export async function benchDatabase(options: { settings?: Record<string, string>; everyCpu?: boolean } = {}): Promise<BenchDatabase> {
  let adminUrl = process.env.DATABASE_URL;
  let stopEmbedded = async () => undefined as void;
  if (!adminUrl) {
    const dataDir = mkdtempSync(join(tmpdir(), "acct-bench-"));
    chmodSync(dataDir, 0o755);
    const embedded = await startEmbeddedPostgres({
      dataDir,
      port: await freePort(),
      database: "postgres",
      ephemeral: true,
      settings: { max_connections: "200", ...options.settings },
    });
    adminUrl = embedded.adminConnectionString;
    stopEmbedded = () => embedded.stop();
    if (options.everyCpu) unpinServer(join(dataDir, "postgres"));
  }
  const name = `acct_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists "${name}"`);
  await admin.query(`create database "${name}"`);
  await admin.end();
  const connectionString = withDatabase(adminUrl, name);
  const db = createDb({ connectionString, poolMax: 4 });
  await migrate(connectionString);
  return {
    db,
    connectionString,
    close: async () => {
      await db.destroy();
      if (process.env.BENCH_KEEP_DATABASE === "1" && process.env.DATABASE_URL) {
        console.log(`kept database ${name} (BENCH_KEEP_DATABASE=1)`);
        return;
      }
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
      await stopEmbedded();
    },
  };
}

/**
 * The embedded PostgreSQL is started by the benchmark program, which `npm run bench` pins to CPU 1 (the load
 * generator's), and its processes inherit that: the database shares one CPU with the load generator while the API
 * has the other. Unpinned, it may run on every CPU like a PostgreSQL server started on its own (the one at
 * DATABASE_URL): the postmaster and the processes it has started are unpinned, and the backends it forks later
 * inherit that.
 */
function unpinServer(databaseDir: string): void {
  if (!hasTaskset()) return;
  const postmaster = readFileSync(join(databaseDir, "postmaster.pid"), "utf8").split("\n")[0].trim();
  const children = spawnSync("ps", ["-o", "pid=", "--ppid", postmaster], { encoding: "utf8" })
    .stdout.split("\n")
    .map((s) => s.trim())
    .filter(Boolean);
  const all = `0-${cpus().length - 1}`; // not availableParallelism(): that counts the CPUs this (pinned) process may use
  for (const pid of [postmaster, ...children]) spawnSync("taskset", ["-a", "-p", "-c", all, pid], { stdio: "ignore" });
}

/** Runs a process pinned to one CPU (when taskset exists) and resolves once `ready()` says so. */
export async function startChild(args: string[], env: Record<string, string>, cpu: string, ready: () => Promise<boolean>): Promise<ChildProcess> {
  // BENCH_CPU_PROF=<dir>: every process the bench starts writes a V8 CPU profile there when it exits (open them in
  // Chrome's DevTools or speedscope) — where a server spends its time under the bench's load.
  const profile = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  // node with tsx as a loader hook, not the tsx CLI: the CLI runs the program as its child and, when that child does not
  // acknowledge a SIGTERM within 30 ms (a loaded machine), SIGKILLs it, which would turn a graceful stop into a crash.
  const node = [...profile, ...SERVER_NODE_FLAGS, "--import", "tsx", ...args];
  const command = hasTaskset() ? "taskset" : process.execPath;
  const argv = hasTaskset() ? ["-c", cpu, process.execPath, ...node] : node;
  // Its own process group, so that killHard() reaches the node process behind taskset.
  const child = spawn(command, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"], detached: true });
  // Generous: a loaded machine compiles the contract slowly at start.
  const deadline = Date.now() + 120_000;
  while (!(await ready().catch(() => false))) {
    if (Date.now() > deadline || child.exitCode !== null || child.signalCode !== null) throw new Error(`${args.join(" ")} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return child;
}

let taskset: boolean | undefined;
function hasTaskset(): boolean {
  taskset ??= spawnSync("taskset", ["-c", "0", "true"]).status === 0;
  return taskset;
}
export const pinned = () => hasTaskset();

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await exited;
}

/** `kill -9` of the child's whole process group (no graceful shutdown); resolves once it has exited. */
export async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  try {
    process.kill(-child.pid!, "SIGKILL");
  } catch (error) {
    // Reaped already, its exit event not yet delivered: nothing is left to kill.
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
  await exited;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export async function load(options: { url: string; body: string; headers: Record<string, string>; connections: number; seconds: number }): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    method: "POST",
    body: options.body,
    headers: { "content-type": "application/json", ...options.headers },
    connections: options.connections,
    duration: options.seconds,
  });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** An account whose key has no practical rate limit, and one LT company: the tenant every benchmark uses. */
export async function benchTenant(db: Db): Promise<{ accountId: string; apiKey: string; keyId: string; companyId: string }> {
  const account = await bootstrapAccount(db, "bench");
  await setKeyLimit(db, account.keyId, 1_000_000_000);
  const [company] = await db("companies")
    // A VAT payer: a company without a VAT code issues no VAT (issue 24).
    .insert({
      account_id: account.accountId,
      name: "Bench UAB",
      code: "BENCH",
      country_code: "LT",
      vat_code: "LT100001919017",
      base_currency: "EUR",
      invoice_currency: "EUR",
    })
    .returning("id");
  return { ...account, companyId: company.id as string };
}

/** `npm start`'s entry point as its own process on CPU 0, API only, against the benchmark database. */
export async function startBenchApi(connectionString: string, env: Record<string, string> = {}, port?: number): Promise<{ child: ChildProcess; url: string }> {
  port ??= await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = await startChild(
    ["src/main.ts", "--no-worker"],
    { DATABASE_URL: connectionString, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "info", ...env },
    "0",
    async () => (await fetch(`${url}/health`)).ok,
  );
  return { child, url };
}

/**
 * POSTs JSON to the API over keep-alive connections (node:http, one socket per concurrent request): the load
 * generator of the closed-loop benchmarks. Lighter than fetch (about half its CPU per request here), and the load
 * generator shares this machine's CPUs with the server it measures. Resolves the parsed body of a 200; anything
 * else rejects with the status and body.
 */
export function jsonPoster(baseUrl: string, headers: Record<string, string>, sockets: number): (path: string, body: unknown) => Promise<any> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const { hostname, port } = new URL(baseUrl);
  return (path, body) =>
    new Promise((resolve, reject) => {
      const payload = Buffer.from(JSON.stringify(body));
      const req = http.request(
        { agent, hostname, port, path, method: "POST", headers: { ...headers, "content-type": "application/json", "content-length": payload.length } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            if (res.statusCode !== 200) return reject(new Error(`${path} -> ${res.statusCode} ${text}`));
            try {
              resolve(JSON.parse(text));
            } catch (error) {
              reject(error);
            }
          });
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(payload);
    });
}

/** `connections` clients each looping `step` for `duration` seconds: completed steps per second, and p50/p99 of a step. */
export async function closedLoop(
  connections: number,
  duration: number,
  step: () => Promise<void>,
): Promise<{ perSecond: number; done: number; p50: number; p99: number }> {
  const end = performance.now() + duration * 1000;
  const times: number[] = [];
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const started = performance.now();
        await step();
        times.push(performance.now() - started);
      }
    }),
  );
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)];
  return { perSecond: times.length / duration, done: times.length, p50: at(50), p99: at(99) };
}

/** The Lithuanian standard chart in a company, as `ledger/accounts/apply-template` puts it there (the same function). */
export async function benchLtChart(db: Db, companyId: string): Promise<void> {
  await db.transaction((trx) => applyTemplate(trx, companyId, "lt-standard"));
}
