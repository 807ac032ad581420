-- An issued sales document or a registered purchase document is kept as it was issued: only the settlement columns
-- (paid amount, outstanding, status moving between the issued states) change after it leaves draft. Drafts are
-- checked first and leave at once (issue 10: the JSON of the frozen columns is built only for issued documents).
-- A sales invoice may be annulled once (issue 24, sales/invoices/annul): status `annulled` with its time and the
-- reversal of its posting (annulled_at, annulment_transaction_id); an annulled document never changes again.
-- Fires: sale_invoices_frozen, purchase_invoices_frozen.
create or replace function invoice_frozen()
  returns trigger
  language plpgsql volatile
as $$
    
    begin
      if old.status = 'draft' then
        return case when tg_op = 'DELETE' then old else new end;
      end if;
      if tg_op = 'DELETE' then
        raise exception 'an issued or registered document cannot be deleted' using errcode = 'P0001', constraint = 'invoice_frozen';
      end if;
      if old.status = 'annulled' then
        raise exception 'an annulled document cannot be changed' using errcode = 'P0001', constraint = 'invoice_frozen';
      end if;
      if new.status = 'draft'
         or (to_jsonb(old) - array['status', 'paid_amount', 'credited_amount', 'outstanding', 'updated_at', 'annulled_at', 'annulment_transaction_id'])
            is distinct from (to_jsonb(new) - array['status', 'paid_amount', 'credited_amount', 'outstanding', 'updated_at', 'annulled_at', 'annulment_transaction_id'])
         or (new.status <> 'annulled' and (to_jsonb(new) -> 'annulled_at') is distinct from (to_jsonb(old) -> 'annulled_at')) then
        raise exception 'an issued or registered document cannot be changed' using errcode = 'P0001', constraint = 'invoice_frozen';
      end if;
      return new;
    end $$;
