import type { Knex } from "knex";
import { define } from "../definitions.js";

// Fixed assets (issue 11): groups (their accounts), asset cards with their running figures, and the monthly
// depreciation runs with one row per asset and month. The invariants live here too: depreciation never exceeds the
// depreciable value (cost − salvage), the status agrees with the figures, a company posts a month at most once
// (primary key), and a posted month's rows never change (refuse_change). New tables only, plus one more journal
// document type: the migration runs the same on a database that already has data.
export async function up(knex: Knex): Promise<void> {
  // The current text of the functions its triggers execute (src/db/functions; issue 23).
  await define(knex, "asset_depreciation_run_checks");
  await knex.raw(`
    alter table journal_transactions drop constraint journal_transactions_document_type_check;
    alter table journal_transactions add constraint journal_transactions_document_type_check check (document_type in
      ('manual', 'reversal', 'migration', 'migration_opening', 'sale_invoice', 'purchase_invoice', 'payment', 'depreciation',
       'inventory', 'fx_revaluation', 'asset_disposal'));

    create table asset_groups (
      company_id uuid not null references companies (id),
      id uuid not null default gen_random_uuid(),
      code text not null check (length(code) between 1 and 64),
      name text not null check (length(name) between 1 and 255),
      asset_account_code text not null,
      depreciation_account_code text not null,
      expense_account_code text not null,
      default_useful_life_months integer not null check (default_useful_life_months between 1 and 1200),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (company_id, id),
      constraint asset_groups_code_key unique (company_id, code),
      constraint asset_groups_accounts_differ check (asset_account_code <> depreciation_account_code),
      constraint asset_groups_asset_account_fkey foreign key (company_id, asset_account_code) references ledger_accounts (company_id, code),
      constraint asset_groups_depreciation_account_fkey foreign key (company_id, depreciation_account_code) references ledger_accounts (company_id, code),
      constraint asset_groups_expense_account_fkey foreign key (company_id, expense_account_code) references ledger_accounts (company_id, code)
    );

    create table fixed_assets (
      company_id uuid not null references companies (id),
      id uuid not null default gen_random_uuid(),
      code text not null check (length(code) between 1 and 64),
      name text not null check (length(name) between 1 and 255),
      description text check (length(description) <= 1000),
      group_code text not null,
      acquisition_date date not null,
      put_into_use_date date not null check (put_into_use_date >= acquisition_date),
      -- Lithuanian practice: the first day of the month after the asset is put into use.
      depreciation_start_date date not null
        check (depreciation_start_date = (date_trunc('month', put_into_use_date) + interval '1 month')::date),
      acquisition_cost numeric(17, 2) not null check (acquisition_cost > 0),
      salvage_value numeric(17, 2) not null default 0 check (salvage_value >= 0 and salvage_value <= acquisition_cost),
      useful_life_months integer not null check (useful_life_months between 1 and 1200),
      source_transaction_id uuid,
      opening_accumulated_depreciation numeric(17, 2) not null default 0 check (opening_accumulated_depreciation >= 0),
      opening_depreciated_months integer not null default 0 check (opening_depreciated_months >= 0),
      accumulated_depreciation numeric(17, 2) not null default 0,
      depreciated_months integer not null default 0,
      last_depreciated_month date check (last_depreciated_month = date_trunc('month', last_depreciated_month)),
      status text not null default 'active' check (status in ('active', 'fully_depreciated', 'disposed')),
      disposal_date date,
      disposal_proceeds numeric(17, 2) check (disposal_proceeds >= 0),
      disposal_account_code text,
      disposal_gain numeric(17, 2),
      disposal_transaction_id uuid,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (company_id, id),
      constraint fixed_assets_code_key unique (company_id, code),
      constraint fixed_assets_group_fkey foreign key (company_id, group_code) references asset_groups (company_id, code) on update restrict,
      constraint fixed_assets_source_fkey foreign key (company_id, source_transaction_id) references journal_transactions (company_id, id),
      constraint fixed_assets_disposal_fkey foreign key (company_id, disposal_transaction_id) references journal_transactions (company_id, id),
      constraint fixed_assets_disposal_account_fkey foreign key (company_id, disposal_account_code) references ledger_accounts (company_id, code),
      -- Depreciation never exceeds the depreciable value, nor the months the useful life.
      constraint fixed_assets_depreciation_within_value
        check (accumulated_depreciation >= opening_accumulated_depreciation and accumulated_depreciation <= acquisition_cost - salvage_value),
      constraint fixed_assets_months_within_life
        check (depreciated_months >= opening_depreciated_months and depreciated_months <= useful_life_months),
      -- The whole life depreciated means the whole value depreciated (the last month takes the remainder).
      constraint fixed_assets_life_complete
        check (depreciated_months < useful_life_months or accumulated_depreciation = acquisition_cost - salvage_value),
      constraint fixed_assets_status_agrees check (case status
        when 'active' then accumulated_depreciation < acquisition_cost - salvage_value
        when 'fully_depreciated' then accumulated_depreciation = acquisition_cost - salvage_value
        else true end),
      constraint fixed_assets_disposal_complete check ((status = 'disposed') = (disposal_transaction_id is not null)
        and (status = 'disposed') = (disposal_date is not null) and (status = 'disposed') = (disposal_proceeds is not null)
        and (status = 'disposed') = (disposal_gain is not null))
    );
    create index fixed_assets_group_idx on fixed_assets (company_id, group_code);
    -- The monthly run reads the company's active assets.
    create index fixed_assets_active_idx on fixed_assets (company_id, depreciation_start_date) where status = 'active';

    -- One row per company and posted month: the primary key refuses a month posted twice.
    create table asset_depreciation_runs (
      company_id uuid not null references companies (id),
      month date not null check (month = date_trunc('month', month)),
      journal_transaction_id uuid,
      asset_count integer not null check (asset_count >= 0),
      total numeric(20, 2) not null check (total >= 0),
      created_by_key_id uuid,
      posted_at timestamptz not null default now(),
      primary key (company_id, month),
      constraint asset_depreciation_runs_journal_fkey foreign key (company_id, journal_transaction_id) references journal_transactions (company_id, id)
    );

    -- One row per asset and month depreciated: what the month added (the journal carries only the sums per group).
    create table asset_depreciation_lines (
      company_id uuid not null,
      asset_id uuid not null,
      month date not null,
      group_code text not null,
      expense_account_code text not null,
      depreciation_account_code text not null,
      amount numeric(17, 2) not null check (amount >= 0),
      accumulated_after numeric(17, 2) not null check (accumulated_after >= amount),
      depreciated_months_after integer not null check (depreciated_months_after >= 1),
      primary key (company_id, asset_id, month),
      constraint asset_depreciation_lines_run_fkey foreign key (company_id, month) references asset_depreciation_runs (company_id, month),
      constraint asset_depreciation_lines_asset_fkey foreign key (company_id, asset_id) references fixed_assets (company_id, id)
    );
    create index asset_depreciation_lines_month_idx on asset_depreciation_lines (company_id, month);

    -- A posted month never changes: its lines are immutable, and its run only receives its journal transaction once.
    create trigger asset_depreciation_lines_immutable before update or delete on asset_depreciation_lines
      for each row execute function refuse_change();
    create trigger asset_depreciation_runs_immutable before update or delete on asset_depreciation_runs
      for each row execute function asset_depreciation_run_checks();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table asset_depreciation_lines;
    drop table asset_depreciation_runs;
    drop function asset_depreciation_run_checks();
    drop table fixed_assets;
    drop table asset_groups;
    alter table journal_transactions drop constraint journal_transactions_document_type_check;
    alter table journal_transactions add constraint journal_transactions_document_type_check check (document_type in
      ('manual', 'reversal', 'migration', 'migration_opening', 'sale_invoice', 'purchase_invoice', 'payment', 'depreciation',
       'inventory', 'fx_revaluation'));
  `);
}
