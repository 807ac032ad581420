import type { Knex } from "knex";

// Two things the migration of historical books (issue 13) needs from the journal.
//
// 1. Long opening balances. A trial balance is one transaction with one line per account: the contract allows 20,000
//    rows in `openingBalances.entries` plus the balancing line, and a chart of 2,000+ accounts is ordinary. The lines'
//    check stopped at 1,000 (20261122000003), so such an import passed validate and failed on insert. It now allows
//    20,001 lines; the ordinary `ledger/journal/transactions/create` keeps its own limit in its request schema. Every
//    existing row satisfied the narrower check, so the wider one is added NOT VALID: it checks every new row as
//    before, without scanning the whole journal under an ACCESS EXCLUSIVE lock while the release migrates.
//
// 2. The balance check at commit (journal_transaction_balanced) plans its lookup
//    `where company_id = $1 and transaction_id = $2` with a generic plan. A custom plan for a company the last
//    ANALYZE did not see (a new company importing its books) estimates the company at one row, finds every index that
//    starts with company_id equally cheap, and may read the transaction's lines through journal_entries_date_idx:
//    all of the company's lines for each transaction, quadratic at commit (a fresh connection committing 20,000
//    imported transactions took more than 10 minutes on PostgreSQL 15). A generic plan estimates by the columns'
//    distinct counts and always takes the primary key. This replaces the ANALYZE the import ran inside its
//    transaction, which held a lock on the shared tables until commit (imports of different companies ran one after
//    another) and left inflated statistics behind a rollback.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table journal_entries
      drop constraint journal_entries_line_no_check,
      add constraint journal_entries_line_no_check check (line_no between 1 and 20001) not valid;
    alter function journal_transaction_balanced() set plan_cache_mode = force_generic_plan;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    alter function journal_transaction_balanced() reset plan_cache_mode;
    alter table journal_entries
      drop constraint journal_entries_line_no_check,
      add constraint journal_entries_line_no_check check (line_no between 1 and 1000) not valid;
  `);
}
