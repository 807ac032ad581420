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
export async function preparedQuery<Row extends Record<string, unknown>>(db: Db, name: string, text: string, values: unknown[]): Promise<Row[]> {
  const connection = (await db.client.acquireConnection()) as pg.PoolClient;
  try {
    const result = await connection.query<Row>(namedStatementsAllowed(db) ? { name, text, values } : { text, values });
    return result.rows;
  } finally {
    await db.client.releaseConnection(connection);
  }
}
