import { run, type Runner } from "graphile-worker";
import type { Logger } from "./log.js";
import { createTaskList, crontab } from "./jobs/index.js";
import type { JobDeps } from "./jobs/deps.js";
import { registeringEvents, startWorkerRecovery } from "./worker-recovery.js";

export interface Worker {
  runner: Runner;
  stop(): Promise<void>;
}

export async function startWorker(connectionString: string, concurrency: number, log: Logger, deps: JobDeps): Promise<Worker> {
  const recovery = await startWorkerRecovery(connectionString, deps.config.workerSweepIntervalMs, log);
  const events = registeringEvents(recovery, log);
  const runner = await run({ connectionString, concurrency, noHandleSignals: true, pollInterval: 2000, taskList: createTaskList(deps), crontab, events });
  log.info({ concurrency, processId: recovery.processId }, "worker started");
  return {
    runner,
    stop: async () => {
      await runner.stop();
      await recovery.stop();
    },
  };
}
