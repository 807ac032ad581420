// Databases as an earlier release left them (test/fixtures/README.md): the schema and reference data a release's
// migrations made, restored into a new database of the test run's server, so that a test migrates a real older
// database forward — the path an operator's database takes — instead of rolling the current one back.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { runMigrations } from "graphile-worker";
import pg from "pg";
import { withDatabase } from "../../src/db/connection.js";

export type Fixture = "05401b5" | "20261124000151";

export interface RestoredDatabase {
  connectionString: string;
  drop(): Promise<void>;
}

/**
 * A new database holding the fixture (a pg_dump of schema public with its reference rows and knex_migrations) and the
 * job queue's schema.
 */
export async function restoreFixture(fixture: Fixture): Promise<RestoredDatabase> {
  const adminUrl = process.env.TEST_PG_ADMIN_URL!;
  const name = `acct_f_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}" template template0`);
  await admin.end();
  const connectionString = withDatabase(adminUrl, name);
  const sql = gunzipSync(readFileSync(new URL(`../fixtures/db-${fixture}.sql.gz`, import.meta.url))).toString("utf8");
  // The dump sets search_path to '' for its session: run it on a connection of its own.
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query("drop schema public cascade; create schema public;");
    await client.query(sql);
  } finally {
    await client.end();
  }
  // The job queue's own schema, which that release had too (the dump holds schema public only).
  const pool = new pg.Pool({ connectionString, max: 1 });
  pool.on("error", () => undefined);
  try {
    await runMigrations({ pgPool: pool });
  } finally {
    await pool.end();
  }
  return {
    connectionString,
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}
