-- Stock never goes astray: an item's balance in a warehouse (stock_balances) equals the sum of its open layers
-- (stock_layer_sums), quantity and value. A constraint trigger deferred to commit, once per balance or layer row the
-- transaction wrote; it compares one row of sums (issue 11, throughput) instead of adding up every open layer.
create or replace function stock_balance_matches_layers()
  returns trigger
  language plpgsql volatile
as $$
    declare
      k_company uuid;
      k_item text;
      k_warehouse uuid;
      b_quantity numeric;
      b_value numeric;
      b_written_here boolean;
      l_quantity numeric;
      l_value numeric;
    begin
      if tg_op = 'DELETE' then
        k_company := old.company_id; k_item := old.item_code; k_warehouse := old.warehouse_id;
      else
        k_company := new.company_id; k_item := new.item_code; k_warehouse := new.warehouse_id;
      end if;
      select b.quantity, b.value, b.xmin::text = (pg_current_xact_id()::text::numeric % 4294967296)::text
        into b_quantity, b_value, b_written_here
        from stock_balances b where b.company_id = k_company and b.item_code = k_item and b.warehouse_id = k_warehouse;
      if tg_table_name = 'stock_layers' and b_written_here then
        return null;
      end if;
      select s.quantity, s.value into l_quantity, l_value
        from stock_layer_sums s where s.company_id = k_company and s.item_code = k_item and s.warehouse_id = k_warehouse;
      if coalesce(b_quantity, 0) <> coalesce(l_quantity, 0) or coalesce(b_value, 0) <> coalesce(l_value, 0) then
        raise exception 'the stock balance of item % in warehouse % (% units, % EUR) differs from its layers (% units, % EUR)',
            k_item, k_warehouse, coalesce(b_quantity, 0), coalesce(b_value, 0), coalesce(l_quantity, 0), coalesce(l_value, 0)
          using errcode = 'check_violation', constraint = 'stock_balance_matches_layers';
      end if;
      return null;
    end $$;
