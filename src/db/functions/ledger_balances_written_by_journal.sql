-- ledger_balances and ledger_day_balances are what the journal says, so each has one writer: a statement trigger of
-- journal_entries (ledger_balances_move.sql, ledger_day_balances_move.sql), which runs nested in the insert of the
-- entries (trigger depth 2 here) and marks itself with the transaction-local setting ledger.balances_writer. Any
-- other insert, update or delete — a client's SQL, a trigger of another table — is refused; a truncate too
-- (refuse_change). A statement-level guard: one check per statement, not per balance row. (The rebuilds of migrations
-- 20261127004000 and 20261127009000 write before this guard exists.)
create or replace function ledger_balances_written_by_journal()
  returns trigger
  language plpgsql volatile
as $$
    begin
      if pg_trigger_depth() < 2 or current_setting('ledger.balances_writer', true) is distinct from 'journal_entries' then
        raise exception '% is kept by the journal entries'' trigger only (%)', tg_table_name, tg_op
          using errcode = 'integrity_constraint_violation', constraint = 'ledger_balances_written_by_journal';
      end if;
      return null;
    end $$;
