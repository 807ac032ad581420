-- stock_layer_sums is kept by the statement triggers of stock_layers only (stock_layer_sums.ts): any other writer is
-- refused.
create or replace function stock_layer_sums_written_by_layers()
  returns trigger
  language plpgsql volatile
as $$
    begin
      if pg_trigger_depth() < 2 then
        raise exception 'stock_layer_sums is kept by the triggers of stock_layers only' using errcode = 'P0001', constraint = 'stock_layer_sums_written_by_layers';
      end if;
      return case when tg_op = 'DELETE' then old else new end;
    end $$;
