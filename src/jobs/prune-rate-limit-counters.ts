import type { Task } from "graphile-worker";

// Rate-limit windows are one minute long; counters of windows that have ended are useless.
export const pruneRateLimitCounters: Task = async (_payload, helpers) => {
  await helpers.query(`delete from rate_limit_counters where window_start < date_trunc('minute', now()) - interval '1 minute'`);
};
