import type { Knex } from "knex";

// The company's own structured addresses (issue 27), as partners have theirs (20261128000500): registered office,
// billing, shipping, one of them the default. A SAF-T file's header names each. The company's free `address` stays;
// where it parses (a city of at most 35 characters, a postal code of at most 18, a country) it becomes the company's
// registered default address.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table company_addresses (
      company_id uuid not null references companies (id),
      id uuid not null default gen_random_uuid(),
      type text not null check (type in ('registered', 'billing', 'shipping')),
      street text check (length(street) between 1 and 200),
      building text check (length(building) between 1 and 18),
      city text not null check (length(city) between 1 and 35),
      postal_code text check (length(postal_code) between 1 and 18),
      country_code text not null check (country_code ~ '^[A-Z]{2}$'),
      is_default boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (company_id, id)
    );
    create unique index company_addresses_one_default on company_addresses (company_id) where is_default;
    create index company_addresses_order_idx on company_addresses (company_id, created_at, id);
  `);
  await copyCompanyAddresses(knex);
}

/** Each company without structured addresses whose free address parses gets it as its registered default address. */
export async function copyCompanyAddresses(knex: Knex): Promise<void> {
  await knex.raw(`
    insert into company_addresses (company_id, type, street, city, postal_code, country_code, is_default, created_at, updated_at)
    select c.id, 'registered',
           nullif(left(concat_ws(', ', nullif(btrim(c.address ->> 'line1'), ''), nullif(btrim(c.address ->> 'line2'), '')), 200), ''),
           btrim(c.address ->> 'city'),
           nullif(btrim(c.address ->> 'postalCode'), ''),
           coalesce(nullif(c.address ->> 'countryCode', ''), c.country_code),
           true, c.created_at, c.created_at
      from companies c
     where jsonb_typeof(c.address) = 'object'
       and length(btrim(c.address ->> 'city')) between 1 and 35
       and coalesce(length(btrim(c.address ->> 'postalCode')), 0) <= 18
       and coalesce(nullif(c.address ->> 'countryCode', ''), c.country_code) ~ '^[A-Z]{2}$'
       and not exists (select 1 from company_addresses a where a.company_id = c.id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop table company_addresses");
}
