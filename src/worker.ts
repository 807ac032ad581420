import { run, type Runner } from "graphile-worker";
import type { Logger } from "./log.js";
import { createTaskList, crontab } from "./jobs/index.js";
import type { JobDeps } from "./jobs/deps.js";

export async function startWorker(connectionString: string, concurrency: number, log: Logger, deps: JobDeps): Promise<Runner> {
  const runner = await run({ connectionString, concurrency, noHandleSignals: true, pollInterval: 2000, taskList: createTaskList(deps), crontab });
  log.info({ concurrency }, "worker started");
  return runner;
}
