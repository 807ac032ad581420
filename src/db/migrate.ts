import { runMigrations } from "graphile-worker";
import pg from "pg";
import type { Db } from "./connection.js";
import { migrationSource } from "./migrations/index.js";

// Serialises concurrent starts (several API processes and workers on one database) on one session-level
// advisory lock, held on a connection of its own: one process migrates, the others wait and find nothing to do.
const MIGRATION_LOCK = 7_301_366_001;

export async function migrate(db: Db, connectionString: string): Promise<void> {
  const lock = new pg.Client({ connectionString });
  await lock.connect();
  try {
    await lock.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await db.migrate.latest({ migrationSource });
    await runMigrations({ connectionString });
  } finally {
    await lock.end();
  }
}
