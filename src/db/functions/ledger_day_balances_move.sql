-- ledger_day_balances (migration 20261127009000, issue 26) holds, per company, day and account, the debits and
-- credits of the journal's lines: the reports read the days of a range's part-months (a range from the 15th, a balance
-- sheet at the 20th) from it instead of that half-month's entries. A statement trigger on journal_entries beside
-- ledger_balances_move, the same way: in the transaction of every insert of entries, whoever writes them, from the
-- statement's rows summed per key (a transition table), into one of 16 stripes of a key chosen by the server process,
-- keys written in order; entries are never updated or deleted, so an insert is the only move. The local setting
-- ledger.balances_writer tells the guard (ledger_balances_written_by_journal, on both tables) that the journal's
-- trigger is the writer; it is cleared before returning.
create or replace function ledger_day_balances_move()
  returns trigger
  language plpgsql volatile
as $$
    begin
      perform set_config('ledger.balances_writer', 'journal_entries', true);
      insert into ledger_day_balances as b (company_id, day, account_code, stripe, debit, credit)
      select n.company_id, n.date, n.account_code, (pg_backend_pid() % 16)::smallint, sum(n.debit), sum(n.credit)
        from new_entries n
       group by n.company_id, n.date, n.account_code
       order by n.company_id, n.date, n.account_code
      on conflict (company_id, day, account_code, stripe) do update
         set debit = b.debit + excluded.debit, credit = b.credit + excluded.credit;
      perform set_config('ledger.balances_writer', '', true);
      return null;
    end $$;
