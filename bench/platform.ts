// `npm run bench`: the platform's cost per request. partners/get through the full stack (auth, rate limit,
// contract validation, company check, one indexed query) next to a bare Koa handler returning the same JSON.
// Both servers run pinned to CPU 0, autocannon here on CPU 1 (when taskset exists), PostgreSQL unpinned.
// With PgBouncer installed, the same full stack runs a third time with DATABASE_URL through PgBouncer in transaction
// pooling (DATABASE_POOLING=transaction: statements unnamed, planned on every call), so the pooler's cost is a
// measured ratio (issue 15).
// Env: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50), DATABASE_URL (else embedded PostgreSQL).
import { installed, PGBOUNCER, startPgBouncer } from "./infra.js";
import { benchDatabase, freePort, load, pinned, startChild, stopChild, type LoadResult, benchTenant, startBenchApi } from "./lib.js";

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

const database = await benchDatabase();
const { db } = database;
const account = await benchTenant(db);
// Enough partners that the lookup is a real index probe, not a scan of a tiny table.
await db.raw(`insert into partners (company_id, code, name) select ?, 'P' || g, 'Partner ' || g from generate_series(1, 20000) g`, [account.companyId]);
const partner = await db("partners").where({ company_id: account.companyId, code: "P12345" }).first();
const requestBody = JSON.stringify({ code: "P12345" });

const { child: api, url: apiUrl } = await startBenchApi(database.connectionString, { DB_POOL_MAX: "10" });
const headers = { authorization: `Bearer ${account.apiKey}`, "x-company-id": account.companyId };
const check = await fetch(`${apiUrl}/v1/partners/get`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: requestBody });
const responseJson = (await check.json()) as { id: string };
if (check.status !== 200 || responseJson.id !== partner.id) throw new Error(`partners/get did not answer as expected: ${check.status}`);

const barePort = await freePort();
const bare = await startChild(["bench/bare-koa.ts"], { PORT: String(barePort), BARE_BODY: JSON.stringify(responseJson) }, "0", async () => {
  return (await fetch(`http://127.0.0.1:${barePort}/`, { method: "POST", body: "{}" })).ok;
});

const run = async (url: string, h: Record<string, string>): Promise<LoadResult> => {
  await load({ url, body: requestBody, headers: h, connections, seconds: 2 }); // warm-up
  return load({ url, body: requestBody, headers: h, connections, seconds });
};

const full = await run(`${apiUrl}/v1/partners/get`, headers);
const baseline = await run(`http://127.0.0.1:${barePort}/`, {});
await stopChild(api);

let pooled: LoadResult | undefined;
if (installed(PGBOUNCER)) {
  const bouncer = await startPgBouncer(database.connectionString);
  const { child: viaBouncer, url } = await startBenchApi(bouncer.url, {
    DB_POOL_MAX: "10",
    DIRECT_DATABASE_URL: database.connectionString,
    DATABASE_POOLING: "transaction",
  });
  pooled = await run(`${url}/v1/partners/get`, headers);
  await stopChild(viaBouncer);
  await bouncer.stop();
}
await stopChild(bare);
await database.close();

const row = (name: string, r: LoadResult) =>
  `${name.padEnd(34)} ${r.requestsPerSecond.toFixed(0).padStart(8)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms   non-2xx ${r.non2xx}   errors ${r.errors}`;
console.log(`\nplatform benchmark: ${connections} connections, ${seconds} s each, servers ${pinned() ? "pinned to CPU 0" : "not pinned (no taskset)"}`);
console.log(row("partners/get (full stack)", full));
console.log(row("bare Koa, same JSON", baseline));
if (pooled) console.log(row("partners/get through PgBouncer", pooled));
else console.log("partners/get through PgBouncer: skipped (pgbouncer is not installed: apt-get install pgbouncer)");
console.log(
  `ratio full/bare: ${((100 * full.requestsPerSecond) / baseline.requestsPerSecond).toFixed(1)}% (target >= 12%), p99 ${full.p99} ms (target < 50 ms)`,
);
if (pooled) {
  console.log(
    `ratio through PgBouncer/direct: ${((100 * pooled.requestsPerSecond) / full.requestsPerSecond).toFixed(1)}%, through PgBouncer/bare: ${((100 * pooled.requestsPerSecond) / baseline.requestsPerSecond).toFixed(1)}%`,
  );
}
if (full.non2xx || full.errors || pooled?.non2xx || pooled?.errors) {
  console.log("WARNING: the full-stack run had non-2xx responses or errors; its figures are not valid");
  process.exitCode = 1;
}
