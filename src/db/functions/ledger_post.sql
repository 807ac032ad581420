-- The one posting function's statement (src/ledger/posting.ts): the number (from the company's journal series of the
-- year, when it has one), the header and the lines of one posting, in one round trip. PL/pgSQL so that its plan is
-- cached per server connection, also behind a transaction-pooling PgBouncer (issue 15). The triggers of the journal
-- tables check every row it writes. ROWS 1: it returns the one posting; with PostgreSQL's default estimate of 1000 rows
-- for a set-returning function, a statement that calls it among its own writes (a manual posting's, a document's
-- numbering) looked costly enough for the JIT (jit_above_cost), which then compiled it on every posting: 45 numbered
-- postings/s instead of 176 on a PostgreSQL 15 server with jit on (issue 26).
create or replace function ledger_post(p_company_id uuid, p_year integer, p_date date, p_description text, p_reference text, p_document_type text, p_source_type text, p_source_id text, p_reverses_id uuid, p_total numeric, p_account_codes text[], p_partner_codes text[], p_created_by_key_id uuid, l_accounts text[], l_debits numeric[], l_credits numeric[], l_partners text[], l_currencies text[], l_currency_amounts numeric[], l_rates numeric[], l_descriptions text[])
  returns TABLE(company_id uuid, id uuid, number text, date date, description text, reference text, document_type text, source_type text, source_id text, reverses_id uuid, total numeric, account_codes text[], partner_codes text[], created_by_key_id uuid, created_at timestamp with time zone, entries json)
  language plpgsql volatile rows 1
as $$
    #variable_conflict use_column
    begin
      -- A numbered posting waits for the series row's lock, which its holder keeps until commit. Waiting on a row, the
      -- waiters are not served in order (each waits on the version it found; a newer one goes to whoever arrives after
      -- an update), so under load some wait many turns (issue 26: p99 several times the p50). So the posters of one
      -- series first queue for an advisory lock on it (class 7305; PostgreSQL grants one lock's waiters in order, and
      -- releases it at commit with the row's), and then find the row free. Without a journal series: no lock.
      perform pg_advisory_xact_lock(7305, hashtext(ns.id::text))
         from number_series ns
        where ns.company_id = p_company_id and ns.document_type = 'journal' and ns.year = p_year
        order by ns.created_at, ns.id limit 1;
      return query
      with taken as (
        update number_series s set next_number = s.next_number + 1, updated_at = now()
          from (select ns.id from number_series ns where ns.company_id = p_company_id and ns.document_type = 'journal' and ns.year = p_year
                 order by ns.created_at, ns.id limit 1 for update) target
         where s.company_id = p_company_id and s.id = target.id
         returning s.prefix || '-' || (s.next_number - 1) as number
      ), header as (
        insert into journal_transactions (company_id, number, date, description, reference, document_type, source_type, source_id,
                                          reverses_id, total, account_codes, partner_codes, created_by_key_id)
        values (p_company_id, (select t.number from taken t), p_date, p_description, p_reference, p_document_type, p_source_type, p_source_id,
                p_reverses_id, p_total, p_account_codes, p_partner_codes, p_created_by_key_id)
        returning *
      ), lines as (
        insert into journal_entries (company_id, transaction_id, line_no, date, account_code, debit, credit, partner_code,
                                     currency, currency_amount, rate, description)
        select h.company_id, h.id, l.line_no, h.date, l.account_code, l.debit, l.credit, l.partner_code,
               l.currency, l.currency_amount, l.rate, l.description
          from header h,
               unnest(l_accounts, l_debits, l_credits, l_partners, l_currencies, l_currency_amounts, l_rates, l_descriptions)
                 with ordinality as l(account_code, debit, credit, partner_code, currency, currency_amount, rate, description, line_no)
        returning *
      )
      -- Amounts leave as text: a JSON number would become a JS float.
      select h.company_id, h.id, h.number, h.date, h.description, h.reference, h.document_type, h.source_type, h.source_id,
             h.reverses_id, h.total, h.account_codes, h.partner_codes, h.created_by_key_id, h.created_at,
             (select json_agg(json_build_object(
                       'line_no', l.line_no, 'account_code', l.account_code, 'debit', l.debit::text, 'credit', l.credit::text,
                       'partner_code', l.partner_code, 'currency', l.currency, 'currency_amount', l.currency_amount::text,
                       'rate', l.rate::text, 'description', l.description) order by l.line_no)
                from lines l)
        from header h;
    end
    $$;
