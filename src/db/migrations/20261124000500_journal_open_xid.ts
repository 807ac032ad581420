import type { Knex } from "knex";
import { define } from "../definitions.js";

// Entries can only be written in the database transaction that created their header (migration
// 20261122000003). That rule was kept with one transaction-local setting per header (`ledger.open_<id>`), which
// PostgreSQL 15 and older keep in a sorted array of every setting the session ever named: each new one re-sorts it,
// so a batch of n headers (a migration's history, 20,000 transactions) cost n² log n — about two minutes for
// 20,000 on PostgreSQL 15 — and the names outlived the transaction, slowing every later posting on that connection.
//
// Now the header records the top-level transaction that inserted it (`open_xid`, set by its insert trigger whatever
// the client sends), and the entries of a statement are checked once, after the statement, against their headers:
// same top-level transaction (savepoints share it, a rolled-back savepoint's header is gone), same date, postable
// account. An AFTER trigger sees the header also when header and lines are written by one statement (ledger_post's
// data-modifying CTEs), which a BEFORE trigger could not. The constraint names the code maps are unchanged.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table journal_transactions add column open_xid xid8;
    drop trigger if exists journal_entry_checks on journal_entries;
    drop function if exists journal_entry_checks();
  `);
  // The lines' check per statement (its current text: src/db/functions/journal_entries_checks.sql); the header's
  // check that sets open_xid is journal_transactions_checks.sql, fired per statement since migration 20261125000200.
  await define(knex, "journal_entries_checks");
  await knex.raw(`
    create trigger journal_entries_checks after insert on journal_entries
      referencing new table as new_entries
      for each statement execute function journal_entries_checks();
  `);
}

export async function down(knex: Knex): Promise<void> {
  // The functions are repeatable definitions (src/db/functions): undoing this migration leaves the current ones.
  await knex.raw(`
    drop trigger journal_entries_checks on journal_entries;
    alter table journal_transactions drop column open_xid;
  `);
}
