-- A purchase document's accounting date defaults to its document date (issue 24, item 5): a row written without one
-- (the books import, a seed) is accounted on the day of the document, as every purchase was before the column.
-- Fires: purchase_invoices_accounting_date.
create or replace function purchase_invoices_accounting_date()
  returns trigger
  language plpgsql volatile
as $$
    begin
      new.accounting_date := coalesce(new.accounting_date, new.document_date);
      return new;
    end $$;
