import type { Db } from "../db/connection.js";
import { preparedQuery } from "../db/prepared.js";

// Fixed one-minute windows counted in PostgreSQL, so the limit holds exactly across every process on the
// database: the upsert increments atomically and returns the new count. (Requests with a valid key are counted
// by the same upsert inside src/http/gate.ts; this is the per-address count of the others.)
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the current window resets (spec: "Endpoints"). */
  reset: number;
  exceeded: boolean;
}

export async function hit(db: Db, bucket: string, limit: number): Promise<RateLimitState> {
  const rows = await preparedQuery<{ count: number; reset: string }>(
    db,
    "rate_limit_hit",
    `insert into rate_limit_counters as c (bucket, window_start, count)
     values ($1, date_trunc('minute', now()), 1)
     on conflict (bucket, window_start) do update set count = c.count + 1
     returning c.count, ceil(extract(epoch from c.window_start + interval '1 minute' - now())) as reset`,
    [bucket],
  );
  const { count, reset } = rows[0];
  return { limit, remaining: Math.max(0, limit - count), reset: Math.max(1, Number(reset)), exceeded: count > limit };
}
