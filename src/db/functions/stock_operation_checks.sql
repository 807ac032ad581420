-- Nothing moves stock in a locked month: the same check as the journal's (ledger_month_locked, under the company's
-- period lock held shared), on every stock operation, including those that post nothing.
create or replace function stock_operation_checks()
  returns trigger
  language plpgsql volatile
as $$
    begin
      perform pg_advisory_xact_lock_shared(7301, hashtext(new.company_id::text));
      if ledger_month_locked(new.company_id, new.date) then
        raise exception 'period % of company % is locked: no stock moves in it', to_char(new.date, 'YYYY-MM'), new.company_id
          using errcode = 'check_violation', constraint = 'ledger_period_locked';
      end if;
      return new;
    end $$;
