-- First in, first out: the one home of the rule (issue 11; issue 23, item 1). Every outgoing movement of the product
-- asks this function which parts of which layers it takes: sales invoices through stock_take_fifo, write-offs,
-- transfers, counts and serial-tracked sales through takeFifo (src/inventory/fifo.ts). It writes nothing; its callers
-- record the parts and lower the layers.
--
-- Which layers: the item's open layers in the warehouse, dated on or before the movement, within the lot it names
-- (p_lot_number) or among the serial numbers it names (p_serials), oldest first by date, then by the order they were
-- written (seq). What is worth: a part is quantity × the layer's unit cost rounded half-up to the cent, never more
-- than the layer has left; the part that empties a layer takes exactly what is left of its value. So a layer's parts
-- add up to its value to the cent, and the stock account (which receives layer values and gives back part values)
-- equals the open layers' remaining values. p_taken_layers, p_taken_quantities, p_taken_values: what earlier takes
-- of the caller's statement took and have not written yet (stock_take_fifo lowers the layers after its loop); a
-- layer counts what they left of it. Empty arrays when every earlier take is written.
--
-- Rows: the parts, oldest layer first, then, when the layers hold less than p_quantity, one row without a layer whose
-- `available` is the quantity they hold (the parts before it are then all of it: the caller answers 422
-- inventory.insufficient_stock and writes nothing).
--
-- Locking: the layers are read with FOR UPDATE in FIFO order, so two transactions taking from the same layers run one
-- after the other; the second re-reads a row after the first commits (READ COMMITTED re-checks
-- `remaining_quantity > 0` on the new row version, and drops the row when it is empty) and sees only what is left.
-- Only the rows fetched are locked: a PL/pgSQL FOR loop over a query reads through a cursor, 10 rows at first, then
-- 50 at a time, and the loop ends as soon as the quantity is covered, so a sale of one unit locks 10 of an item's
-- thousand open layers, not all of them (test/contract/inventory-invoices.test.ts, "a take of one unit locks only the
-- first layers").
create or replace function stock_fifo_parts(p_company_id uuid, p_item_code text, p_warehouse_id uuid, p_date date, p_quantity numeric, p_lot_number text, p_serials text[], p_taken_layers uuid[], p_taken_quantities numeric[], p_taken_values numeric[])
  returns table(layer_id uuid, quantity numeric, unit_cost numeric, value numeric, lot_number text, expiry_date text, serial_number text, available numeric)
  language plpgsql volatile
as $$
    #variable_conflict use_column
    declare
      need numeric := p_quantity;
      took numeric := 0;
      q numeric;
      left_quantity numeric;
      left_value numeric;
      layer record;
    begin
      for layer in
        select s.id, s.remaining_quantity, s.remaining_value, s.unit_cost, s.lot_number, s.expiry_date, s.serial_number
          from stock_layers s
         where s.company_id = p_company_id and s.item_code = p_item_code and s.warehouse_id = p_warehouse_id
           and s.remaining_quantity > 0 and s.date <= p_date
           and (p_lot_number is null or s.lot_number = p_lot_number)
           and (p_serials is null or s.serial_number = any(p_serials))
         order by s.date, s.seq
           for update
      loop
        exit when need <= 0; -- a quantity of 0 takes nothing
        left_quantity := layer.remaining_quantity;
        left_value := layer.remaining_value;
        if layer.id = any(p_taken_layers) then
          select left_quantity - sum(t.q), left_value - sum(t.v) into left_quantity, left_value
            from unnest(p_taken_layers, p_taken_quantities, p_taken_values) as t (l, q, v) where t.l = layer.id;
        end if;
        continue when left_quantity <= 0;
        q := least(left_quantity, need);
        layer_id := layer.id; quantity := q; unit_cost := layer.unit_cost;
        value := case when q = left_quantity then left_value else least(round(q * layer.unit_cost, 2), left_value) end;
        lot_number := layer.lot_number; expiry_date := layer.expiry_date::text; serial_number := layer.serial_number;
        available := null;
        return next;
        need := need - q;
        took := took + q;
        -- Here, not only at the top: the loop would otherwise fetch (and lock) one more layer than it takes from.
        exit when need <= 0;
      end loop;
      if need > 0 then
        layer_id := null; quantity := null; unit_cost := null; value := null; lot_number := null; expiry_date := null;
        serial_number := null; available := took;
        return next;
      end if;
    end
    $$;
