-- A layer's origin never changes and a layer is never deleted: only its remaining quantity and value move. Fires only
-- for an update that names one of the frozen columns, so the FIFO's updates do not run it at all.
create or replace function stock_layers_frozen()
  returns trigger
  language plpgsql volatile
as $$
    begin
      if tg_op = 'DELETE' then
        raise exception 'stock layers are history and are never deleted' using errcode = 'P0001', constraint = 'stock_layers_frozen';
      end if;
      if (new.company_id, new.id, new.seq, new.movement_id, new.warehouse_id, new.item_code, new.date, new.quantity, new.unit_cost, new.value,
          new.lot_number, new.expiry_date, new.serial_number, new.origin_layer_id)
         is distinct from
         (old.company_id, old.id, old.seq, old.movement_id, old.warehouse_id, old.item_code, old.date, old.quantity, old.unit_cost, old.value,
          old.lot_number, old.expiry_date, old.serial_number, old.origin_layer_id) then
        raise exception 'a stock layer''s origin (item, warehouse, date, quantity, unit cost, value, lot, expiry, serial) never changes'
          using errcode = 'P0001', constraint = 'stock_layers_frozen';
      end if;
      return new;
    end $$;
