import type { Knex } from "knex";

// The company's owners or shareholders (issue 27): what a SAF-T file's master files name (`Owners/Owner`: its code,
// name, capital account, shares). Deleting an owner deletes the row; the journal keeps the capital postings.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table owners (
      company_id uuid not null references companies (id),
      id uuid not null default gen_random_uuid(),
      code text not null check (length(code) between 1 and 35),
      name text not null check (length(name) between 1 and 255),
      country_code text not null check (country_code ~ '^[A-Z]{2}$'),
      capital_account_code text not null,
      share_percent numeric(5,2) check (share_percent between 0 and 100),
      shares_quantity numeric(18,6) check (shares_quantity > 0),
      shares_amount numeric(17,2) check (shares_amount >= 0),
      shares_type text check (shares_type in ('ordinary', 'preference')),
      acquired_on date,
      transferred_on date,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (company_id, id),
      constraint owners_code_key unique (company_id, code),
      constraint owners_capital_account_fkey foreign key (company_id, capital_account_code) references ledger_accounts (company_id, code),
      check (transferred_on >= acquired_on)
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop table owners");
}
