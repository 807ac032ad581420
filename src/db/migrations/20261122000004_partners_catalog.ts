import type { Knex } from "knex";

// Partners get their master data; catalog items (goods and services) and the VAT rates they are checked against.
// Company-owned rows lead every key with company_id (STYLE.md, practice 9).
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table partners
      add column vat_code text check (vat_code ~ '^[A-Z]{2}[0-9A-Z+*.]{2,13}$'),
      add column registration_code text check (length(registration_code) between 1 and 64),
      add column country_code text check (country_code ~ '^[A-Z]{2}$'),
      add column address jsonb check (jsonb_typeof(address) = 'object'),
      add column email text,
      add column phone text,
      add column iban text check (iban ~ '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$'),
      add column is_customer boolean not null default true,
      add column is_supplier boolean not null default false,
      add column is_private_person boolean not null default false,
      add column payment_term_days integer not null default 0
        constraint partners_payment_term_days_check check (payment_term_days between 0 and 365);

    -- VAT rates per country and validity period: global reference data shipped with the API, like exchange_rates.
    -- A later change of rates is a new migration that closes the old row (valid_to) and adds the new one.
    create table vat_rates (
      country_code text not null check (country_code ~ '^[A-Z]{2}$'),
      kind text not null check (kind in ('standard', 'reduced', 'super_reduced', 'parking', 'zero')),
      rate numeric(5, 2) not null check (rate between 0 and 100),
      valid_from date not null,
      valid_to date check (valid_to >= valid_from),
      description text not null,
      primary key (country_code, kind, rate, valid_from)
    );

    -- Lithuania (PVM įstatymas, Article 19), covered from 2025-01-01. Law XV-287 (2025) abolished the 9% rate from
    -- 2026-01-01: accommodation, regular-route passenger transport and cultural admissions moved to a new 12% rate,
    -- books and non-periodical publications to 5%, heating, hot water and firewood to the standard 21%.
    insert into vat_rates (country_code, kind, rate, valid_from, valid_to, description) values
      ('LT', 'standard', 21, '2025-01-01', null,
       'Standard rate: every taxable supply without a reduced or zero rate (from 2026-01-01 also heating, hot water and firewood, previously 9%).'),
      ('LT', 'reduced', 9, '2025-01-01', '2025-12-31',
       'Heating and hot water for residential premises, firewood, printed and electronic books and non-periodical publications, tourist accommodation, passenger transport on regular routes, admission to art and cultural institutions and events. Abolished from 2026-01-01.'),
      ('LT', 'reduced', 5, '2025-01-01', '2025-12-31',
       'Certain medicines and medical aids (compensated or prescribed) and technical aids for disabled persons.'),
      ('LT', 'reduced', 5, '2026-01-01', null,
       'Certain medicines and medical aids and technical aids for disabled persons; printed and electronic books and non-periodical information publications (previously 9%).'),
      ('LT', 'reduced', 12, '2026-01-01', null,
       'Tourist accommodation, passenger and luggage transport on regular routes, admission to art and cultural institutions and events (previously 9%).'),
      ('LT', 'zero', 0, '2025-01-01', null,
       'Exports and intra-Community supplies of goods, and services connected with them (input VAT deductible).');

    create table catalog_items (
      company_id uuid not null references companies (id),
      id uuid not null default gen_random_uuid(),
      code text not null check (length(code) between 1 and 64),
      name text not null check (length(name) between 1 and 255),
      type text not null constraint catalog_items_type_check check (type in ('product', 'service')),
      unit text not null check (length(unit) between 1 and 16),
      barcode text check (length(barcode) between 1 and 64),
      vat_rate_percent numeric(5, 2) not null check (vat_rate_percent between 0 and 100),
      sale_price_excl_vat numeric(21, 6) constraint catalog_items_sale_price_check check (sale_price_excl_vat >= 0),
      purchase_price_excl_vat numeric(21, 6) constraint catalog_items_purchase_price_check check (purchase_price_excl_vat >= 0),
      tracking text not null default 'none' constraint catalog_items_tracking_check check (tracking in ('none', 'lot', 'serial')),
      active boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (company_id, id),
      constraint catalog_items_company_code_key unique (company_id, code)
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table catalog_items;
    drop table vat_rates;
    alter table partners
      drop column vat_code,
      drop column registration_code,
      drop column country_code,
      drop column address,
      drop column email,
      drop column phone,
      drop column iban,
      drop column is_customer,
      drop column is_supplier,
      drop column is_private_person,
      drop column payment_term_days;
  `);
}
