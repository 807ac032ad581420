import { run, type Runner } from "graphile-worker";
import type { Logger } from "./log.js";
import { crontab, taskList } from "./jobs/index.js";

export async function startWorker(connectionString: string, concurrency: number, log: Logger): Promise<Runner> {
  const runner = await run({ connectionString, concurrency, noHandleSignals: true, pollInterval: 2000, taskList, crontab });
  log.info({ concurrency }, "worker started");
  return runner;
}
