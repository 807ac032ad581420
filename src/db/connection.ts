import knexModule, { type Knex } from "knex";
import pg from "pg";

// `date` columns stay `YYYY-MM-DD` strings (pg would turn them into local-midnight Dates);
// `numeric` and `bigint` already come back as strings, which is what money needs.
pg.types.setTypeParser(1082, (value: string) => value);

export type Db = Knex;
export type Trx = Knex.Transaction;

export interface DbOptions {
  connectionString: string;
  poolMax?: number;
  applicationName?: string;
  /**
   * False when connectionString is a transaction-pooling PgBouncer (DATABASE_POOLING=transaction): a named prepared
   * statement lives in one server session, which such a pooler does not keep for a client (src/db/prepared.ts).
   */
  namedStatements?: boolean;
  /** Where knex's own warnings go (a lost connection, say); default: nowhere (knex would print to stdout). */
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export function createDb({ connectionString, poolMax = 10, applicationName = "accounting-api", namedStatements = true, log }: DbOptions): Db {
  const config: Knex.Config & { namedStatements: boolean } = {
    namedStatements,
    client: "pg",
    connection: { connectionString, application_name: applicationName },
    pool: { min: 0, max: poolMax },
    acquireConnectionTimeout: 10_000,
    // Logs stay one JSON object per line: knex's messages go to the service's logger.
    log: {
      warn: (message: unknown) => log?.warn({ knex: String(message) }, "database client warning"),
      error: (message: unknown) => log?.error({ knex: String(message) }, "database client error"),
      deprecate: (message: unknown) => log?.warn({ knex: String(message) }, "database client deprecation"),
      debug: () => undefined,
    },
  };
  return knexModule.knex(config);
}

/** Whether statements may be prepared by name on this database handle (or a transaction of it). */
export const namedStatementsAllowed = (db: Db): boolean => (db.client.config as { namedStatements?: boolean }).namedStatements !== false;

/**
 * The connection string with `synchronous_commit = off` for its sessions: commits return before their WAL is
 * flushed. Only for work whose loss in a database crash is harmless (webhook delivery bookkeeping: at worst an event
 * is sent again), never for the API's writes.
 */
export function withAsynchronousCommit(connectionString: string): string {
  const url = new URL(connectionString);
  url.searchParams.set("options", `${url.searchParams.get("options") ?? ""} -c synchronous_commit=off`.trim());
  return url.toString();
}

/** Replaces the database name in a connection string. */
export function withDatabase(connectionString: string, database: string): string {
  const url = new URL(connectionString);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * A pg pool for graphile-worker that this service owns. graphile-worker's own pools are ended without waiting, after
 * their error listeners are removed, so a connection closed by the server just after `stop()` (a database dropped or
 * restarted, PgBouncer reconnecting) raised an unhandled `error` event and took the process down. This pool keeps
 * its listeners for its whole life and `end()` waits until every connection is closed.
 */
export function createJobPool(options: { connectionString: string; max: number; applicationName: string; onError: (error: Error) => void }): pg.Pool {
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.max, application_name: options.applicationName });
  pool.on("error", options.onError);
  pool.on("connect", (client) => client.on("error", options.onError));
  return pool;
}
