import type pg from "pg";
import { namedStatementsAllowed, type Db } from "./connection.js";

/**
 * Runs a statement as a named prepared statement on a pooled connection: PostgreSQL plans it once per connection
 * instead of on every call. For the statements every request runs (the gate, the posting function); `text` uses
 * $1, $2...
 *
 * Through a transaction-pooling PgBouncer (DATABASE_POOLING=transaction) a named statement would be prepared on
 * one server connection and looked for on another ("prepared statement does not exist", or "already exists"), so
 * there the statement runs unnamed: the same text and parameters, planned on every call (issue 15; the cost is
 * measured by `npm run bench -- platform`).
 */
export async function preparedQuery<Row extends object = Record<string, unknown>>(db: Db, name: string, text: string, values: unknown[]): Promise<Row[]> {
  const connection = (await db.client.acquireConnection()) as pg.PoolClient;
  const named = namedStatementsAllowed(db);
  try {
    const result = await connection.query<Row>(named ? { name, text, values } : { text, values });
    return result.rows;
  } catch (error) {
    if (named && isPooledStatementError(error)) noNamedStatements(db);
    throw error;
  } finally {
    await db.client.releaseConnection(connection);
  }
}

/**
 * "prepared statement … does not exist" (26000) or "… already exists" (42P05) on a named statement: DATABASE_URL
 * is a transaction-pooling PgBouncer that nobody declared (DATABASE_POOLING, DIRECT_DATABASE_URL). Nothing of the
 * statement ran, so the caller's transaction (src/db/transaction.ts) or read may run again; it then runs unnamed.
 */
export function isPooledStatementError(error: unknown): boolean {
  const code = (error as { code?: string; nativeError?: { code?: string } })?.nativeError?.code ?? (error as { code?: string })?.code;
  return code === "26000" || code === "42P05";
}

/** From now on this handle (and every transaction of it) sends its statements unnamed; said once in the log. */
function noNamedStatements(db: Db): void {
  const config = db.client.config as { namedStatements?: boolean };
  if (config.namedStatements === false) return;
  config.namedStatements = false;
  (db.client as unknown as { logger: { warn(message: string): void } }).logger.warn(
    "named prepared statements do not survive on DATABASE_URL (a transaction-pooling PgBouncer?): statements are sent unnamed from now on; set DATABASE_POOLING=transaction and DIRECT_DATABASE_URL to a direct connection (README, Several processes on one database)",
  );
}

/**
 * Runs a one-off statement with `$1, $2...` parameters on the connection of `db` (the transaction's, inside one),
 * unnamed. For set-based writes that pass whole columns as arrays (`unnest($1::text[], …)`): knex.raw would expand
 * an array binding into a list of parameters.
 */
export async function plainQuery<Row extends object = Record<string, unknown>>(db: Db, text: string, values: unknown[]): Promise<Row[]> {
  const connection = (await db.client.acquireConnection()) as pg.PoolClient;
  try {
    return (await connection.query<Row>({ text, values })).rows;
  } finally {
    await db.client.releaseConnection(connection);
  }
}
