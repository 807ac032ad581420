-- The journal transactions of a depreciation run (a month above what one transaction may carry posts several): each
-- may only gain its reversal's id, once; nothing else of it changes and none is deleted (issue 22, defects 3 and 13).
create or replace function asset_depreciation_run_transaction_checks()
  returns trigger
  language plpgsql volatile
as $$
    begin
      if tg_op = 'INSERT' then
        if exists (select 1 from asset_depreciation_runs r
                    where r.company_id = new.company_id and r.month = new.month and r.run_no = new.run_no and r.reversed_at is not null) then
          raise exception 'depreciation run %/% is reversed: no transaction can be added to it', new.month, new.run_no using errcode = 'integrity_constraint_violation';
        end if;
        return new;
      end if;
      if tg_op = 'DELETE' or old.reversal_transaction_id is not null or new.reversal_transaction_id is null
         or (new.company_id, new.month, new.run_no, new.part, new.journal_transaction_id)
            is distinct from (old.company_id, old.month, old.run_no, old.part, old.journal_transaction_id) then
        raise exception 'a depreciation run''s transaction cannot be changed or deleted, only reversed once' using errcode = 'integrity_constraint_violation';
      end if;
      if not exists (select 1 from journal_transactions j
                      where j.company_id = new.company_id and j.id = new.reversal_transaction_id and j.reverses_id = new.journal_transaction_id) then
        raise exception 'journal transaction % does not reverse %', new.reversal_transaction_id, new.journal_transaction_id using errcode = 'integrity_constraint_violation';
      end if;
      return new;
    end $$;
