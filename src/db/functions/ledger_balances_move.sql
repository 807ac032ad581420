-- ledger_balances (migration 20261127004000, issue 26) holds, per company, account, month and partner (the partner a
-- line names, null for a line that names none), the debits and credits of the journal's lines: the reports read whole
-- months from it instead of adding up every entry since the start of the books. This statement trigger moves it in
-- the transaction of every insert into journal_entries — the one posting function, a document's numbering statement,
-- the books import's set-based batches, any SQL — from the statement's rows summed per key (a transition table, so a
-- bulk insert touches each key once). Entries are never updated or deleted (refuse_change), so an insert is the only
-- move. Each statement adds to one of 16 stripes of a key, chosen by the server process (pg_backend_pid), as the
-- invoice list totals do: concurrent postings to one account on different connections rarely wait on one another's
-- row; a reader sums the stripes. Keys are written in order, so two statements never take them crosswise. The local
-- setting ledger.balances_writer tells ledger_balances_written_by_journal (the guard on the table) that this
-- function is the writer; it is cleared before returning.
create or replace function ledger_balances_move()
  returns trigger
  language plpgsql volatile
as $$
    begin
      perform set_config('ledger.balances_writer', 'journal_entries', true);
      insert into ledger_balances as b (company_id, account_code, month, partner_code, stripe, debit, credit)
      select n.company_id, n.account_code, date_trunc('month', n.date)::date, n.partner_code, (pg_backend_pid() % 16)::smallint,
             sum(n.debit), sum(n.credit)
        from new_entries n
       group by n.company_id, n.account_code, date_trunc('month', n.date)::date, n.partner_code
       order by n.company_id, n.account_code, date_trunc('month', n.date)::date, n.partner_code
      on conflict (company_id, account_code, month, partner_code, stripe) do update
         set debit = b.debit + excluded.debit, credit = b.credit + excluded.credit;
      perform set_config('ledger.balances_writer', '', true);
      return null;
    end $$;
