import type { Knex } from "knex";
import { define } from "../definitions.js";

// Reference data: ECB exchange rates (global), company overrides, number series.
export async function up(knex: Knex): Promise<void> {
  // The current text of the functions its triggers execute (src/db/functions; issue 23).
  await define(knex, "number_series_never_lowered");
  await knex.raw(`
    -- ECB euro reference rates: units of currency per 1 EUR. Global reference data shared by all companies.
    create table exchange_rates (
      currency_code text not null check (currency_code ~ '^[A-Z]{3}$'),
      rate_date date not null,
      rate numeric(18, 8) not null check (rate > 0),
      imported_at timestamptz not null default now(),
      primary key (currency_code, rate_date)
    );
    create index exchange_rates_date_idx on exchange_rates (rate_date, currency_code);

    create table exchange_rate_overrides (
      company_id uuid not null references companies (id),
      currency_code text not null check (currency_code ~ '^[A-Z]{3}$' and currency_code <> 'EUR'),
      rate_date date not null,
      rate numeric(18, 8) not null check (rate > 0),
      set_by_key_id uuid not null references api_keys (id),
      set_at timestamptz not null default now(),
      primary key (company_id, currency_code, rate_date)
    );
    create index exchange_rate_overrides_date_idx on exchange_rate_overrides (company_id, rate_date, currency_code);

    create table number_series (
      company_id uuid not null references companies (id),
      id uuid not null default gen_random_uuid(),
      document_type text not null check (document_type in ('sale_invoice', 'purchase_invoice', 'credit_note', 'journal')),
      prefix text not null check (prefix ~ '^[A-Za-z0-9_/]{1,20}$'),
      year integer not null check (year between 2000 and 2100),
      next_number bigint not null check (next_number between 1 and 999999999999),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (company_id, id),
      constraint number_series_identity_key unique (company_id, document_type, prefix, year)
    );

    create trigger number_series_never_lowered before update on number_series
      for each row execute function number_series_never_lowered();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table number_series;
    drop function number_series_never_lowered();
    drop table exchange_rate_overrides;
    drop table exchange_rates;
  `);
}
