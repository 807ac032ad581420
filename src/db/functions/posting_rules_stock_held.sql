-- The stock account and the stock layers keep together (issue 22, item 11): the inventory.stock posting rule cannot be
-- repointed (or its row deleted) while the layers hold value; the account posted to on receipt must be the one credited
-- on issue.
create or replace function posting_rules_stock_held()
  returns trigger
  language plpgsql volatile
as $$
    declare
      k_company uuid := case when tg_op = 'DELETE' then old.company_id else new.company_id end;
    begin
      if tg_op = 'UPDATE' and new.account_code = old.account_code then
        return new;
      end if;
      perform pg_advisory_xact_lock(7304, hashtext(k_company::text));
      if exists (select 1 from stock_layer_sums s where s.company_id = k_company and s.value > 0) then
        raise exception 'the stock layers of company % hold value: the posting rule inventory.stock cannot change', k_company
          using errcode = 'check_violation', constraint = 'posting_rules_stock_held';
      end if;
      return case when tg_op = 'DELETE' then old else new end;
    end $$;
