import type pg from "pg";
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
const CONNECTION_LOST_MESSAGE =
  /Connection terminated|not queryable|ECONNRESET|EPIPE|ECONNREFUSED|socket hang up|server conn crashed|server closed the connection/i;

const MAX_ATTEMPTS = 4;

const sqlstateOf = (error: unknown) => {
  const e = error as PgError | undefined;
  return e?.nativeError?.code ?? e?.code;
};

/** True when the error says the database connection was lost (not that a statement failed). */
export function isConnectionLost(error: unknown): boolean {
  const code = sqlstateOf(error);
  return (
    (code !== undefined && (CONNECTION_LOST_SQLSTATES.has(code) || code.startsWith("08"))) ||
    CONNECTION_LOST_MESSAGE.test(String((error as Error)?.message ?? ""))
  );
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
    let transaction: Trx | undefined;
    try {
      return await db.transaction(async (trx) => {
        transaction = trx;
        const result = await work(trx);
        reachedCommit = true;
        return result;
      });
    } catch (error) {
      const code = sqlstateOf(error);
      // COMMIT may have gone right behind the last statement (commitBehindLastStatement): a connection lost since then
      // is as ambiguous as one lost during COMMIT. A statement that failed had the server answer that COMMIT with a
      // rollback, so a failed statement is retried as before.
      const commitSent = transaction !== undefined && behind.get(transaction)?.commit !== undefined;
      const retryable =
        (code !== undefined && RETRYABLE_SQLSTATES.has(code)) ||
        (!reachedCommit && (isPooledStatementError(error) || (isConnectionLost(error) && !commitSent)));
      if (attempt >= MAX_ATTEMPTS || !retryable) throw error;
      await backoff(attempt);
    }
  }
}

type PipelinedConnection = pg.PoolClient & { pipeline: boolean };
type QueryCallback = (error: Error | null, result?: pg.QueryResult) => void;

const behind = new WeakMap<Trx, { commit?: Promise<pg.QueryResult> }>();
const ENDS_TRANSACTION = /^\s*(commit|rollback)\b/i;

/**
 * Runs `last`, whose one statement must be the transaction's last, and sends COMMIT right behind that statement
 * instead of after its answer: the server runs both in order, and the locks the transaction holds (a document
 * series' row, which every other document of the series waits for) are released as the statement ends, not a
 * round trip and a turn of this process's event loop later. The driver's pipeline mode (pg `pipeline`) is on for
 * these two messages only.
 *
 * When the statement fails, the transaction is aborted and the server answers the COMMIT with a rollback: nothing
 * was committed, and `last` rejects with the statement's error as before. knex's own COMMIT (or ROLLBACK) at the end
 * of the transaction is answered by the one already sent, so knex reports the outcome it had: a COMMIT that failed
 * (a deferred constraint) rejects the transaction. Any other statement after the last one is refused without being
 * sent (it would run outside the transaction). Outside a transaction, or in a savepoint, `last` simply runs.
 */
export async function commitBehindLastStatement<T>(trx: Db, last: () => Promise<T>): Promise<T> {
  // Only a transaction's own COMMIT: a savepoint's (a nested transaction) would commit the enclosing one.
  if (!trx.isTransaction || (trx as { parentTransaction?: unknown }).parentTransaction || behind.has(trx as Trx)) return last();
  const connection = (await trx.client.acquireConnection()) as PipelinedConnection;
  const state: { commit?: Promise<pg.QueryResult> } = {};
  behind.set(trx as Trx, state);
  const send = connection.query as (this: PipelinedConnection, config: unknown, values?: unknown, callback?: unknown) => unknown;
  const own = (c: PipelinedConnection) => delete (c as { query?: unknown }).query;
  (connection as { query: unknown }).query = function (this: PipelinedConnection, config: unknown, values?: unknown, callback?: unknown) {
    const text = typeof config === "string" ? config : (config as { text?: string } | undefined)?.text;
    const reply = (typeof values === "function" ? values : callback) as QueryCallback | undefined;
    const ends = text !== undefined && ENDS_TRANSACTION.test(text);
    if (state.commit === undefined) {
      // The transaction ends before its last statement (`last` failed first): the connection is itself again.
      if (ends) {
        own(this);
        return send.call(this, config, values, callback);
      }
      // The last statement, and the COMMIT pipelined behind it; pipeline mode ends when the COMMIT is answered.
      this.pipeline = true;
      const result = send.call(this, config, values, callback);
      const commit = send.call(this, "COMMIT") as unknown as Promise<pg.QueryResult>;
      state.commit = commit;
      commit.then(
        () => (this.pipeline = false),
        () => (this.pipeline = false),
      );
      return result;
    }
    if (!ends) {
      const error = new Error("commitBehindLastStatement: a statement after the transaction's last one was refused (COMMIT was sent already)");
      if (reply) return void process.nextTick(() => reply(error));
      return Promise.reject(error);
    }
    // knex ends the transaction: the COMMIT sent behind the statement answers, and the connection is itself again.
    own(this);
    const outcome = state.commit.then((result) => {
      if (/^\s*commit\b/i.test(text!) && result.command !== "COMMIT") throw new Error("The transaction was rolled back: its last statement failed.");
      return result;
    });
    if (reply)
      return void outcome.then(
        (result) => reply(null, result),
        (error: Error) => reply(error),
      );
    return outcome;
  };
  try {
    return await last();
  } finally {
    if (state.commit === undefined) own(connection);
    await trx.client.releaseConnection(connection);
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
