import type { Knex } from "knex";

// Stock invariants kept by the database as well as by the writers (issue 11; there are three writers: the
// OperationWriter of src/inventory/operations.ts, the function stock_take_fifo, the books migration's
// src/migration/write.ts):
//
// - A layer's origin never changes and a layer is never deleted: only its remaining quantity and value move. The
//   trigger fires only for an UPDATE that names one of the frozen columns (CREATE TRIGGER ... UPDATE OF), so the
//   FIFO updates, which set remaining_quantity and remaining_value only, do not run it at all.
// - An item's balance in a warehouse (stock_balances) equals the sum of its open layers, quantity and value. Writers
//   lower layers and move the balance in separate statements, so the check is a constraint trigger deferred to
//   commit, once per balance or layer row the transaction wrote (it reads the pair's open layers through the FIFO
//   index). A direct write of a layer without its balance, or of a balance without its layers, fails at COMMIT.
// - Nothing moves stock in a locked month: the same check as the journal's (ledger_period_locked, under the
//   company's period lock held shared, so a lock of the month waits for the operation or the operation sees the
//   lock), on every stock operation, including those that post nothing (transfers, receipts without a counter
//   account, write-offs and counts worth 0.00) and the migration's.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function stock_layers_frozen() returns trigger language plpgsql as $$
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
    create trigger stock_layers_frozen
      before update of company_id, id, seq, movement_id, warehouse_id, item_code, date, quantity, unit_cost, value, lot_number, expiry_date,
                       serial_number, origin_layer_id or delete
      on stock_layers for each row execute function stock_layers_frozen();

    create function stock_balance_matches_layers() returns trigger language plpgsql as $$
    declare
      k_company uuid;
      k_item text;
      k_warehouse uuid;
      b_quantity numeric;
      b_value numeric;
      l_quantity numeric;
      l_value numeric;
    begin
      if tg_op = 'DELETE' then
        k_company := old.company_id; k_item := old.item_code; k_warehouse := old.warehouse_id;
      else
        k_company := new.company_id; k_item := new.item_code; k_warehouse := new.warehouse_id;
      end if;
      select b.quantity, b.value into b_quantity, b_value
        from stock_balances b where b.company_id = k_company and b.item_code = k_item and b.warehouse_id = k_warehouse;
      -- An empty layer has no value left (stock_layers_empty_without_value): the open layers hold it all.
      select coalesce(sum(l.remaining_quantity), 0), coalesce(sum(l.remaining_value), 0) into l_quantity, l_value
        from stock_layers l
       where l.company_id = k_company and l.item_code = k_item and l.warehouse_id = k_warehouse and l.remaining_quantity > 0;
      if coalesce(b_quantity, 0) <> l_quantity or coalesce(b_value, 0) <> l_value then
        raise exception 'the stock balance of item % in warehouse % (% units, % EUR) differs from its layers (% units, % EUR)',
            k_item, k_warehouse, coalesce(b_quantity, 0), coalesce(b_value, 0), l_quantity, l_value
          using errcode = 'check_violation', constraint = 'stock_balance_matches_layers';
      end if;
      return null;
    end $$;
    create constraint trigger stock_balances_match_layers
      after insert or update or delete on stock_balances deferrable initially deferred
      for each row execute function stock_balance_matches_layers();
    create constraint trigger stock_layers_match_balance
      after insert or update of remaining_quantity, remaining_value or delete on stock_layers deferrable initially deferred
      for each row execute function stock_balance_matches_layers();

    create function stock_operation_checks() returns trigger language plpgsql as $$
    begin
      perform pg_advisory_xact_lock_shared(7301, hashtext(new.company_id::text));
      if exists (select 1 from ledger_period_locks where company_id = new.company_id and month = date_trunc('month', new.date)) then
        raise exception 'period % of company % is locked: no stock moves in it', to_char(new.date, 'YYYY-MM'), new.company_id
          using errcode = 'check_violation', constraint = 'ledger_period_locked';
      end if;
      return new;
    end $$;
    create trigger stock_operations_open_period before insert on stock_operations
      for each row execute function stock_operation_checks();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop trigger stock_operations_open_period on stock_operations;
    drop function stock_operation_checks();
    drop trigger stock_layers_match_balance on stock_layers;
    drop trigger stock_balances_match_layers on stock_balances;
    drop function stock_balance_matches_layers();
    drop trigger stock_layers_frozen on stock_layers;
    drop function stock_layers_frozen();
  `);
}
