import type { Task } from "graphile-worker";
import { pruneSaftFiles } from "../declarations/index.js";
import type { JobDeps } from "./deps.js";

// SAF-T files kept past SAFT_KEEP_HOURS are deleted with their parts by this hourly cron task (src/declarations/saft.ts).
export const pruneSaftFilesTask =
  (deps: JobDeps): Task =>
  async (_payload, helpers) => {
    const pruned = await pruneSaftFiles(deps.db);
    if (pruned) helpers.logger.info(`pruned ${pruned} SAF-T files past their keeping time`);
  };
