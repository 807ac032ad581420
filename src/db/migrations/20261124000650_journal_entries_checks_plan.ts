import type { Knex } from "knex";

// The statement-level check of journal entries (migration 20261124000500) joins the statement's entries to their
// headers and accounts. Its plan is cached per connection; made while the journal was small (or from statistics
// that do not know a company's rows yet), PostgreSQL may join through a sequential scan of the headers: one scan per
// entry, 86 s for 180,000 entries on PostgreSQL 15. Without sequential scans the join goes through the primary keys
// whatever the statistics say — one index probe per entry, for three entries as for 180,000 — and never reads other
// companies' rows. The setting holds only while the function runs. (A bulk posting also drops the connection's
// cached plans before its lines: src/ledger/posting.ts, postBatch.)
export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter function journal_entries_checks() set enable_seqscan = off");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter function journal_entries_checks() reset enable_seqscan");
}
