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
}

export function createDb({ connectionString, poolMax = 10, applicationName = "accounting-api" }: DbOptions): Db {
  return knexModule.knex({
    client: "pg",
    connection: { connectionString, application_name: applicationName },
    pool: { min: 0, max: poolMax },
    acquireConnectionTimeout: 10_000,
  });
}

/** Replaces the database name in a connection string. */
export function withDatabase(connectionString: string, database: string): string {
  const url = new URL(connectionString);
  url.pathname = `/${database}`;
  return url.toString();
}
