-- A books import's record (issue 22, item 2: one package is imported once) never changes and is never deleted: the
-- fingerprints are what refuses the same package twice.
create or replace function migration_imports_immutable()
  returns trigger
  language plpgsql volatile
as $$
    begin
      raise exception 'migration_imports rows are never changed or deleted' using errcode = '55000';
    end $$;
