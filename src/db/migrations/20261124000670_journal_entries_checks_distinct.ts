import type { Knex } from "knex";

// The statement-level entry check (migrations 20261124000500, …650) looked a header and an account up once per
// entry: 180,000 of each for a books import of 60,000 three-line transactions. It now looks up each header once per
// (transaction, date) the statement names and each account once per code: 60,000 and about 2,000 probes. The rules
// and the constraint names the code maps are unchanged.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
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

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function journal_entries_checks() returns trigger language plpgsql set enable_seqscan = off as $$
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
  `);
}
