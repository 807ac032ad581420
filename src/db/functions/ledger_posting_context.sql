-- What a posting is checked against, in one round trip (src/ledger/posting.ts, checkPosting): the accounts its lines
-- name (code, type, postable), the partners they name, and whether its month is locked (ledger_month_locked).
create or replace function ledger_posting_context(p_company_id uuid, p_account_codes text[], p_partner_codes text[], p_date date)
  returns TABLE(accounts json, partners json, locked boolean)
  language plpgsql stable
as $$
    begin
      return query
      select (select coalesce(json_agg(json_build_array(a.code, a.is_postable)), '[]') from ledger_accounts a where a.company_id = p_company_id and a.code = any(p_account_codes)),
             (select coalesce(json_agg(p.code), '[]') from partners p where p.company_id = p_company_id and p.code = any(p_partner_codes)),
             ledger_month_locked(p_company_id, p_date);
    end
    $$;
