import type { TaskList } from "graphile-worker";
import { pruneIdempotencyKeys } from "./prune-idempotency-keys.js";
import { pruneRateLimitCounters } from "./prune-rate-limit-counters.js";

// Every graphile-worker task, one file each, and the schedule of the recurring ones.
export const taskList: TaskList = {
  prune_idempotency_keys: pruneIdempotencyKeys,
  prune_rate_limit_counters: pruneRateLimitCounters,
};

export const crontab = [
  "17 * * * * prune_idempotency_keys ?max=1",
  "*/5 * * * * prune_rate_limit_counters ?max=1",
].join("\n");
