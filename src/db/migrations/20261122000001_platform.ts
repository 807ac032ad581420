import type { Knex } from "knex";

// Platform foundation: accounts, API keys, companies, partners, idempotency records, rate-limit counters.
// Company-owned rows lead every key with company_id (STYLE.md, practice 9).
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table accounts (
      id uuid primary key default gen_random_uuid(),
      name text not null check (length(name) between 1 and 255),
      trial_ends_at date,
      prepaid_credit numeric(18, 2) not null default 0 check (prepaid_credit >= 0),
      created_at timestamptz not null default now()
    );

    create table api_keys (
      id uuid primary key default gen_random_uuid(),
      account_id uuid not null references accounts (id),
      name text not null,
      prefix text not null,
      secret_hash bytea not null check (length(secret_hash) = 32),
      scopes text[] not null check (cardinality(scopes) > 0),
      company_ids uuid[] check (company_ids is null or cardinality(company_ids) > 0),
      rate_limit_per_minute integer check (rate_limit_per_minute > 0),
      created_at timestamptz not null default now(),
      revoked_at timestamptz
    );
    create index api_keys_account_idx on api_keys (account_id, created_at desc);

    create table companies (
      id uuid primary key default gen_random_uuid(),
      account_id uuid not null references accounts (id),
      name text not null,
      code text not null,
      vat_code text,
      country_code char(2) not null,
      base_currency char(3) not null,
      invoice_currency char(3) not null,
      address jsonb,
      email text,
      phone text,
      iban text,
      fiscal_year_start_month smallint not null default 1 check (fiscal_year_start_month between 1 and 12),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint companies_account_code_key unique (account_id, code),
      constraint companies_account_id_key unique (account_id, id)
    );

    create table partners (
      company_id uuid not null references companies (id),
      id uuid not null default gen_random_uuid(),
      code text not null,
      name text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (company_id, id),
      constraint partners_company_code_key unique (company_id, code)
    );

    -- Idempotency records (spec: "Limits", idempotency). company_id is the nil UUID for account-level operations.
    create table idempotency_keys (
      account_id uuid not null references accounts (id),
      company_id uuid not null,
      key text not null check (length(key) between 1 and 255),
      operation_id text not null,
      request_hash text not null,
      status_code integer not null,
      response_body jsonb not null,
      created_at timestamptz not null default now(),
      primary key (account_id, company_id, key)
    );
    create index idempotency_keys_created_idx on idempotency_keys (created_at);

    -- Fixed one-minute windows. Unlogged: counters are worthless after a crash, and commits that touch only
    -- unlogged tables do not wait for a WAL flush, which keeps the per-request upsert cheap.
    create unlogged table rate_limit_counters (
      bucket text not null,
      window_start timestamptz not null,
      count integer not null,
      primary key (bucket, window_start)
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table rate_limit_counters;
    drop table idempotency_keys;
    drop table partners;
    drop table companies;
    drop table api_keys;
    drop table accounts;
  `);
}
