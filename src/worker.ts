import { Logger as GraphileLogger, run, type Runner } from "graphile-worker";
import { createDb, createJobPool, withAsynchronousCommit } from "./db/connection.js";
import type { Logger } from "./log.js";
import { createTaskList, createWebhookTaskList, crontab } from "./jobs/index.js";
import type { JobDeps } from "./jobs/deps.js";
import { registeringEvents, startWorkerRecovery } from "./worker-recovery.js";

export interface Worker {
  runner: Runner;
  stop(): Promise<void>;
}

/**
 * graphile-worker's own messages go to the service's JSON log: errors and warnings as such, its per-job "completed"
 * lines at debug (hundreds a second under webhook load).
 */
function graphileLogger(log: Logger): GraphileLogger {
  return new GraphileLogger((scope) => (level, message, meta) => {
    const fields = { graphileWorker: { ...scope, ...meta } };
    if (level === "error") log.error(fields, message);
    else if (level === "warning") log.warn(fields, message);
    else log.debug(fields, message);
  });
}

export async function startWorker(connectionString: string, concurrency: number, log: Logger, deps: JobDeps): Promise<Worker> {
  const recovery = await startWorkerRecovery(connectionString, deps.config.workerSweepIntervalMs, log);
  const events = registeringEvents(recovery, log);
  const withLog = { ...deps, log };
  const logger = graphileLogger(log);
  const onPoolError = (error: Error) => log.warn({ err: error }, "worker database connection lost");
  const pool = createJobPool({ connectionString, max: Math.max(concurrency, 2) + 1, applicationName: "accounting-worker", onError: onPoolError });
  const runner = await run({
    pgPool: pool,
    concurrency,
    noHandleSignals: true,
    pollInterval: 2000,
    taskList: createTaskList(withLog),
    crontab,
    events,
    logger,
  });
  // Deliveries commit four times each (graphile-worker's fetch and completion, the claim, the outcome), one
  // subscription's one after another: waiting for each WAL flush would cap a subscription at a few dozen a second.
  // Their commits are asynchronous instead — a database crash may lose the last moments of bookkeeping, which only
  // means an event sent again (at least once); the events themselves are written durably by the API.
  const webhookConnection = withAsynchronousCommit(connectionString);
  const webhookDb = createDb({
    connectionString: webhookConnection,
    poolMax: Math.min(deps.config.webhookConcurrency, 10) + 2,
    applicationName: "accounting-webhooks",
    log,
  });
  const webhookPool = createJobPool({
    connectionString: webhookConnection,
    max: deps.config.webhookConcurrency,
    applicationName: "accounting-webhook-jobs",
    onError: onPoolError,
  });
  const webhooks = await run({
    pgPool: webhookPool,
    concurrency: deps.config.webhookConcurrency,
    noHandleSignals: true,
    pollInterval: 1000,
    taskList: createWebhookTaskList({ ...withLog, db: webhookDb }),
    logger,
    events: registeringEvents(recovery, log),
  });
  log.info({ concurrency, webhookConcurrency: deps.config.webhookConcurrency, processId: recovery.processId }, "worker started");
  return {
    runner,
    stop: async () => {
      await Promise.all([runner.stop(), webhooks.stop()]);
      await Promise.all([webhookDb.destroy(), pool.end(), webhookPool.end()]);
      await recovery.stop();
    },
  };
}
