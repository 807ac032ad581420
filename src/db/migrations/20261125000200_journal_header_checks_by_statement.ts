import type { Knex } from "knex";
import { define } from "../definitions.js";

// A journal header's insert checks ran once per row (journal_transaction_checks, BEFORE INSERT): set open_xid, take
// the company's period lock shared, probe ledger_period_locks. Inserting 60,000 rows (a books import's headers) into a
// table of the same columns took 0.40 s with that trigger, 0.05 s without and 0.07 s with the statement trigger
// below (PostgreSQL 15). So:
// - open_xid comes from the column's default (the inserting top-level transaction), and the statement check refuses
//   a header that names another (journal_transactions_open_xid) — before, the row trigger overwrote what was sent;
// - the period lock is taken once per company the statement names, in company order, after the rows are written and
//   before the period check reads ledger_period_locks; the check sees every lock committed before it got the
//   company's lock, and a lock taken later waits for this transaction (src/ledger/periods.ts), as before.
export async function up(knex: Knex): Promise<void> {
  // The header's check per statement: src/db/functions/journal_transactions_checks.sql (its current text; issue 23).
  await define(knex, "journal_transactions_checks");
  await knex.raw(`
    alter table journal_transactions alter column open_xid set default pg_current_xact_id();
    drop trigger if exists journal_transaction_checks on journal_transactions;
    drop function if exists journal_transaction_checks();
    create trigger journal_transactions_checks after insert on journal_transactions
      referencing new table as new_headers for each statement execute function journal_transactions_checks();
  `);
}

export async function down(knex: Knex): Promise<void> {
  // The functions are repeatable definitions (src/db/functions): undoing this migration leaves the current ones.
  await knex.raw(`
    drop trigger journal_transactions_checks on journal_transactions;
    alter table journal_transactions alter column open_xid drop default;
  `);
}
