import type { Knex } from "knex";
import { define } from "../definitions.js";

// A key revoked while a write of it is in flight (issue 7, defect 8). Every write reads its key again as its
// transaction begins; that read now first takes the key's advisory lock in shared mode, held until the write's
// commit, and a revocation takes the same lock exclusively. So a revocation waits for the writes already past the
// check, and answers only once they have committed: after a revocation's 200, no write of that key commits. The
// lock lives in the lock manager (no row is locked, so concurrent writes of one key never share-lock its row).
// A function, so that the read runs after the lock is granted, with a snapshot that sees a revocation committed
// during the wait, in one round trip.
export async function up(knex: Knex): Promise<void> {
  // Its current text: src/db/functions/api_key_write_guard.sql (issue 23).
  await define(knex, "api_key_write_guard");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop function api_key_write_guard(uuid)");
}
