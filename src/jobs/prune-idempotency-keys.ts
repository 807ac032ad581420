import type { Task } from "graphile-worker";

// Idempotency records are kept at least 24 hours (README, "Idempotency"), then pruned by this hourly cron task.
export const RETENTION_HOURS = 24;

export const pruneIdempotencyKeys: Task = async (_payload, helpers) => {
  const { rowCount } = await helpers.query(`delete from idempotency_keys where created_at < now() - make_interval(hours => $1)`, [RETENTION_HOURS]);
  helpers.logger.info(`pruned ${rowCount ?? 0} idempotency records older than ${RETENTION_HOURS} hours`);
};
