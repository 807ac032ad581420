import type { Knex } from "knex";

// The gate's statement (src/http/gate.ts) as a PL/pgSQL function (issue 15). Every request runs it first. Direct
// connections prepare it by name, so PostgreSQL plans it once per connection; through a transaction-pooling
// PgBouncer a named statement cannot be used, and planning it on every call halved throughput. PL/pgSQL caches the
// plan of each statement of a function per server connection, which PgBouncer keeps open across clients, so
// through the pooler the gate costs only the planning of `select * from api_gate(...)`, a function scan.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function api_gate(p_key_id uuid, p_company_id uuid, p_secret_hash bytea, p_address text)
      returns table (id uuid, account_id uuid, scopes text[], company_ids uuid[], rate_limit_per_minute integer,
                     payment_required boolean, company_id uuid, country_code text, base_currency text,
                     invoice_currency text, count integer, reset numeric)
      language plpgsql volatile as $$
    #variable_conflict use_column
    begin
      return query
      with k as (
        select k.id, k.account_id, k.scopes, k.company_ids, k.rate_limit_per_minute,
               (a.trial_ends_at is not null and a.trial_ends_at < current_date and a.prepaid_credit <= 0) as payment_required
          from api_keys k join accounts a on a.id = k.account_id
         where k.id = p_key_id and k.secret_hash = p_secret_hash and k.revoked_at is null
      ), c as (
        select c.id as company_id, c.country_code::text, c.base_currency::text, c.invoice_currency::text
          from companies c join k on c.account_id = k.account_id
         where c.id = coalesce(p_company_id, case when cardinality(k.company_ids) = 1 then k.company_ids[1] end)
      ), rl as (
        insert into rate_limit_counters as r (bucket, window_start, count)
        values (coalesce((select 'key:' || k.id from k), 'ip:' || p_address), date_trunc('minute', now()), 1)
        on conflict (bucket, window_start) do update set count = r.count + 1
        returning r.count, ceil(extract(epoch from r.window_start + interval '1 minute' - now())) as reset
      )
      select k.id, k.account_id, k.scopes, k.company_ids, k.rate_limit_per_minute, k.payment_required,
             c.company_id, c.country_code, c.base_currency, c.invoice_currency, rl.count, rl.reset
        from rl left join k on true left join c on true;
    end
    $$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`drop function api_gate(uuid, uuid, bytea, text);`);
}
