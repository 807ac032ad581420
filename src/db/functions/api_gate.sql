-- The gate every /v1 request runs first (src/http/gate.ts): the key (hash, revocation, scopes, rate limit in one
-- atomic counter), the company it may act on, the account's billing. A PL/pgSQL function so that its plan is cached per
-- server connection, which a transaction-pooling PgBouncer keeps across clients, where a named prepared statement could
-- not be used (issue 15).
create or replace function api_gate(p_key_id uuid, p_company_id uuid, p_secret_hash bytea, p_address text)
  returns TABLE(id uuid, account_id uuid, scopes text[], company_ids uuid[], rate_limit_per_minute integer, payment_required boolean, company_id uuid, country_code text, base_currency text, invoice_currency text, count integer, reset numeric)
  language plpgsql volatile
as $$
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
