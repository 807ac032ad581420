-- A journal header, checked once per statement: its month is not locked (ledger_month_locked, under the company's
-- period lock held shared, so a lock waits for the posting or the posting sees the lock), its date lies in its year, and
-- its number, when it has one, comes from the company's journal series (issue 10, issue 22 item 12).
create or replace function journal_transactions_checks()
  returns trigger
  language plpgsql volatile
as $$
    declare
      bad record;
    begin
      perform pg_advisory_xact_lock_shared(7301, hashtext(c.company_id::text))
         from (select distinct company_id from new_headers order by company_id) c;
      select h.id into bad from new_headers h where h.open_xid is distinct from pg_current_xact_id() limit 1;
      if found then
        raise exception 'open_xid of journal transaction % is set by the database', bad.id
          using errcode = 'check_violation', constraint = 'journal_transactions_open_xid';
      end if;
      select n.company_id, n.month into bad
        from (select distinct company_id, date_trunc('month', date)::date as month from new_headers) n
       where ledger_month_locked(n.company_id, n.month)
       limit 1;
      if found then
        raise exception 'period % of company % is locked', to_char(bad.month, 'YYYY-MM'), bad.company_id
          using errcode = 'check_violation', constraint = 'ledger_period_locked';
      end if;
      return null;
    end $$;
