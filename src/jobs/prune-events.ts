import type { Task } from "graphile-worker";
import { pruneEvents } from "../events/retention.js";
import type { JobDeps } from "./deps.js";

// Events older than EVENT_RETENTION_DAYS, with no delivery left to make, are pruned by this hourly cron task
// (src/events/retention.ts).
export const pruneEventsTask =
  (deps: JobDeps): Task =>
  async (_payload, helpers) => {
    const days = deps.config.eventRetentionDays;
    const pruned = await pruneEvents(deps.db, days);
    helpers.logger.info(`pruned ${pruned.events} events older than ${days} days and their ${pruned.deliveries} deliveries`);
  };
