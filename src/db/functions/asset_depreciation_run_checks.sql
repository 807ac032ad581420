-- A depreciation run is history (issue 22, defect 3): it may change only once, by being marked reversed, and only
-- after every journal transaction of it names the transaction that reverses it; nothing deletes a run.
-- Fires: asset_depreciation_runs_checks (before update or delete on asset_depreciation_runs).
create or replace function asset_depreciation_run_checks()
  returns trigger
  language plpgsql volatile
as $$
    begin
      if tg_op = 'DELETE' or old.reversed_at is not null or new.reversed_at is null
         or (new.company_id, new.month, new.run_no, new.asset_count, new.total, new.posted_at) is distinct from
            (old.company_id, old.month, old.run_no, old.asset_count, old.total, old.posted_at)
         or new.created_by_key_id is distinct from old.created_by_key_id then
        raise exception 'a posted depreciation month cannot be changed or deleted, only reversed once' using errcode = 'integrity_constraint_violation';
      end if;
      if exists (select 1 from asset_depreciation_run_transactions t
                  where t.company_id = old.company_id and t.month = old.month and t.run_no = old.run_no and t.reversal_transaction_id is null) then
        raise exception 'depreciation run %/% cannot be marked reversed while a transaction of it is not reversed', old.month, old.run_no
          using errcode = 'integrity_constraint_violation';
      end if;
      return new;
    end $$;
