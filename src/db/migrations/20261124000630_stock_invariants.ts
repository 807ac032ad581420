import type { Knex } from "knex";
import { define } from "../definitions.js";

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
  // The current text of the functions its triggers execute (src/db/functions; issue 23).
  await define(knex, "stock_layers_frozen", "stock_balance_matches_layers", "stock_operation_checks");
  await knex.raw(`
    create trigger stock_layers_frozen
      before update of company_id, id, seq, movement_id, warehouse_id, item_code, date, quantity, unit_cost, value, lot_number, expiry_date,
                       serial_number, origin_layer_id or delete
      on stock_layers for each row execute function stock_layers_frozen();

    create constraint trigger stock_balances_match_layers
      after insert or update or delete on stock_balances deferrable initially deferred
      for each row execute function stock_balance_matches_layers();
    create constraint trigger stock_layers_match_balance
      after insert or update of remaining_quantity, remaining_value or delete on stock_layers deferrable initially deferred
      for each row execute function stock_balance_matches_layers();

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
