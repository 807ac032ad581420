import type { Knex } from "knex";
import { define } from "../definitions.js";

// Set-based FIFO for a document's outgoing lines (issue 11, throughput): one statement takes every line out of
// stock — each line's open layers locked oldest first (date, seq) and lowered by the part taken — and writes the
// stock operation, its movements, the consumptions and the balances; before, each line cost two round trips and
// the operation five more. The rules are those of src/inventory/fifo.ts, unchanged: a part is worth quantity x the
// layer's unit cost rounded half-up to cents, never more than the layer has left, and the part that empties a layer
// takes exactly its remaining value; layers dated after the document are not taken; a line naming a lot takes only
// from that lot. Lines come in the caller's order (by item, so two documents lock the same layers in the same order).
//
// Not enough stock for a line: the function returns that line alone with `available` (what it could take) and no
// layer, and writes nothing more; the caller answers 422 and its transaction rolls the lowered layers back.
// Concurrency as before: FOR UPDATE waits for a layer another transaction is consuming, then re-reads it (READ
// COMMITTED re-checks remaining_quantity > 0), so two sales of the last unit give one success and one 422.
export async function up(knex: Knex): Promise<void> {
  // Its current text: src/db/functions/stock_take_fifo.sql (issue 23).
  await define(knex, "stock_take_fifo");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`drop function stock_take_fifo(uuid, uuid, text, date, uuid, text, uuid, uuid, int[], uuid[], text[], uuid[], numeric[], text[])`);
}
