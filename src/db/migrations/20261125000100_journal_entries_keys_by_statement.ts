import type { Knex } from "knex";
import { define } from "../definitions.js";

// The lines' references to their header and their account were checked twice: once per row by two foreign keys,
// once per statement by journal_entries_checks (the header exists and was created by this transaction; the account
// exists and is postable). For a books import of 180,000 lines the two foreign keys' per-row triggers took 1.75 s of
// the 4.7 s insert (EXPLAIN ANALYZE on PostgreSQL 15); the statement check needs 0.24 s. The foreign keys go; what
// they did besides the insert-time check is kept by other means:
// - a header cannot be deleted or re-keyed under its lines: journal_transactions refuses every update and delete
//   (journal_transactions_immutable, _no_truncate);
// - an account cannot be deleted or re-keyed under its lines: ledger_accounts_entries_guard refuses it, with the
//   old foreign key's SQLSTATE (23503) and name, so callers map it as before;
// - an account cannot be deleted while lines naming it are being written: the statement check locks each account it
//   names FOR KEY SHARE (as the foreign key did per row), so a concurrent delete waits for the posting and then
//   finds its lines, or the posting waits for the delete and then finds no account.
export async function up(knex: Knex): Promise<void> {
  // The lines' check and the accounts' guard: src/db/functions/journal_entries_checks.sql and
  // ledger_accounts_entries_guard.sql (their current text; issue 23).
  await define(knex, "journal_entries_checks", "ledger_accounts_entries_guard");
  await knex.raw(`
    alter table journal_entries drop constraint journal_entries_transaction_fkey, drop constraint journal_entries_account_fkey;
    create trigger ledger_accounts_entries_guard before delete or update of company_id, code on ledger_accounts
      for each row execute function ledger_accounts_entries_guard();
  `);
}

export async function down(knex: Knex): Promise<void> {
  // The functions are repeatable definitions (src/db/functions): undoing this migration leaves the current ones.
  await knex.raw(`
    drop trigger ledger_accounts_entries_guard on ledger_accounts;
    alter table journal_entries
      add constraint journal_entries_transaction_fkey foreign key (company_id, transaction_id) references journal_transactions (company_id, id),
      add constraint journal_entries_account_fkey foreign key (company_id, account_code) references ledger_accounts (company_id, code);
  `);
}
