import type { Knex } from "knex";

// stock_take_fifo (migration 20261124000290) with one change: every "not enough stock" it answers names the line,
// and so its item, warehouse and available quantity (issue 11). Before, a balance lowered below 0 was refused by
// the CHECK stock_balances_quantity_check, which the caller could only answer with a bare 422. Now a balance moves
// only when it holds what its lines took; otherwise the function returns that pair's first line with the balance's
// quantity as `available` and no layer (the caller answers 422 `inventory.insufficient_stock` with its params, and
// its transaction rolls back what the function wrote). Everything else, and the signature, are unchanged.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function stock_take_fifo(
      p_company_id uuid, p_operation_id uuid, p_kind text, p_date date, p_warehouse_id uuid, p_source_type text, p_source_id uuid,
      p_key_id uuid, l_line_nos int[], l_movement_ids uuid[], l_items text[], l_warehouses uuid[], l_quantities numeric[], l_lots text[])
      returns table (line_no int, layer_id uuid, quantity numeric, unit_cost numeric, value numeric, lot_number text, expiry_date text,
                     serial_number text, available numeric, created_at timestamptz)
      language plpgsql volatile as $$
    #variable_conflict use_column
    declare
      i int;
      need numeric;
      took numeric;
      q numeric;
      v numeric;
      layer record;
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
        need := l_quantities[i];
        took := 0;
        m_total := 0;
        for layer in
          select s.id, s.remaining_quantity, s.remaining_value, s.unit_cost, s.lot_number, s.expiry_date, s.serial_number
            from stock_layers s
           where s.company_id = p_company_id and s.item_code = l_items[i] and s.warehouse_id = l_warehouses[i]
             and s.remaining_quantity > 0 and s.date <= p_date and (l_lots[i] is null or s.lot_number = l_lots[i])
           order by s.date, s.seq
             for update
        loop
          exit when need <= 0;
          q := least(layer.remaining_quantity, need);
          v := case when q = layer.remaining_quantity then layer.remaining_value
                    else least(round(q * layer.unit_cost, 2), layer.remaining_value) end;
          update stock_layers s set remaining_quantity = s.remaining_quantity - q, remaining_value = s.remaining_value - v
           where s.company_id = p_company_id and s.id = layer.id;
          p_layer := p_layer || layer.id;
          p_movement := p_movement || l_movement_ids[i];
          p_quantity := p_quantity || q;
          p_cost := p_cost || layer.unit_cost;
          p_value := p_value || v;
          line_no := l_line_nos[i]; layer_id := layer.id; quantity := q; unit_cost := layer.unit_cost; value := v;
          lot_number := layer.lot_number; expiry_date := layer.expiry_date::text; serial_number := layer.serial_number;
          available := null; created_at := null;
          return next;
          need := need - q;
          took := took + q;
          m_total := m_total + v;
        end loop;
        if need > 0 then
          line_no := l_line_nos[i]; layer_id := null; quantity := null; unit_cost := null; value := null;
          lot_number := null; expiry_date := null; serial_number := null; available := took; created_at := null;
          return next;
          return;
        end if;
        m_value := m_value || m_total;
      end loop;

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
      -- short with the balance's quantity as \`available\`, like a line short of layers.
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
  `);
}

// Back to the function of migration 20261124000290.
export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function stock_take_fifo(
      p_company_id uuid, p_operation_id uuid, p_kind text, p_date date, p_warehouse_id uuid, p_source_type text, p_source_id uuid,
      p_key_id uuid, l_line_nos int[], l_movement_ids uuid[], l_items text[], l_warehouses uuid[], l_quantities numeric[], l_lots text[])
      returns table (line_no int, layer_id uuid, quantity numeric, unit_cost numeric, value numeric, lot_number text, expiry_date text,
                     serial_number text, available numeric, created_at timestamptz)
      language plpgsql volatile as $$
    #variable_conflict use_column
    declare
      i int;
      need numeric;
      took numeric;
      q numeric;
      v numeric;
      layer record;
      p_layer uuid[] := '{}';
      p_movement uuid[] := '{}';
      p_quantity numeric[] := '{}';
      p_cost numeric[] := '{}';
      p_value numeric[] := '{}';
      m_value numeric[] := '{}';
      m_total numeric;
      op_created timestamptz;
    begin
      for i in 1 .. coalesce(array_length(l_items, 1), 0) loop
        need := l_quantities[i];
        took := 0;
        m_total := 0;
        for layer in
          select s.id, s.remaining_quantity, s.remaining_value, s.unit_cost, s.lot_number, s.expiry_date, s.serial_number
            from stock_layers s
           where s.company_id = p_company_id and s.item_code = l_items[i] and s.warehouse_id = l_warehouses[i]
             and s.remaining_quantity > 0 and s.date <= p_date and (l_lots[i] is null or s.lot_number = l_lots[i])
           order by s.date, s.seq
             for update
        loop
          exit when need <= 0;
          q := least(layer.remaining_quantity, need);
          v := case when q = layer.remaining_quantity then layer.remaining_value
                    else least(round(q * layer.unit_cost, 2), layer.remaining_value) end;
          update stock_layers s set remaining_quantity = s.remaining_quantity - q, remaining_value = s.remaining_value - v
           where s.company_id = p_company_id and s.id = layer.id;
          p_layer := p_layer || layer.id;
          p_movement := p_movement || l_movement_ids[i];
          p_quantity := p_quantity || q;
          p_cost := p_cost || layer.unit_cost;
          p_value := p_value || v;
          line_no := l_line_nos[i]; layer_id := layer.id; quantity := q; unit_cost := layer.unit_cost; value := v;
          lot_number := layer.lot_number; expiry_date := layer.expiry_date::text; serial_number := layer.serial_number;
          available := null; created_at := null;
          return next;
          need := need - q;
          took := took + q;
          m_total := m_total + v;
        end loop;
        if need > 0 then
          line_no := l_line_nos[i]; layer_id := null; quantity := null; unit_cost := null; value := null;
          lot_number := null; expiry_date := null; serial_number := null; available := took; created_at := null;
          return next;
          return;
        end if;
        m_value := m_value || m_total;
      end loop;

      insert into stock_operations (company_id, id, kind, date, warehouse_id, source_type, source_id, created_by_key_id)
      values (p_company_id, p_operation_id, p_kind, p_date, p_warehouse_id, p_source_type, p_source_id, p_key_id)
      returning stock_operations.created_at into op_created;
      insert into stock_movements (company_id, id, operation_id, line_no, direction, date, warehouse_id, item_code, quantity, value)
      select p_company_id, m.id, p_operation_id, m.line_no, 'out', p_date, m.warehouse_id, m.item_code, -m.quantity, -m.value
        from unnest(l_movement_ids, l_line_nos, l_warehouses, l_items, l_quantities, m_value) as m (id, line_no, warehouse_id, item_code, quantity, value);
      insert into stock_consumptions (company_id, movement_id, layer_id, quantity, unit_cost, value)
      select p_company_id, c.movement_id, c.layer_id, c.quantity, c.unit_cost, c.value
        from unnest(p_movement, p_layer, p_quantity, p_cost, p_value) as c (movement_id, layer_id, quantity, unit_cost, value);
      -- The balances move by one delta per item and warehouse, in key order (as OperationWriter writes them); a
      -- line that took stock has a balance row already.
      update stock_balances b set quantity = b.quantity - d.quantity, value = b.value - d.value
        from (select m.item_code, m.warehouse_id, sum(m.quantity) as quantity, sum(m.value) as value
                from unnest(l_items, l_warehouses, l_quantities, m_value) as m (item_code, warehouse_id, quantity, value)
               group by 1, 2 order by 1, 2) d
       where b.company_id = p_company_id and b.item_code = d.item_code and b.warehouse_id = d.warehouse_id;

      line_no := null; layer_id := null; quantity := null; unit_cost := null; value := null; lot_number := null;
      expiry_date := null; serial_number := null; available := null; created_at := op_created;
      return next;
    end
    $$;
  `);
}
