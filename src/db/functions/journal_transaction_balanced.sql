-- A journal transaction balances: at commit (a deferred constraint trigger, once per transaction), its debits equal its
-- credits and it has lines. The lookup runs on a generic plan: a custom plan for a company the last ANALYZE did not see
-- may read the company's lines through the date index, quadratic at commit (issue 13).
create or replace function journal_transaction_balanced()
  returns trigger
  language plpgsql volatile set plan_cache_mode = force_generic_plan
as $$
    declare
      debits numeric;
      credits numeric;
      lines int;
    begin
      select coalesce(sum(debit), 0), coalesce(sum(credit), 0), count(*) into debits, credits, lines
        from journal_entries where company_id = new.company_id and transaction_id = new.id;
      if lines < 2 or debits <> credits or debits <> new.total then
        raise exception 'journal transaction % does not balance (% lines, debits %, credits %, total %)', new.id, lines, debits, credits, new.total
          using errcode = 'check_violation', constraint = 'journal_transactions_balanced';
      end if;
      return null;
    end $$;
