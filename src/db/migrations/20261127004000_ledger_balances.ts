import type { Knex } from "knex";
import { define } from "../definitions.js";

// Balances per company, account, month and partner (issue 26): a trial balance, balance sheet, profit and loss or a
// general ledger's opening added up every journal entry from the start of the books on each call (304-393 ms over a
// million entries, growing with history). ledger_balances holds the debits and credits of the lines of each key,
// moved by a statement trigger on journal_entries in the transaction of every insert (ledger_balances_move.sql), in
// 16 stripes per key (by server process, as the invoice list totals) summed on read; the reports read whole months
// from it and only the part-months at the ends of a range from the entries (src/ledger/reports/balances.ts).
// partner_code is the partner the lines name (null: none); the key holds null as one value (nulls not distinct).
// Nothing else writes it (ledger_balances_written_by_journal.sql). Entries are never updated or deleted, so their
// inserts are the only moves. An existing database gets its balances rebuilt here from its entries (stripe 0),
// before the guard exists.
export async function up(knex: Knex): Promise<void> {
  // The current text of the functions its triggers execute (src/db/functions; issue 23).
  await define(knex, "ledger_balances_move", "ledger_balances_written_by_journal");
  await knex.raw(`
    create table ledger_balances (
      company_id uuid not null references companies (id),
      account_code text not null,
      month date not null check (month = date_trunc('month', month)),
      partner_code text,
      stripe smallint not null check (stripe between 0 and 15),
      debit numeric not null,
      credit numeric not null,
      constraint ledger_balances_key unique nulls not distinct (company_id, account_code, month, partner_code, stripe)
    );

    -- What the journal holds already.
    insert into ledger_balances (company_id, account_code, month, partner_code, stripe, debit, credit)
    select company_id, account_code, date_trunc('month', date)::date, partner_code, 0, sum(debit), sum(credit)
      from journal_entries
     group by company_id, account_code, date_trunc('month', date)::date, partner_code;

    create trigger ledger_balances_written_by_journal before insert or update or delete on ledger_balances
      for each statement execute function ledger_balances_written_by_journal();
    create trigger ledger_balances_no_truncate before truncate on ledger_balances
      for each statement execute function refuse_change();

    create trigger ledger_balances_move after insert on journal_entries referencing new table as new_entries
      for each statement execute function ledger_balances_move();
  `);
}

export async function down(knex: Knex): Promise<void> {
  // The functions are repeatable definitions (src/db/functions): undoing this migration leaves the current ones.
  await knex.raw(`
    drop trigger ledger_balances_move on journal_entries;
    drop table ledger_balances;
  `);
}
