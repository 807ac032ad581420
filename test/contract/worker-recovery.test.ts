// A worker process killed in the middle of a job (kill -9: no graceful release) does not leave the job locked for
// graphile-worker's 4 hours: another worker process finds the dead one (its session lock is free) and the job runs
// again at once (src/worker-recovery.ts).
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import { ecbXml, startEcbServer, type EcbServer } from "../support/ecb-server.js";
import { startHarness, type Harness } from "../support/harness.js";
import { startServerProcess } from "../support/processes.js";
import { until } from "../support/timing.js";

let h: Harness;
let ecb: EcbServer;
beforeAll(async () => {
  h = await startHarness();
  ecb = await startEcbServer();
});
afterAll(async () => {
  await ecb.close();
  await h.close();
});

test("the job of a worker killed with SIGKILL mid-job runs again in another worker within seconds", async () => {
  // The history file answers after 4 s, so the first worker is surely in the middle of the job when it is killed.
  const folder = ecb.serve("slow", { hist: { body: ecbXml([{ date: "2026-03-02", rates: { USD: "1.0812" } }]), delayMs: 4000 } });
  const env = { DATABASE_URL: h.connectionString, EXCHANGE_RATES_URL: folder, WORKER_SWEEP_INTERVAL_MS: "300", LOG_LEVEL: "warn" };
  const first = await startServerProcess(env, []);
  await h.db.raw("select graphile_worker.add_job('backfill_exchange_rates', ?::json)", [JSON.stringify({ from: "2026-03-01", to: "2026-03-31" })]);
  const lockedBy = await until("the first worker to take the job", async () => {
    const row = await h.db("graphile_worker.jobs").where({ task_identifier: "backfill_exchange_rates" }).whereNotNull("locked_by").first("locked_by");
    return row?.locked_by as string | undefined;
  });
  expect(await h.db("worker_registry").where({ worker_id: lockedBy }).first("process_id")).toBeDefined();
  await first.kill9();
  expect(await h.db("exchange_rates").count({ n: "*" })).toEqual([{ n: "0" }]);

  const second = await startServerProcess(
    { ...env, EXCHANGE_RATES_URL: ecb.serve("fast", { hist: ecbXml([{ date: "2026-03-02", rates: { USD: "1.0812" } }]) }) },
    [],
  );
  try {
    const started = Date.now();
    await until("the job to complete in the second worker", async () => {
      const left = await h.db("graphile_worker.jobs").where({ task_identifier: "backfill_exchange_rates" }).count({ n: "*" });
      return left[0].n === "0" ? true : undefined;
    });
    // Well within the sweep interval plus the job's own time, not graphile-worker's 4 hours.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await h.db("exchange_rates").where({ currency_code: "USD", rate_date: "2026-03-02" }).first("rate")).toEqual({ rate: "1.08120000" });
    expect(await h.db("worker_registry").where({ worker_id: lockedBy })).toEqual([]);
  } finally {
    await second.stop();
  }
}, 90_000);

test("a live worker whose recovery session is cut takes its lock back; other workers' sweeps leave its job alone", async () => {
  // The job takes 3 s, so it is surely still running when the session is cut, and while the sweeps look.
  const folder = ecb.serve("cut", { hist: { body: ecbXml([{ date: "2026-04-01", rates: { GBP: "0.8412" } }]), delayMs: 3000 } });
  const env = { DATABASE_URL: h.connectionString, EXCHANGE_RATES_URL: folder, WORKER_SWEEP_INTERVAL_MS: "200", LOG_LEVEL: "warn" };
  const worker = await startServerProcess(env, []);
  const other = await startServerProcess(env, []);
  try {
    const histRequests = () => ecb.requests.filter((r) => r.startsWith("/cut/") && r.endsWith("eurofxref-hist.xml")).length;
    await h.db.raw("select graphile_worker.add_job('backfill_exchange_rates', ?::json)", [JSON.stringify({ from: "2026-04-01", to: "2026-04-30" })]);
    const lockedBy = await until("a worker to take the job", async () => {
      const row = await h.db("graphile_worker.jobs").where({ task_identifier: "backfill_exchange_rates" }).whereNotNull("locked_by").first("locked_by");
      return row?.locked_by as string | undefined;
    });
    const { process_id: processId } = await h.db("worker_registry").where({ worker_id: lockedBy }).first("process_id");
    // The session that holds the lock of the process whose worker runs the job.
    const holder = async () =>
      (
        await h.db.raw<{ rows: { pid: number }[] }>(
          "select pid from pg_locks where locktype = 'advisory' and granted and classid = 7302 and objid::bigint = (hashtext(?)::bigint & 4294967295) and database = (select oid from pg_database where datname = current_database())",
          [processId],
        )
      ).rows[0]?.pid;
    const cut = await holder();
    expect(cut).toBeDefined();
    await h.db.raw("select pg_terminate_backend(?)", [cut]);
    const restored = await until("the lock to be taken again", async () => {
      const pid = await holder();
      return pid !== undefined && pid !== cut ? pid : undefined;
    });
    expect(restored).not.toBe(cut);
    await until("the job to complete", async () => {
      const left = await h.db("graphile_worker.jobs").where({ task_identifier: "backfill_exchange_rates" }).count({ n: "*" });
      return left[0].n === "0";
    });
    // Run once: the other process's sweeps (every 200 ms, through the cut) never took the job from its live worker.
    expect(histRequests()).toBe(1);
    expect(await h.db("exchange_rates").where({ currency_code: "GBP", rate_date: "2026-04-01" }).first("rate")).toEqual({ rate: "0.84120000" });
    expect((await h.db("worker_registry").where({ process_id: processId })).length).toBeGreaterThan(0);
  } finally {
    await other.stop();
    await worker.stop();
  }
}, 90_000);
