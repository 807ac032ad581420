import type { Knex } from "knex";
import { define } from "../definitions.js";

// The posting function's two statements (src/ledger/posting.ts) as PL/pgSQL functions, for the reason the gate's is
// one (migration 20261123000003): PL/pgSQL caches each statement's plan per server connection, so a posting is
// planned once per connection also through a transaction-pooling PgBouncer, where named prepared statements cannot
// be used (issue 15). The statements are unchanged; the triggers of the ledger migration still check every row.
export async function up(knex: Knex): Promise<void> {
  // Their current text: src/db/functions/ledger_posting_context.sql and ledger_post.sql (issue 23).
  await define(knex, "ledger_posting_context", "ledger_post");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop function ledger_post(uuid, integer, date, text, text, text, text, text, uuid, numeric, text[], text[], uuid, text[], numeric[], numeric[], text[], text[], numeric[], numeric[], text[]);
    drop function ledger_posting_context(uuid, text[], text[], date);
  `);
}
