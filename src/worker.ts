import { Logger as GraphileLogger, run, type Runner } from "graphile-worker";
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
  const runner = await run({ connectionString, concurrency, noHandleSignals: true, pollInterval: 2000, taskList: createTaskList(withLog), crontab, events, logger });
  const webhooks = await run({
    connectionString,
    concurrency: deps.config.webhookConcurrency,
    noHandleSignals: true,
    pollInterval: 1000,
    taskList: createWebhookTaskList(withLog),
    logger,
    events: registeringEvents(recovery, log),
  });
  log.info({ concurrency, webhookConcurrency: deps.config.webhookConcurrency, processId: recovery.processId }, "worker started");
  return {
    runner,
    stop: async () => {
      await Promise.all([runner.stop(), webhooks.stop()]);
      await recovery.stop();
    },
  };
}
