import type { Task } from "graphile-worker";
import { runSaftJob } from "../declarations/index.js";
import type { JobDeps } from "./deps.js";

/** Writes one SAF-T file (src/declarations/saft.ts); a failure that is not the books' throws and is retried. */
export const generateSaftTask =
  ({ db, config }: JobDeps): Task =>
  async (payload, helpers) => {
    const p = payload as { companyId?: unknown; fileId?: unknown } | null;
    if (typeof p?.companyId !== "string" || typeof p.fileId !== "string") throw new Error("saft_generate needs {companyId, fileId}");
    await runSaftJob(db, config, p.companyId, p.fileId, helpers.job.attempts);
  };
