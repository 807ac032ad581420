import type { Knex } from "knex";
import { define } from "../definitions.js";

// Issue 22, defects 3 and 13: a posted depreciation month can be reversed (assets/depreciation/reverse), and a month
// whose total is more than one journal transaction may carry posts several.
//
// A reversal changes nothing that was posted: like a reversed journal transaction (journal_transactions.reverses_id)
// or an unmatched bank match (bank_matches.unmatched_at), the run stays, marked reversed, with its lines, and each of
// its journal transactions names the transaction that reversed it. The month may then be posted again: a run is now
// keyed by its month and its number within the month (`run_no`: 1, and one more after each reversal), and at most one
// run of a month is live (not reversed; unique index asset_depreciation_runs_live_key).
//
// The run's journal transactions move to asset_depreciation_run_transactions (one row per transaction, `part` 1..n):
// a run whose total is above 999,999,999,999,999.99 posts it in several. The run's total, a sum over any number of
// assets, has no bound on its digits any more (numeric(38, 2); a bigger precision needs no rewrite of the table).
//
// The database refuses what the code must never do: deleting a run or a run's transaction, changing either except
// by reversing it (a run is marked reversed only once every transaction of it names its reversal; a transaction's
// reversal must be the journal transaction that reverses it), and adding a transaction to a reversed run.
export async function up(knex: Knex): Promise<void> {
  // The current text of the functions its triggers execute (src/db/functions; issue 23).
  await define(knex, "asset_depreciation_run_checks", "asset_depreciation_run_transaction_checks");
  await knex.raw(`
    alter table asset_depreciation_lines drop constraint asset_depreciation_lines_run_fkey;
    alter table asset_depreciation_runs
      add column run_no integer not null default 1 constraint asset_depreciation_runs_run_no_check check (run_no >= 1),
      add column reversed_at timestamptz,
      add column reversed_by_key_id uuid,
      alter column total type numeric(38, 2),
      drop constraint asset_depreciation_runs_pkey,
      add constraint asset_depreciation_runs_pkey primary key (company_id, month, run_no);
    create unique index asset_depreciation_runs_live_key on asset_depreciation_runs (company_id, month) where reversed_at is null;

    alter table asset_depreciation_lines
      add column run_no integer not null default 1,
      drop constraint asset_depreciation_lines_pkey,
      add constraint asset_depreciation_lines_pkey primary key (company_id, month, run_no, asset_id),
      add constraint asset_depreciation_lines_run_fkey foreign key (company_id, month, run_no)
        references asset_depreciation_runs (company_id, month, run_no);

    create table asset_depreciation_run_transactions (
      company_id uuid not null,
      month date not null,
      run_no integer not null,
      part integer not null check (part >= 1),
      journal_transaction_id uuid not null,
      reversal_transaction_id uuid,
      primary key (company_id, month, run_no, part),
      constraint asset_depreciation_run_transactions_journal_key unique (company_id, journal_transaction_id),
      constraint asset_depreciation_run_transactions_run_fkey foreign key (company_id, month, run_no)
        references asset_depreciation_runs (company_id, month, run_no),
      constraint asset_depreciation_run_transactions_journal_fkey foreign key (company_id, journal_transaction_id)
        references journal_transactions (company_id, id),
      constraint asset_depreciation_run_transactions_reversal_fkey foreign key (company_id, reversal_transaction_id)
        references journal_transactions (company_id, id)
    );
    insert into asset_depreciation_run_transactions (company_id, month, run_no, part, journal_transaction_id)
    select company_id, month, run_no, 1, journal_transaction_id from asset_depreciation_runs where journal_transaction_id is not null;

    alter table asset_depreciation_runs drop column journal_transaction_id;

    create trigger asset_depreciation_run_transactions_checks before insert or update or delete on asset_depreciation_run_transactions
      for each row execute function asset_depreciation_run_transaction_checks();
  `);
}

// Back to one run per month with its one journal transaction: possible only while no month was reversed or posted
// in several transactions (the statement below fails otherwise, and the migration with it).
export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    do $$
    begin
      if exists (select 1 from asset_depreciation_runs where run_no > 1 or reversed_at is not null)
         or exists (select 1 from asset_depreciation_run_transactions where part > 1) then
        raise exception 'depreciation months were reversed or posted in several transactions: migration 20261127000300 cannot be undone';
      end if;
    end $$;
    alter table asset_depreciation_runs add column journal_transaction_id uuid,
      add constraint asset_depreciation_runs_journal_fkey foreign key (company_id, journal_transaction_id) references journal_transactions (company_id, id);
    alter table asset_depreciation_runs disable trigger asset_depreciation_runs_immutable;
    update asset_depreciation_runs r set journal_transaction_id = t.journal_transaction_id
      from asset_depreciation_run_transactions t where t.company_id = r.company_id and t.month = r.month and t.run_no = r.run_no;
    alter table asset_depreciation_runs enable trigger asset_depreciation_runs_immutable;
    drop table asset_depreciation_run_transactions;

    alter table asset_depreciation_lines
      drop constraint asset_depreciation_lines_run_fkey,
      drop constraint asset_depreciation_lines_pkey,
      add constraint asset_depreciation_lines_pkey primary key (company_id, month, asset_id),
      drop column run_no;
    drop index asset_depreciation_runs_live_key;
    alter table asset_depreciation_runs
      drop constraint asset_depreciation_runs_pkey,
      add constraint asset_depreciation_runs_pkey primary key (company_id, month),
      drop column run_no,
      drop column reversed_at,
      drop column reversed_by_key_id,
      alter column total type numeric(20, 2);
    alter table asset_depreciation_lines add constraint asset_depreciation_lines_run_fkey foreign key (company_id, month)
      references asset_depreciation_runs (company_id, month);

  `);
}
