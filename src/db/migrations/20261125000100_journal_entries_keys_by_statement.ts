import type { Knex } from "knex";

// The lines' references to their header and their account were checked twice: once per row by two foreign keys,
// once per statement by journal_entries_checks (the header exists and was created by this transaction; the account
// exists and is postable). For a books import of 180,000 lines the two foreign keys' per-row triggers took 1.75 s of
// the 4.7 s insert (EXPLAIN ANALYZE on PostgreSQL 15); the statement check needs 0.24 s. The foreign keys go; what
// they did besides the insert-time check is kept by other means:
// - a header cannot be deleted or re-keyed under its lines: journal_transactions refuses every update and delete
//   (journal_transactions_immutable, _no_truncate);
// - an account cannot be deleted or re-keyed under its lines: ledger_accounts_entries_guard refuses it, with the
//   old foreign key's SQLSTATE (23503) and name, so callers map it as before;
// - an account cannot be deleted while lines naming it are being written: the statement check locks each account it
//   names FOR KEY SHARE (as the foreign key did per row), so a concurrent delete waits for the posting and then
//   finds its lines, or the posting waits for the delete and then finds no account.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table journal_entries drop constraint journal_entries_transaction_fkey, drop constraint journal_entries_account_fkey;

    create or replace function journal_entries_checks() returns trigger language plpgsql set enable_seqscan = off as $$
    declare
      bad record;
    begin
      select e.transaction_id, e.date, h.id is not null and h.open_xid = pg_current_xact_id() as own_header, h.date as header_date
        into bad
        from (select distinct n.company_id, n.transaction_id, n.date from new_entries n) e
        left join journal_transactions h on h.company_id = e.company_id and h.id = e.transaction_id
       where h.id is null or h.open_xid is distinct from pg_current_xact_id() or e.date <> h.date
       limit 1;
      if found then
        if not bad.own_header then
          raise exception 'entries can only be added in the transaction that creates their journal transaction'
            using errcode = 'check_violation', constraint = 'journal_entries_with_header';
        end if;
        raise exception 'entry date % differs from its transaction date %', bad.date, bad.header_date
          using errcode = 'check_violation', constraint = 'journal_entries_date';
      end if;
      -- Held until commit: the accounts cannot be deleted or re-keyed under these lines meanwhile.
      perform 1
         from ledger_accounts a
        where (a.company_id, a.code) in (select distinct n.company_id, n.account_code from new_entries n)
          for key share of a;
      select e.account_code into bad
        from (select distinct n.company_id, n.account_code from new_entries n) e
        left join ledger_accounts a on a.company_id = e.company_id and a.code = e.account_code
       where a.is_postable is not true
       limit 1;
      if found then
        raise exception 'account % is not postable', bad.account_code
          using errcode = 'check_violation', constraint = 'journal_entries_postable_account';
      end if;
      return null;
    end $$;

    create function ledger_accounts_entries_guard() returns trigger language plpgsql as $$
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

    create trigger ledger_accounts_entries_guard before delete or update of company_id, code on ledger_accounts
      for each row execute function ledger_accounts_entries_guard();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop trigger ledger_accounts_entries_guard on ledger_accounts;
    drop function ledger_accounts_entries_guard();
    alter table journal_entries
      add constraint journal_entries_transaction_fkey foreign key (company_id, transaction_id) references journal_transactions (company_id, id),
      add constraint journal_entries_account_fkey foreign key (company_id, account_code) references ledger_accounts (company_id, code);

    create or replace function journal_entries_checks() returns trigger language plpgsql set enable_seqscan = off as $$
    declare
      bad record;
    begin
      select e.transaction_id, e.date, h.id is not null and h.open_xid = pg_current_xact_id() as own_header, h.date as header_date
        into bad
        from (select distinct n.company_id, n.transaction_id, n.date from new_entries n) e
        left join journal_transactions h on h.company_id = e.company_id and h.id = e.transaction_id
       where h.id is null or h.open_xid is distinct from pg_current_xact_id() or e.date <> h.date
       limit 1;
      if found then
        if not bad.own_header then
          raise exception 'entries can only be added in the transaction that creates their journal transaction'
            using errcode = 'check_violation', constraint = 'journal_entries_with_header';
        end if;
        raise exception 'entry date % differs from its transaction date %', bad.date, bad.header_date
          using errcode = 'check_violation', constraint = 'journal_entries_date';
      end if;
      select e.account_code into bad
        from (select distinct n.company_id, n.account_code from new_entries n) e
        left join ledger_accounts a on a.company_id = e.company_id and a.code = e.account_code
       where a.is_postable is not true
       limit 1;
      if found then
        raise exception 'account % is not postable', bad.account_code
          using errcode = 'check_violation', constraint = 'journal_entries_postable_account';
      end if;
      return null;
    end $$;
  `);
}
