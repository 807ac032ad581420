-- Rows that are history: any update, delete or truncate of the table is refused (journal headers, stock movements,
-- audit records and the like name it in their triggers).
create or replace function refuse_change()
  returns trigger
  language plpgsql volatile
as $$
    begin
      raise exception '% rows cannot be changed or deleted (%)', tg_table_name, tg_op
        using errcode = 'integrity_constraint_violation';
    end $$;
