import type { Knex } from "knex";
import { define } from "../definitions.js";

// A stock balance equals the sum of its layers (migration 20261124000630: checked at commit, or earlier, for every
// balance and layer written). The check summed the open layers of the item in the warehouse each time: 1.1 ms for an
// item of a thousand open layers, three times per sale of three such items, while the sale holds those layers
// (every other sale of the items waits). Now the database keeps that sum itself: stock_layer_sums, per company, item
// and warehouse, the remaining quantity and value of all its layers (an empty layer adds nothing: it has no value
// left, constraint stock_layers_empty_without_value), moved by statement triggers on stock_layers from each
// statement's changed rows (transition tables), and the check compares the balance with that row. Nothing else writes
// it (trigger stock_layer_sums_written_by_layers), so it is what the layers say, read in one row. (Layers are never
// deleted: trigger stock_layers_frozen.)
export async function up(knex: Knex): Promise<void> {
  // The current text of the functions its triggers execute (src/db/functions; issue 23).
  await define(knex, "stock_layer_sums_written_by_layers", "stock_layer_sums", "stock_balance_matches_layers");
  await knex.raw(`
    create table stock_layer_sums (
      company_id uuid not null references companies (id),
      item_code text not null,
      warehouse_id uuid not null,
      quantity numeric not null,
      value numeric not null,
      primary key (company_id, item_code, warehouse_id)
    );
    -- What exists already.
    insert into stock_layer_sums (company_id, item_code, warehouse_id, quantity, value)
    select company_id, item_code, warehouse_id, sum(remaining_quantity), sum(remaining_value) from stock_layers group by company_id, item_code, warehouse_id;

    create trigger stock_layer_sums_written_by_layers before insert or update or delete on stock_layer_sums
      for each row execute function stock_layer_sums_written_by_layers();
    create trigger stock_layer_sums_no_truncate before truncate on stock_layer_sums
      for each statement execute function refuse_change();

    create trigger stock_layer_sums_insert after insert on stock_layers referencing new table as new_rows
      for each statement execute function stock_layer_sums_insert();
    create trigger stock_layer_sums_update after update on stock_layers referencing old table as old_rows new table as new_rows
      for each statement execute function stock_layer_sums_update();

  `);
}

// Back to the check of migration 20261124000660 (summing the open layers), then without the sums.
export async function down(knex: Knex): Promise<void> {
  // The functions are repeatable definitions (src/db/functions): undoing this migration leaves the current ones.
  await knex.raw(`
    drop trigger stock_layer_sums_insert on stock_layers;
    drop trigger stock_layer_sums_update on stock_layers;
    drop table stock_layer_sums;
  `);
}
