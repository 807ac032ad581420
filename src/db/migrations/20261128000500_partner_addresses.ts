import type { Knex } from "knex";

// Partners' structured addresses (issue 27): street, building, city, postal code and country of each address a partner
// has — registered (its registered office), billing or shipping — one of them the default. A SAF-T file names every
// one of a customer's or supplier's addresses, and requires a city and a postal code. The free `partners.address`
// stays for display. A partner's existing address becomes its registered default address where it parses: a city of at
// most 35 characters, a postal code of at most 18, a country (its own, else the partner's); the others stay as they
// are (a SAF-T file reads the free address of a partner without structured ones, and names what it lacks).
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table partner_addresses (
      company_id uuid not null,
      id uuid not null default gen_random_uuid(),
      partner_id uuid not null,
      type text not null check (type in ('registered', 'billing', 'shipping')),
      street text check (length(street) between 1 and 200),
      building text check (length(building) between 1 and 18),
      city text not null check (length(city) between 1 and 35),
      postal_code text check (length(postal_code) between 1 and 18),
      country_code text not null check (country_code ~ '^[A-Z]{2}$'),
      is_default boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (company_id, id),
      constraint partner_addresses_partner_fkey foreign key (company_id, partner_id) references partners (company_id, id) on delete cascade
    );
    -- At most one default per partner (the code keeps exactly one while the partner has addresses).
    create unique index partner_addresses_one_default on partner_addresses (company_id, partner_id) where is_default;
    create index partner_addresses_partner_idx on partner_addresses (company_id, partner_id, created_at, id);
  `);
  await copyFreeAddresses(knex);
}

/** Each partner without structured addresses whose free address parses gets it as its registered default address. */
export async function copyFreeAddresses(knex: Knex): Promise<void> {
  await knex.raw(`
    insert into partner_addresses (company_id, partner_id, type, street, city, postal_code, country_code, is_default, created_at, updated_at)
    select p.company_id, p.id, 'registered',
           nullif(left(concat_ws(', ', nullif(btrim(p.address ->> 'line1'), ''), nullif(btrim(p.address ->> 'line2'), '')), 200), ''),
           btrim(p.address ->> 'city'),
           nullif(btrim(p.address ->> 'postalCode'), ''),
           coalesce(nullif(p.address ->> 'countryCode', ''), p.country_code),
           true, p.created_at, p.updated_at
      from partners p
     where jsonb_typeof(p.address) = 'object'
       and length(btrim(p.address ->> 'city')) between 1 and 35
       and coalesce(length(btrim(p.address ->> 'postalCode')), 0) <= 18
       and coalesce(nullif(p.address ->> 'countryCode', ''), p.country_code) ~ '^[A-Z]{2}$'
       and not exists (select 1 from partner_addresses a where a.company_id = p.company_id and a.partner_id = p.id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop table partner_addresses");
}
