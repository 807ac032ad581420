import type { Knex } from "knex";
import { define } from "../definitions.js";

// Balances per company, account and day (issue 26): a report whose range starts or ends mid-month read that
// part-month's journal entries (up to half a month each end: at 10,000,000 entries a trial balance to the 20th took
// 391 ms against 43 ms for whole months). ledger_day_balances holds the debits and credits of each account's lines per
// day, moved by a statement trigger on journal_entries beside ledger_balances' (ledger_day_balances_move.sql), the
// same way, in 16 stripes by server process, summed on read; the reports read a part-month's days from it
// (src/ledger/reports/balances.ts). No partner dimension: a partner's part-months are read from its own lines (partial
// index of migration 20261127007000). The key leads with the day, so a range of days of every account is one
// index range. No foreign key to companies (journal_entries, whose lines it sums, has one; the trigger stays one
// upsert per key). Nothing else writes it (ledger_balances_written_by_journal.sql, the guard of ledger_balances too).
// An existing database gets it built here from its entries (stripe 0), before the guard exists.
export async function up(knex: Knex): Promise<void> {
  await define(knex, "ledger_day_balances_move", "ledger_balances_written_by_journal");
  await knex.raw(`
    create table ledger_day_balances (
      company_id uuid not null,
      day date not null,
      account_code text not null,
      stripe smallint not null check (stripe between 0 and 15),
      debit numeric not null,
      credit numeric not null,
      constraint ledger_day_balances_pkey primary key (company_id, day, account_code, stripe)
    );

    -- What the journal holds already.
    insert into ledger_day_balances (company_id, day, account_code, stripe, debit, credit)
    select company_id, date, account_code, 0, sum(debit), sum(credit)
      from journal_entries
     group by company_id, date, account_code;

    create trigger ledger_day_balances_written_by_journal before insert or update or delete on ledger_day_balances
      for each statement execute function ledger_balances_written_by_journal();
    create trigger ledger_day_balances_no_truncate before truncate on ledger_day_balances
      for each statement execute function refuse_change();

    create trigger ledger_day_balances_move after insert on journal_entries referencing new table as new_entries
      for each statement execute function ledger_day_balances_move();
  `);
}

export async function down(knex: Knex): Promise<void> {
  // The function is a repeatable definition (src/db/functions): undoing this migration leaves its current text.
  await knex.raw(`
    drop trigger ledger_day_balances_move on journal_entries;
    drop table ledger_day_balances;
  `);
}
