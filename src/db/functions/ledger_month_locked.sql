-- The one answer to "is this month locked?" (issue 22, item 12): a month is locked when it has a lock of its own
-- (ledger_period_locks), or when the company's locked-through month (ledger_locked_through, moved by
-- ledger/periods/lock {through}) is that month or a later one — with or without a period row.
create or replace function ledger_month_locked(p_company_id uuid, p_date date)
  returns boolean
  language sql stable
as $$
      select exists (select 1 from ledger_period_locks l where l.company_id = p_company_id and l.month = date_trunc('month', p_date))
          or exists (select 1 from ledger_locked_through t where t.company_id = p_company_id and t.month >= date_trunc('month', p_date))
    $$;
