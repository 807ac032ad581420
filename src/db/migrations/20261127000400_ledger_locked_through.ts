import type { Knex } from "knex";

// A lock "through" a date covers every month up to it (issue 22, item 12). Locking through a date wrote a row per
// month from the company's first posting or lock on, so every month before those stayed open: postings dated
// 2020-05 were accepted under a quarter locked through 2026-06-30. Now the company's locked-through month is kept
// (ledger_locked_through, one row per company) and a month is locked when a row of ledger_period_locks names it or
// when it is on or before that month, whether or not a row names it. The rule lives in one function,
// ledger_month_locked, which every check of a posting's or a stock operation's month calls: the journal header's
// statement check, the stock operations' check, and the posting context (and the code's own reads,
// src/ledger/periods.ts). Unlocking the locked-through month moves it back by one month (only the latest locked
// month unlocks, as before). Locks taken before this migration keep the months they wrote: which of them were sent as
// "through" is not recorded (the audit log keeps the months only), so no locked-through month is made up for them; a
// company sends its lock through a date again to cover the months before.
const oldPredicate = (company: string, date: string) =>
  `exists (select 1 from ledger_period_locks l where l.company_id = ${company} and l.month = date_trunc('month', ${date}))`;
const newPredicate = (company: string, date: string) => `ledger_month_locked(${company}, ${date})`;

function functions(locked: (company: string, date: string) => string): string {
  return `
    create or replace function ledger_posting_context(p_company_id uuid, p_account_codes text[], p_partner_codes text[], p_date date)
      returns table (accounts json, partners json, locked boolean)
      language plpgsql stable as $$
    begin
      return query
      select (select coalesce(json_agg(json_build_array(a.code, a.is_postable)), '[]') from ledger_accounts a where a.company_id = p_company_id and a.code = any(p_account_codes)),
             (select coalesce(json_agg(p.code), '[]') from partners p where p.company_id = p_company_id and p.code = any(p_partner_codes)),
             ${locked("p_company_id", "p_date")};
    end
    $$;

    create or replace function journal_transactions_checks() returns trigger language plpgsql as $$
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
       where ${locked("n.company_id", "n.month")}
       limit 1;
      if found then
        raise exception 'period % of company % is locked', to_char(bad.month, 'YYYY-MM'), bad.company_id
          using errcode = 'check_violation', constraint = 'ledger_period_locked';
      end if;
      return null;
    end $$;

    create or replace function stock_operation_checks() returns trigger language plpgsql as $$
    begin
      perform pg_advisory_xact_lock_shared(7301, hashtext(new.company_id::text));
      if ${locked("new.company_id", "new.date")} then
        raise exception 'period % of company % is locked: no stock moves in it', to_char(new.date, 'YYYY-MM'), new.company_id
          using errcode = 'check_violation', constraint = 'ledger_period_locked';
      end if;
      return new;
    end $$;`;
}

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- The last month a lock "through" a date covers: it and every month before it are locked.
    create table ledger_locked_through (
      company_id uuid not null references companies (id),
      month date not null check (month = date_trunc('month', month)),
      locked_at timestamptz not null default now(),
      locked_by_key_id uuid references api_keys (id),
      primary key (company_id)
    );

    -- Whether the month of p_date is locked for the company: a lock of that month, or a lock through it or later.
    create function ledger_month_locked(p_company_id uuid, p_date date) returns boolean language sql stable as $$
      select exists (select 1 from ledger_period_locks l where l.company_id = p_company_id and l.month = date_trunc('month', p_date))
          or exists (select 1 from ledger_locked_through t where t.company_id = p_company_id and t.month >= date_trunc('month', p_date))
    $$;
    ${functions(newPredicate)}
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ${functions(oldPredicate)}
    drop function ledger_month_locked(uuid, date);
    drop table ledger_locked_through;
  `);
}
