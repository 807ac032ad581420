import type { Knex } from "knex";

// The statement-level entry check (migrations 20261124000500, …650) looked a header and an account up once per
// entry: 180,000 of each for a books import of 60,000 three-line transactions. It now looks up each header once per
// (transaction, date) the statement names and each account once per code: 60,000 and about 2,000 probes. The rules
// and the constraint names the code maps are unchanged.
export async function up(_knex: Knex): Promise<void> {
  // Superseded: the rule's current text is src/db/functions/journal_entries_checks.sql
  // (a repeatable definition, applied after the migrations; issue 23).
}

export async function down(_knex: Knex): Promise<void> {
  // The functions are repeatable definitions (src/db/functions): undoing this migration leaves the current ones.
}
