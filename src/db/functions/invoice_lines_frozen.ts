// The lines of an issued or registered document never change: an insert, update or delete of a line whose document
// is no longer a draft is refused (SQLSTATE P0001, constraint invoice_frozen, as the documents' own trigger
// invoice_frozen.sql). One function per table with a static read of the parent's status: the one generic function it
// replaced read it with dynamic SQL, planned again on every row (80 µs a row against 2 µs, issue 10). Fires:
// sale_invoice_lines_frozen, purchase_invoice_lines_frozen (before insert or update or delete, for each row).
const lines = (documents: "sale_invoices" | "purchase_invoices") => `
    create or replace function ${documents.slice(0, -1)}_lines_frozen() returns trigger language plpgsql as $$
    declare
      parent_status text;
    begin
      select d.status into parent_status from ${documents} d
       where d.company_id = case when tg_op = 'DELETE' then old.company_id else new.company_id end
         and d.id = case when tg_op = 'DELETE' then old.invoice_id else new.invoice_id end;
      -- A cascade from deleting a draft finds no parent any more.
      if parent_status is not null and parent_status <> 'draft' then
        raise exception 'the lines of an issued or registered document cannot change' using errcode = 'P0001', constraint = 'invoice_frozen';
      end if;
      return case when tg_op = 'DELETE' then old else new end;
    end $$;`;

export const statements = [lines("sale_invoices"), lines("purchase_invoices")];
