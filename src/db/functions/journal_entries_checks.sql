-- The lines of a journal transaction, checked once per statement (issue 10, throughput): each names a header written by
-- this transaction, and an account that exists and takes postings, locked FOR KEY SHARE until commit so that it cannot
-- be deleted or re-keyed under the lines (this replaced two per-row foreign keys: 1.75 s of a 180,000-line import).
-- enable_seqscan is off inside it: the lookups must go through the keys whatever the statistics say.
create or replace function journal_entries_checks()
  returns trigger
  language plpgsql volatile set enable_seqscan = off
as $$
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
