import type { Db, Trx } from "./connection.js";
import { isPooledStatementError } from "./prepared.js";

// SQLSTATEs on which a whole transaction may be retried: nothing of it was committed.
// https://www.postgresql.org/docs/current/errcodes-appendix.html
const RETRYABLE_SQLSTATES = new Set([
  "40001", // serialization_failure
  "40P01", // deadlock_detected
]);

// SQLSTATEs (and driver messages) of a connection that was lost: the server ended it (an operator, a failover, a
// restart) or the network dropped it. https://www.postgresql.org/docs/current/errcodes-appendix.html
// Class 08 is "connection exception"; PgBouncer answers 08P01 ("server conn crashed?") when the server connection
// behind a client's transaction is lost.
const CONNECTION_LOST_SQLSTATES = new Set([
  "57P01", // admin_shutdown (pg_terminate_backend, a fast shutdown)
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
]);
const CONNECTION_LOST_MESSAGE = /Connection terminated|not queryable|ECONNRESET|EPIPE|ECONNREFUSED|socket hang up|server conn crashed|server closed the connection/i;

const MAX_ATTEMPTS = 4;

const sqlstateOf = (error: unknown) => {
  const e = error as PgError | undefined;
  return e?.nativeError?.code ?? e?.code;
};

/** True when the error says the database connection was lost (not that a statement failed). */
export function isConnectionLost(error: unknown): boolean {
  const code = sqlstateOf(error);
  return (code !== undefined && (CONNECTION_LOST_SQLSTATES.has(code) || code.startsWith("08"))) || CONNECTION_LOST_MESSAGE.test(String((error as Error)?.message ?? ""));
}

const backoff = (attempt: number) => new Promise((r) => setTimeout(r, 5 * attempt + Math.random() * 10));

/**
 * Runs `work` in one transaction and retries it from the start on a serialization failure or deadlock, and on a
 * lost connection when the loss happened before COMMIT was sent (then nothing was committed; a loss during COMMIT
 * is ambiguous, so it is not retried). `work` must have no effect outside the database (jobs are added through
 * the transaction itself).
 */
export async function withTransaction<T>(db: Db, work: (trx: Trx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let reachedCommit = false;
    try {
      return await db.transaction(async (trx) => {
        const result = await work(trx);
        reachedCommit = true;
        return result;
      });
    } catch (error) {
      const code = sqlstateOf(error);
      const retryable =
        (code !== undefined && RETRYABLE_SQLSTATES.has(code)) || (!reachedCommit && (isConnectionLost(error) || isPooledStatementError(error)));
      if (attempt >= MAX_ATTEMPTS || !retryable) throw error;
      await backoff(attempt);
    }
  }
}

/**
 * Runs `work` again on a lost connection (the pool hands the retry a fresh one). Only for work that may run twice:
 * reads, and the gate's rate-limit count.
 */
export async function retryOnLostConnection<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !(isConnectionLost(error) || isPooledStatementError(error))) throw error;
      await backoff(attempt);
    }
  }
}

interface PgError {
  code?: string;
  constraint?: string;
  /** Objection wraps driver errors and keeps the original here. */
  nativeError?: PgError;
}

/**
 * The constraint a check violation (SQLSTATE 23514, also raised by our triggers with a constraint name), unique
 * violation (23505) or foreign-key violation (23503) names; undefined for any other error.
 */
export function violatedConstraint(error: unknown): { sqlstate: "23514" | "23505" | "23503"; constraint: string } | undefined {
  const e = error as PgError | undefined;
  const native = e?.nativeError ?? e;
  if (native?.constraint && (native.code === "23514" || native.code === "23505" || native.code === "23503")) {
    return { sqlstate: native.code, constraint: native.constraint };
  }
  return undefined;
}

/**
 * Whether the error is PostgreSQL's "numeric field overflow" (SQLSTATE 22003): a figure computed from a request's
 * values (a sum of values a request may each send at their largest) does not fit its column. Callers that can
 * meet one answer 422 naming what was too large; the request's savepoint or transaction is rolled back with it.
 */
export function numericOverflow(error: unknown): boolean {
  const e = error as PgError | undefined;
  return (e?.nativeError ?? e)?.code === "22003";
}

/** The constraint a unique violation (SQLSTATE 23505) names, or undefined for any other error. */
export function uniqueViolation(error: unknown): string | undefined {
  const violation = violatedConstraint(error);
  return violation?.sqlstate === "23505" ? violation.constraint : undefined;
}

/**
 * The constraint a foreign-key violation (SQLSTATE 23503) names, or undefined for any other error. On a delete or
 * key update of a referenced row it names the referencing table's constraint, so a caller can treat "any table
 * still references this row" generically without knowing which tables do.
 */
export function foreignKeyViolation(error: unknown): string | undefined {
  const violation = violatedConstraint(error);
  return violation?.sqlstate === "23503" ? violation.constraint : undefined;
}
