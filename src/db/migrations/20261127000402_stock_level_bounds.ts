import type { Knex } from "knex";
import { define } from "../definitions.js";

// An item's stock in a warehouse stays within the contract's `Quantity` (12 integer digits) and `Money` (15) on every
// date (issue 22, item 5): `inventory/stock/levels` answered a quantity of 13 integer digits and a value of 16 once
// receipts of 999,999,999,999.9999 units added up (the balance's columns, numeric(20, 4) and numeric(19, 2), held
// them). Only incoming movements raise a level, and every one of them starts layers, so the check runs after each
// statement that inserts layers: per item and warehouse the statement brought stock into, from the earliest date it
// brought in, the highest level on that date or any later one — the current level (stock_layer_sums, already moved by
// the statement: trigger stock_layer_sums_insert fires first, triggers fire in name order) less the movements dated
// after that date, plus the highest running sum of those later movements — must stay within 999,999,999,999.9999 units
// and 999,999,999,999,999.99 EUR; quantity and value each on its own. A back-dated receipt is thus refused when it
// would push a past level over, also when today's is below (a later write-off took the stock out). The check reads
// the layers' sums the statement itself just locked, so two operations into the same item and warehouse are checked
// one after the other. The highest level after a date is computed (stock_level_peak) only where movements are dated
// after it: a receipt of today, and a books import of 20,000 rows, read one index entry per item and warehouse. Sales (stock_take_fifo) insert no layers: their statements run no check. `detail` carries the
// item, warehouse and the highest levels as JSON, for the 422 naming the line (src/inventory/operations.ts).
export async function up(knex: Knex): Promise<void> {
  // The current text of the functions its triggers execute (src/db/functions; issue 23).
  await define(knex, "stock_level_peak", "stock_levels_within_bounds");
  await knex.raw(`

    create trigger stock_levels_within_bounds after insert on stock_layers referencing new table as new_layers
      for each statement execute function stock_levels_within_bounds();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop trigger stock_levels_within_bounds on stock_layers;
    drop function stock_levels_within_bounds();
    drop function stock_level_peak(uuid, text, uuid, date, numeric, numeric);
  `);
}
