// Waiting for sessions of the test's database to block on a lock: how race tests know that their requests are
// really inside their transactions, queued behind a lock the test holds, before it lets go. One poller for all of
// them; it throws when the deadline passes, so a test never carries on believing a race it did not set up.
import type { Db } from "../../src/db/connection.js";

export interface LockWait {
  /** How many sessions must be waiting (default 1). */
  count?: number;
  /** Only sessions waiting on this kind of lock (`relation`, `transactionid`, `tuple`, `advisory`). */
  waitEvent?: string;
  /** Only sessions whose current statement matches this `ilike` pattern. */
  queryLike?: string;
  /** Not this backend (the blocker's own session). */
  excludePid?: number;
  /** Give up after this long (default 30 s, half the default test timeout). */
  timeoutMs?: number;
  /** Named in the error when the wait times out. */
  what?: string;
}

export async function waitForLockWaiters(db: Db, wait: LockWait = {}): Promise<void> {
  const { count = 1, timeoutMs = 30_000 } = wait;
  const conditions = ["datname = current_database()", "wait_event_type = 'Lock'", "pid <> pg_backend_pid()"];
  const bindings: (string | number)[] = [];
  if (wait.waitEvent) conditions.push("wait_event = ?"), bindings.push(wait.waitEvent);
  if (wait.queryLike) conditions.push("query ilike ?"), bindings.push(wait.queryLike);
  if (wait.excludePid !== undefined) conditions.push("pid <> ?"), bindings.push(wait.excludePid);
  const sql = `select count(*)::int as n from pg_stat_activity where ${conditions.join(" and ")}`;
  let seen = 0;
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((r) => setTimeout(r, 25))) {
    seen = (await db.raw<{ rows: { n: number }[] }>(sql, bindings)).rows[0].n;
    if (seen >= count) return;
  }
  throw new Error(`${wait.what ?? "the requests"}: ${seen} of ${count} sessions waited on a lock within ${timeoutMs} ms`);
}
