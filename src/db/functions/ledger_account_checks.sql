-- The chart's rules the database keeps as well as the code: a parent exists and takes no postings, an account that
-- has sub-accounts takes no postings, the type of a sub-account is its parent's, and the hierarchy has no cycle.
create or replace function ledger_account_checks()
  returns trigger
  language plpgsql volatile
as $$
    begin
      if new.parent_code is not null and (select is_postable from ledger_accounts where company_id = new.company_id and code = new.parent_code) then
        raise exception 'parent account % is postable', new.parent_code
          using errcode = 'check_violation', constraint = 'ledger_accounts_parent_not_postable';
      end if;
      if tg_op = 'UPDATE' then
        if new.is_postable and not old.is_postable and exists (select 1 from ledger_accounts where company_id = new.company_id and parent_code = new.code) then
          raise exception 'account % has sub-accounts and cannot be postable', new.code
            using errcode = 'check_violation', constraint = 'ledger_accounts_parent_not_postable';
        end if;
        if (new.type <> old.type or (old.is_postable and not new.is_postable))
           and exists (select 1 from journal_entries where company_id = new.company_id and account_code = new.code) then
          raise exception 'account % has postings', new.code
            using errcode = 'check_violation', constraint = 'ledger_accounts_has_postings';
        end if;
      end if;
      return new;
    end $$;
