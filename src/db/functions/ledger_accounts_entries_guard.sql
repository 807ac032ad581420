-- An account cannot be deleted or re-keyed while journal lines name it (the lines' foreign key was dropped for
-- throughput, issue 10): refused with the old foreign key's SQLSTATE (23503) and name, so callers map it as before.
create or replace function ledger_accounts_entries_guard()
  returns trigger
  language plpgsql volatile
as $$
    begin
      if tg_op = 'UPDATE' and new.company_id = old.company_id and new.code = old.code then
        return new;
      end if;
      if exists (select 1 from journal_entries e where e.company_id = old.company_id and e.account_code = old.code) then
        raise exception 'account % has journal entries', old.code
          using errcode = 'foreign_key_violation', constraint = 'journal_entries_account_fkey';
      end if;
      return case when tg_op = 'DELETE' then old else new end;
    end $$;
