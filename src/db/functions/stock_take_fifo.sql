-- A sales invoice's take of stock, in one statement (issue 11): for each line, in the order given (the caller sorts
-- them by item, so that invoices lock shared layers in the same order), the parts FIFO chooses — stock_fifo_parts, the
-- one home of the FIFO rule and its rounding, which locks the layers it reads — passing what earlier lines of this
-- call took, as the layers are lowered only after the loop. It records what it took (stock_consumptions), lowers every
-- layer taken in one statement, writes the operation, its movements and the balances, and refuses to take more than
-- there is (stock never goes negative: 422 inventory.insufficient_stock, naming the line). Write-offs, transfers,
-- counts and sales naming serials take their parts from the same function through takeFifo (src/inventory/fifo.ts).
create or replace function stock_take_fifo(p_company_id uuid, p_operation_id uuid, p_kind text, p_date date, p_warehouse_id uuid, p_source_type text, p_source_id uuid, p_key_id uuid, l_line_nos integer[], l_movement_ids uuid[], l_items text[], l_warehouses uuid[], l_quantities numeric[], l_lots text[])
  returns TABLE(line_no integer, layer_id uuid, quantity numeric, unit_cost numeric, value numeric, lot_number text, expiry_date text, serial_number text, available numeric, created_at timestamp with time zone)
  language plpgsql volatile
as $$
    #variable_conflict use_column
    declare
      i int;
      part record;
      p_layer uuid[] := '{}';
      p_movement uuid[] := '{}';
      p_quantity numeric[] := '{}';
      p_cost numeric[] := '{}';
      p_value numeric[] := '{}';
      m_value numeric[] := '{}';
      m_total numeric;
      op_created timestamptz;
      short_item text;
      short_warehouse uuid;
    begin
      for i in 1 .. coalesce(array_length(l_items, 1), 0) loop
        m_total := 0;
        for part in
          select * from stock_fifo_parts(p_company_id, l_items[i], l_warehouses[i], p_date, l_quantities[i], l_lots[i], null, p_layer, p_quantity, p_value)
        loop
          line_no := l_line_nos[i]; layer_id := part.layer_id; quantity := part.quantity; unit_cost := part.unit_cost;
          value := part.value; lot_number := part.lot_number; expiry_date := part.expiry_date;
          serial_number := part.serial_number; available := part.available; created_at := null;
          return next;
          -- The line is short: `available` says what there is; nothing is written.
          if part.layer_id is null then
            return;
          end if;
          p_layer := p_layer || part.layer_id;
          p_movement := p_movement || l_movement_ids[i];
          p_quantity := p_quantity || part.quantity;
          p_cost := p_cost || part.unit_cost;
          p_value := p_value || part.value;
          m_total := m_total + part.value;
        end loop;
        m_value := m_value || m_total;
      end loop;

      -- Every layer taken, in one statement (its triggers, the layers' sums among them, run once per call).
      update stock_layers s set remaining_quantity = s.remaining_quantity - t.quantity, remaining_value = s.remaining_value - t.value
        from (select l as id, sum(q) as quantity, sum(v) as value from unnest(p_layer, p_quantity, p_value) as u (l, q, v) group by l) t
       where s.company_id = p_company_id and s.id = t.id;
      insert into stock_operations (company_id, id, kind, date, warehouse_id, source_type, source_id, created_by_key_id)
      values (p_company_id, p_operation_id, p_kind, p_date, p_warehouse_id, p_source_type, p_source_id, p_key_id)
      returning stock_operations.created_at into op_created;
      insert into stock_movements (company_id, id, operation_id, line_no, direction, date, warehouse_id, item_code, quantity, value)
      select p_company_id, m.id, p_operation_id, m.line_no, 'out', p_date, m.warehouse_id, m.item_code, -m.quantity, -m.value
        from unnest(l_movement_ids, l_line_nos, l_warehouses, l_items, l_quantities, m_value) as m (id, line_no, warehouse_id, item_code, quantity, value);
      insert into stock_consumptions (company_id, movement_id, layer_id, quantity, unit_cost, value)
      select p_company_id, c.movement_id, c.layer_id, c.quantity, c.unit_cost, c.value
        from unnest(p_movement, p_layer, p_quantity, p_cost, p_value) as c (movement_id, layer_id, quantity, unit_cost, value);
      -- The balances move by one delta per item and warehouse, in key order (as OperationWriter writes them), each
      -- only if it holds the quantity taken. One that does not (its layers held more: the balance and its layers
      -- disagree, which stock_balance_matches_layers refuses at commit) moves nothing, and its first line comes back
      -- short with the balance's quantity as `available`, like a line short of layers.
      with d as (
        select m.item_code, m.warehouse_id, sum(m.quantity) as quantity, sum(m.value) as value
          from unnest(l_items, l_warehouses, l_quantities, m_value) as m (item_code, warehouse_id, quantity, value)
         group by 1, 2 order by 1, 2
      ), moved as (
        update stock_balances b set quantity = b.quantity - d.quantity, value = b.value - d.value
          from d
         where b.company_id = p_company_id and b.item_code = d.item_code and b.warehouse_id = d.warehouse_id and b.quantity >= d.quantity
        returning b.item_code, b.warehouse_id
      )
      select d.item_code, d.warehouse_id into short_item, short_warehouse
        from d where not exists (select 1 from moved where moved.item_code = d.item_code and moved.warehouse_id = d.warehouse_id)
       order by 1, 2 limit 1;
      if found then
        line_no := (select min(x.line_no) from unnest(l_line_nos, l_items, l_warehouses) as x (line_no, item_code, warehouse_id)
                     where x.item_code = short_item and x.warehouse_id = short_warehouse);
        layer_id := null; quantity := null; unit_cost := null; value := null; lot_number := null; expiry_date := null;
        serial_number := null; created_at := null;
        available := coalesce((select b.quantity from stock_balances b
                                where b.company_id = p_company_id and b.item_code = short_item and b.warehouse_id = short_warehouse), 0);
        return next;
        return;
      end if;

      line_no := null; layer_id := null; quantity := null; unit_cost := null; value := null; lot_number := null;
      expiry_date := null; serial_number := null; available := null; created_at := op_created;
      return next;
    end
    $$;
