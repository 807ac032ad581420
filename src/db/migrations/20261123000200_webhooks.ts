import type { Knex } from "knex";

// Events and webhooks (issue 9).
//   webhook_events         the transactional outbox: a row exists iff the change that caused it committed
//                          (src/events/emit.ts writes it inside the caller's transaction)
//   webhook_subscriptions  where a company's events go; the signing secrets are stored AES-256-GCM encrypted
//   webhook_deliveries     one row per (event, subscription): its state, attempts and the next attempt's time
//   outbound_emails        e-mails that could not go over SMTP (no SMTP_URL): kept, never lost silently
// Every company-owned key leads with company_id (STYLE.md, practice 9).
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table accounts add column owner_email text check (owner_email is null or length(owner_email) between 3 and 254);

    create table webhook_events (
      company_id uuid not null references companies (id),
      id uuid not null default gen_random_uuid(),
      -- Emission order (per subscription, deliveries go out in this order).
      seq bigint generated always as identity,
      event_type text not null,
      version text not null,
      data jsonb not null,
      created_at timestamptz not null default now(),
      primary key (company_id, id)
    );
    create index webhook_events_company_seq_idx on webhook_events (company_id, seq);

    create table webhook_subscriptions (
      company_id uuid not null references companies (id),
      id uuid not null default gen_random_uuid(),
      url text not null check (length(url) between 1 and 2048),
      event_types text[] not null check (cardinality(event_types) between 1 and 100),
      description text,
      owner_emails text[] not null default '{}',
      status text not null default 'active' check (status in ('active', 'paused')),
      -- AES-256-GCM: iv (12) || tag (16) || ciphertext (src/secrets.ts).
      secret_sealed bytea not null,
      previous_secret_sealed bytea,
      previous_secret_expires_at timestamptz,
      consecutive_failures integer not null default 0 check (consecutive_failures >= 0),
      paused_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (company_id, id)
    );
    create index webhook_subscriptions_company_idx on webhook_subscriptions (company_id, created_at);

    create table webhook_deliveries (
      company_id uuid not null,
      id uuid not null default gen_random_uuid(),
      subscription_id uuid not null,
      event_id uuid not null,
      event_seq bigint not null,
      event_type text not null,
      -- pending: scheduled; held: its subscription is paused; succeeded; failed: its schedule ended without a 2xx.
      status text not null check (status in ('pending', 'held', 'succeeded', 'failed')),
      attempts integer not null default 0,
      -- Attempts made in the current run of the retry schedule (a resume starts a new one).
      scheduled_attempts integer not null default 0,
      next_attempt_at timestamptz,
      last_attempt_at timestamptz,
      last_response_status integer,
      last_error text,
      delivered_at timestamptz,
      -- Who is sending an attempt now, and until when the claim holds (no two workers send the same attempt).
      lease_job_id text,
      lease_until timestamptz,
      created_at timestamptz not null default now(),
      primary key (company_id, id),
      unique (company_id, subscription_id, event_id),
      foreign key (company_id, subscription_id) references webhook_subscriptions (company_id, id) on delete cascade,
      foreign key (company_id, event_id) references webhook_events (company_id, id)
    );
    create index webhook_deliveries_list_idx on webhook_deliveries (company_id, created_at desc);
    create index webhook_deliveries_subscription_idx on webhook_deliveries (company_id, subscription_id, status, event_seq);

    create table outbound_emails (
      id uuid primary key default gen_random_uuid(),
      recipients text[] not null,
      subject text not null,
      body text not null,
      created_at timestamptz not null default now()
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table outbound_emails;
    drop table webhook_deliveries;
    drop table webhook_subscriptions;
    drop table webhook_events;
    alter table accounts drop column owner_email;
  `);
}
