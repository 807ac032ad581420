import type { Knex } from "knex";

// invoice_frozen (migration 20261124000101) turned the whole old row into JSON in its declarations, so before its
// first line: every update of a draft paid for it too (an issue is one: 0.11 ms of the statement that holds the
// series row, PostgreSQL 15), though a draft may change freely. The same checks, the JSON only for a document that
// is issued or registered.
export async function up(_knex: Knex): Promise<void> {
  // Superseded: the rule's current text is src/db/functions/invoice_frozen.sql
  // (a repeatable definition, applied after the migrations; issue 23).
}

export async function down(_knex: Knex): Promise<void> {
  // The functions are repeatable definitions (src/db/functions): undoing this migration leaves the current ones.
}
