-- Stock movements and what they took from each layer are history: never changed, never deleted.
create or replace function stock_history_frozen()
  returns trigger
  language plpgsql volatile
as $$
    begin
      raise exception 'stock movements are history and never change' using errcode = 'P0001', constraint = 'stock_history_frozen';
    end $$;
