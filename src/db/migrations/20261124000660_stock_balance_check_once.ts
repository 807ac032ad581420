import type { Knex } from "knex";

// The check that a stock balance equals its open layers (migration 20261124000630) runs at commit once per row
// written. A sale takes several layers per line and moves the line's balance, so it summed the same open layers
// once per layer taken and once more for the balance: with an item of a thousand open one-unit layers, four sums of
// a thousand rows per line. A layer whose balance row this transaction wrote too now leaves the check to that
// balance row's own run (the same sum, once); a layer written without its balance is still checked in full, which
// is what catches a direct write of layers alone. (A balance written in a savepoint carries the savepoint's
// transaction id: its layers are then checked in full as before — slower, never wrong.)
export async function up(_knex: Knex): Promise<void> {
  // Superseded: the rule's current text is src/db/functions/stock_balance_matches_layers.sql
  // (a repeatable definition, applied after the migrations; issue 23).
}

export async function down(_knex: Knex): Promise<void> {
  // The functions are repeatable definitions (src/db/functions): undoing this migration leaves the current ones.
}
