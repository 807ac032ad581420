import type { Db, Trx } from "./connection.js";

// SQLSTATEs on which a whole transaction may be retried: nothing of it was committed.
// https://www.postgresql.org/docs/current/errcodes-appendix.html
const RETRYABLE_SQLSTATES = new Set([
  "40001", // serialization_failure
  "40P01", // deadlock_detected
]);

const MAX_ATTEMPTS = 4;

/**
 * Runs `work` in one transaction and retries it from the start on a serialization failure or deadlock.
 * `work` must have no effect outside the database (jobs are added through the transaction itself).
 */
export async function withTransaction<T>(db: Db, work: (trx: Trx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (error) {
      const e = error as PgError;
      const code = e.nativeError?.code ?? e.code;
      if (attempt >= MAX_ATTEMPTS || !code || !RETRYABLE_SQLSTATES.has(code)) throw error;
      await new Promise((r) => setTimeout(r, 5 * attempt + Math.random() * 10));
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
