import type { Knex } from "knex";

// Hardening (issue 7).
// 1. Idempotency records belong to the API key that made them, not only to its account and company: a replay must
//    never give a key anything it could not get by running the request itself (a key restricted to one company, or
//    without a scope, must not receive another key's stored response), and a 422 `idempotency_key_reuse` must not
//    tell a caller that another key used the same idempotency key. The records are kept 24 hours and no production
//    data exists yet, so the old records are dropped rather than assigned to a key.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    delete from idempotency_keys;
    alter table idempotency_keys
      drop constraint idempotency_keys_pkey,
      add column key_id uuid not null,
      add primary key (account_id, company_id, key_id, key);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    delete from idempotency_keys;
    alter table idempotency_keys drop constraint idempotency_keys_pkey, drop column key_id, add primary key (account_id, company_id, key);
  `);
}
