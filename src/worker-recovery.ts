// Recovery of jobs whose worker process died without shutting down (kill -9, a lost machine). graphile-worker keeps
// such jobs locked for 4 hours; here every worker process
//   - holds a session advisory lock named by its process id on a connection of its own, for as long as it lives
//     (PostgreSQL releases it the moment the process's session ends, however it ends), and
//   - records the ids of its graphile worker pool and workers (the names jobs are locked in) in `worker_registry`;
// and a sweeper in every worker process, every WORKER_SWEEP_INTERVAL_MS, tries each other process's lock: a lock it
// finds free at every sweep for a grace period (RECOVERY_GRACE_MS, or the sweep interval when longer) belongs to a dead
// process, whose workers' jobs it unlocks (graphile_worker.force_unlock_workers), so they run again at once. Jobs are written to be idempotent (STYLE.md, practice 10), so running one again is safe.
// The session lock needs a direct connection (not a transaction-pooling PgBouncer): workers use DIRECT_DATABASE_URL.
import { randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import type { WorkerEvents } from "graphile-worker";
import pg from "pg";
import type { Logger } from "./log.js";

/** First key of the two-key advisory locks that mark live worker processes. */
const PROCESS_LOCK_CLASS = 7302;
/**
 * How long a lock must stay free, sweep after sweep, before its process counts as dead: a live process whose session
 * was cut reconnects in well under this (its retries start at once, then 250 ms, 500 ms…), even on a loaded machine
 * where a new connection takes hundreds of milliseconds. Two sightings a short sweep interval apart were not enough.
 */
const RECOVERY_GRACE_MS = 5000;

export interface WorkerRecovery {
  processId: string;
  /** Records a graphile worker of this process. */
  register(workerId: string): Promise<void>;
  /** Unlocks the jobs of dead processes now; resolves to the number of processes found dead. */
  sweep(): Promise<number>;
  stop(): Promise<void>;
}

export async function startWorkerRecovery(connectionString: string, sweepIntervalMs: number, log: Logger): Promise<WorkerRecovery> {
  const processId = `wp_${randomBytes(9).toString("base64url")}`;
  const workerIds = new Set<string>();
  let stopped = false;
  let session: pg.Client;
  // One query at a time on the session (registrations arrive as events, while a sweep may be running).
  let queue: Promise<unknown> = Promise.resolve();
  const query = <R extends pg.QueryResultRow>(text: string, values: unknown[]) => {
    const result = queue.then(() => session.query<R>(text, values));
    queue = result.catch(() => undefined);
    return result;
  };

  // The session (and with it the lock that says this process lives) is taken again whenever it is lost — an
  // operator's pg_terminate_backend, a database restart — and this process's workers are registered again, in case
  // another process found the lock free meanwhile and removed them. Sweepers wait until a lock has been free for the
  // grace period before they treat it as a dead process (below), which leaves a reconnecting process that long to come back.
  const connect = async (): Promise<void> => {
    const client = new pg.Client({ connectionString, application_name: "accounting-worker" });
    client.on("error", (error) => log.warn({ err: error }, "worker recovery session lost"));
    client.on("end", () => {
      if (!stopped && session === client) void reconnect();
    });
    await client.connect();
    session = client;
    await query("select pg_advisory_lock($1, hashtext($2))", [PROCESS_LOCK_CLASS, processId]);
    for (const workerId of workerIds) await record(workerId);
  };
  const reconnect = async (): Promise<void> => {
    for (let delay = 250; !stopped; delay = Math.min(delay * 2, 5000)) {
      try {
        await connect();
        log.info({ processId }, "worker recovery session restored");
        return;
      } catch (error) {
        log.warn({ err: error, retryInMs: delay }, "worker recovery session: reconnecting");
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  };
  const record = (workerId: string) =>
    query("insert into worker_registry (worker_id, process_id) values ($1, $2) on conflict (worker_id) do nothing", [workerId, processId]);
  await connect();

  // Processes whose lock was free at every sweep since the time recorded: only a lock free for the whole grace period
  // means a dead process. A failed sweep forgets them all (it cannot vouch that the lock stayed free meanwhile).
  const graceMs = Math.max(RECOVERY_GRACE_MS, sweepIntervalMs);
  let freeSince = new Map<string, number>();
  const sweep = async (): Promise<number> => {
    try {
      return await sweepOnce();
    } catch (error) {
      freeSince = new Map();
      throw error;
    }
  };
  const sweepOnce = async (): Promise<number> => {
    const now = Date.now();
    const { rows } = await query<{ process_id: string; worker_ids: string[] }>(
      "select process_id, array_agg(worker_id) as worker_ids from worker_registry where process_id <> $1 group by process_id",
      [processId],
    );
    let dead = 0;
    const free = new Map<string, number>();
    for (const { process_id, worker_ids } of rows) {
      const { rows: taken } = await query<{ free: boolean }>("select pg_try_advisory_lock($1, hashtext($2)) as free", [PROCESS_LOCK_CLASS, process_id]);
      if (!taken[0].free) continue;
      try {
        const since = freeSince.get(process_id) ?? now;
        if (now - since < graceMs) {
          free.set(process_id, since);
          continue;
        }
        await query("select graphile_worker.force_unlock_workers($1::text[])", [worker_ids]);
        await query("delete from worker_registry where process_id = $1", [process_id]);
      } finally {
        await query("select pg_advisory_unlock($1, hashtext($2))", [PROCESS_LOCK_CLASS, process_id]);
      }
      dead++;
      log.warn({ deadProcess: process_id, workers: worker_ids.length }, "unlocked the jobs of a worker process that stopped without shutting down");
    }
    freeSince = free;
    return dead;
  };

  let sweeping = false;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    sweep()
      .catch((error) => log.error({ err: error }, "worker recovery sweep failed"))
      .finally(() => (sweeping = false));
  }, sweepIntervalMs);
  timer.unref();

  return {
    processId,
    register: async (workerId) => {
      workerIds.add(workerId);
      await record(workerId);
    },
    sweep,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await query("delete from worker_registry where process_id = $1", [processId]).catch(() => undefined);
      await session.end().catch(() => undefined);
    },
  };
}

/** An event emitter for graphile-worker's `run({events})` that registers every worker as it is created. */
export function registeringEvents(recovery: WorkerRecovery, log: Logger): WorkerEvents {
  const events = new EventEmitter() as WorkerEvents;
  const register = (id: string) => recovery.register(id).catch((error) => log.error({ err: error, workerId: id }, "could not register a worker for recovery"));
  // Jobs are locked in the name of the pool (its id) or of one of its workers, depending on how they were fetched.
  events.on("pool:create", ({ workerPool }) => void register(workerPool.id));
  events.on("worker:create", ({ worker }) => void register(worker.workerId));
  return events;
}
