import type { Knex } from "knex";

// stock_take_fifo (migration 20261124000631) updated each layer it took as it took it: one statement per layer, and
// since migration 20261126000200 each such statement also moves the layers' sums (a statement trigger). A sale of
// three lines taking 2-3 layers each ran seven updates and seven trigger runs (1.3 ms, PostgreSQL 15) while holding
// the layers. Now the loop notes what it takes (as before, for the consumptions) and one statement lowers every layer
// taken after it; a later line of the same call that meets a layer an earlier line took from counts what is left
// of it. The same layers, locked in the same order, the same results; the signature is unchanged.
export async function up(_knex: Knex): Promise<void> {
  // Superseded: the rule's current text is src/db/functions/stock_take_fifo.sql
  // (a repeatable definition, applied after the migrations; issue 23).
}

export async function down(_knex: Knex): Promise<void> {
  // The functions are repeatable definitions (src/db/functions): undoing this migration leaves the current ones.
}
