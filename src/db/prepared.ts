import type pg from "pg";
import type { Db } from "./connection.js";

/**
 * Runs a statement as a named prepared statement on a pooled connection: PostgreSQL plans it once per connection
 * instead of on every call. For the statements every request runs (src/http/gate.ts); `text` uses $1, $2...
 */
export async function preparedQuery<Row extends Record<string, unknown>>(db: Db, name: string, text: string, values: unknown[]): Promise<Row[]> {
  const connection = (await db.client.acquireConnection()) as pg.PoolClient;
  try {
    const result = await connection.query<Row>({ name, text, values });
    return result.rows;
  } finally {
    await db.client.releaseConnection(connection);
  }
}
