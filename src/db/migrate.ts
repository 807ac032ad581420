import { runMigrations } from "graphile-worker";
import pg from "pg";
import { createDb, createJobPool, type Db } from "./connection.js";
import { applyDefinitions, pendingDefinitions } from "./definitions.js";
import { migrationSource } from "./migrations/index.js";

// Serialises concurrent starts (several API processes and workers on one database) on one session-level
// advisory lock, held on a connection of its own: one process migrates, the others wait and find nothing to do.
// A session lock needs a session, so migrations always run on the direct connection (DIRECT_DATABASE_URL), never
// through a transaction-pooling PgBouncer.
const MIGRATION_LOCK = 7_301_366_001;

export async function migrate(directConnectionString: string): Promise<void> {
  const lock = new pg.Client({ connectionString: directConnectionString, application_name: "accounting-migrate" });
  await lock.connect();
  const db = createDb({ connectionString: directConnectionString, poolMax: 1, applicationName: "accounting-migrate" });
  try {
    await lock.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await db.migrate.latest({ migrationSource });
    // Then the functions whose definition changed (src/db/functions), in the same lock.
    await applyDefinitions(db);
    const jobs = createJobPool({ connectionString: directConnectionString, max: 1, applicationName: "accounting-migrate", onError: () => undefined });
    try {
      await runMigrations({ pgPool: jobs });
    } finally {
      await jobs.end();
    }
  } finally {
    await db.destroy();
    await lock.end();
  }
}

/**
 * Names of the migrations this build has that the database has not applied, and of the definitions whose text it
 * does not have (`definition:<name>`, src/db/definitions.ts): empty when it is current.
 */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const known = await migrationSource.getMigrations([]);
  const applied = new Set<string>(
    (await db("knex_migrations")
      .pluck("name")
      .catch(() => [])) as string[],
  );
  const definitions = await pendingDefinitions(db).catch(() => ["(unreadable)"]);
  return [...known.filter((name) => !applied.has(name)), ...definitions.map((name) => `definition:${name}`)];
}
