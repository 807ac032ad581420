import type { Knex } from "knex";

// stock_take_fifo (migration 20261124000290) with one change: every "not enough stock" it answers names the line,
// and so its item, warehouse and available quantity (issue 11). Before, a balance lowered below 0 was refused by
// the CHECK stock_balances_quantity_check, which the caller could only answer with a bare 422. Now a balance moves
// only when it holds what its lines took; otherwise the function returns that pair's first line with the balance's
// quantity as `available` and no layer (the caller answers 422 `inventory.insufficient_stock` with its params, and
// its transaction rolls back what the function wrote). Everything else, and the signature, are unchanged.
export async function up(_knex: Knex): Promise<void> {
  // Superseded: the rule's current text is src/db/functions/stock_take_fifo.sql
  // (a repeatable definition, applied after the migrations; issue 23).
}

export async function down(_knex: Knex): Promise<void> {
  // The functions are repeatable definitions (src/db/functions): undoing this migration leaves the current ones.
}
