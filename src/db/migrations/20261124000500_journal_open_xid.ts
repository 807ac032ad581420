import type { Knex } from "knex";

// Entries can only be written in the database transaction that created their header (migration
// 20261122000003). That rule was kept with one transaction-local setting per header (`ledger.open_<id>`), which
// PostgreSQL 15 and older keep in a sorted array of every setting the session ever named: each new one re-sorts it,
// so a batch of n headers (a migration's history, 20,000 transactions) cost n² log n — about two minutes for
// 20,000 on PostgreSQL 15 — and the names outlived the transaction, slowing every later posting on that connection.
//
// Now the header records the top-level transaction that inserted it (`open_xid`, set by its insert trigger whatever
// the client sends), and the entries of a statement are checked once, after the statement, against their headers:
// same top-level transaction (savepoints share it, a rolled-back savepoint's header is gone), same date, postable
// account. An AFTER trigger sees the header also when header and lines are written by one statement (ledger_post's
// data-modifying CTEs), which a BEFORE trigger could not. The constraint names the code maps are unchanged.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table journal_transactions add column open_xid xid8;

    create or replace function journal_transaction_checks() returns trigger language plpgsql as $$
    begin
      new.open_xid := pg_current_xact_id();
      perform pg_advisory_xact_lock_shared(7301, hashtext(new.company_id::text));
      if exists (select 1 from ledger_period_locks where company_id = new.company_id and month = date_trunc('month', new.date)) then
        raise exception 'period % of company % is locked', to_char(new.date, 'YYYY-MM'), new.company_id
          using errcode = 'check_violation', constraint = 'ledger_period_locked';
      end if;
      return new;
    end $$;

    drop trigger journal_entry_checks on journal_entries;
    drop function journal_entry_checks();

    create function journal_entries_checks() returns trigger language plpgsql as $$
    declare
      bad record;
    begin
      select e.transaction_id, e.date, e.account_code, h.id is not null and h.open_xid = pg_current_xact_id() as own_header,
             h.date as header_date, a.is_postable
        into bad
        from new_entries e
        left join journal_transactions h on h.company_id = e.company_id and h.id = e.transaction_id
        left join ledger_accounts a on a.company_id = e.company_id and a.code = e.account_code
       where h.id is null or h.open_xid is distinct from pg_current_xact_id() or e.date <> h.date or a.is_postable is not true
       limit 1;
      if not found then
        return null;
      end if;
      if not bad.own_header then
        raise exception 'entries can only be added in the transaction that creates their journal transaction'
          using errcode = 'check_violation', constraint = 'journal_entries_with_header';
      end if;
      if bad.date <> bad.header_date then
        raise exception 'entry date % differs from its transaction date %', bad.date, bad.header_date
          using errcode = 'check_violation', constraint = 'journal_entries_date';
      end if;
      raise exception 'account % is not postable', bad.account_code
        using errcode = 'check_violation', constraint = 'journal_entries_postable_account';
    end $$;
    create trigger journal_entries_checks after insert on journal_entries
      referencing new table as new_entries
      for each statement execute function journal_entries_checks();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop trigger journal_entries_checks on journal_entries;
    drop function journal_entries_checks();
    create function journal_entry_checks() returns trigger language plpgsql as $$
    declare
      header_date text := coalesce(current_setting('ledger.open_' || replace(new.transaction_id::text, '-', ''), true), '');
    begin
      if header_date = '' then
        raise exception 'entries can only be added in the transaction that creates their journal transaction'
          using errcode = 'check_violation', constraint = 'journal_entries_with_header';
      end if;
      if new.date::text <> header_date then
        raise exception 'entry date % differs from its transaction date %', new.date, header_date
          using errcode = 'check_violation', constraint = 'journal_entries_date';
      end if;
      if not (select is_postable from ledger_accounts where company_id = new.company_id and code = new.account_code) then
        raise exception 'account % is not postable', new.account_code
          using errcode = 'check_violation', constraint = 'journal_entries_postable_account';
      end if;
      return new;
    end $$;
    create trigger journal_entry_checks before insert on journal_entries
      for each row execute function journal_entry_checks();
    create or replace function journal_transaction_checks() returns trigger language plpgsql as $$
    begin
      perform set_config('ledger.open_' || replace(new.id::text, '-', ''), new.date::text, true);
      perform pg_advisory_xact_lock_shared(7301, hashtext(new.company_id::text));
      if exists (select 1 from ledger_period_locks where company_id = new.company_id and month = date_trunc('month', new.date)) then
        raise exception 'period % of company % is locked', to_char(new.date, 'YYYY-MM'), new.company_id
          using errcode = 'check_violation', constraint = 'ledger_period_locked';
      end if;
      return new;
    end $$;
    alter table journal_transactions drop column open_xid;
  `);
}
