import type { Knex } from "knex";
import { up as checkSummingLayers } from "./20261124000660_stock_balance_check_once.js";

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
  const apply = (rows: string) => `
      insert into stock_layer_sums as t (company_id, item_code, warehouse_id, quantity, value)
      select company_id, item_code, warehouse_id, sum(quantity), sum(value)
        from (${rows}) d
       group by company_id, item_code, warehouse_id
       order by company_id, item_code, warehouse_id
      on conflict (company_id, item_code, warehouse_id) do update
         set quantity = t.quantity + excluded.quantity, value = t.value + excluded.value;`;
  const rows = (source: string, sign: string) =>
    `select company_id, item_code, warehouse_id, ${sign} * remaining_quantity as quantity, ${sign} * remaining_value as value from ${source}`;
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

    create function stock_layer_sums_written_by_layers() returns trigger language plpgsql as $$
    begin
      if pg_trigger_depth() < 2 then
        raise exception 'stock_layer_sums is kept by the triggers of stock_layers only' using errcode = 'P0001', constraint = 'stock_layer_sums_written_by_layers';
      end if;
      return case when tg_op = 'DELETE' then old else new end;
    end $$;
    create trigger stock_layer_sums_written_by_layers before insert or update or delete on stock_layer_sums
      for each row execute function stock_layer_sums_written_by_layers();
    create trigger stock_layer_sums_no_truncate before truncate on stock_layer_sums
      for each statement execute function refuse_change();

    create function stock_layer_sums_insert() returns trigger language plpgsql as $$
    begin
      ${apply(rows("new_rows", "1"))}
      return null;
    end $$;
    create function stock_layer_sums_update() returns trigger language plpgsql as $$
    begin
      ${apply(`${rows("new_rows", "1")} union all ${rows("old_rows", "-1")}`)}
      return null;
    end $$;
    create trigger stock_layer_sums_insert after insert on stock_layers referencing new table as new_rows
      for each statement execute function stock_layer_sums_insert();
    create trigger stock_layer_sums_update after update on stock_layers referencing old table as old_rows new table as new_rows
      for each statement execute function stock_layer_sums_update();

    create or replace function stock_balance_matches_layers() returns trigger language plpgsql as $$
    declare
      k_company uuid;
      k_item text;
      k_warehouse uuid;
      b_quantity numeric;
      b_value numeric;
      b_written_here boolean;
      l_quantity numeric;
      l_value numeric;
    begin
      if tg_op = 'DELETE' then
        k_company := old.company_id; k_item := old.item_code; k_warehouse := old.warehouse_id;
      else
        k_company := new.company_id; k_item := new.item_code; k_warehouse := new.warehouse_id;
      end if;
      select b.quantity, b.value, b.xmin::text = (pg_current_xact_id()::text::numeric % 4294967296)::text
        into b_quantity, b_value, b_written_here
        from stock_balances b where b.company_id = k_company and b.item_code = k_item and b.warehouse_id = k_warehouse;
      if tg_table_name = 'stock_layers' and b_written_here then
        return null;
      end if;
      select s.quantity, s.value into l_quantity, l_value
        from stock_layer_sums s where s.company_id = k_company and s.item_code = k_item and s.warehouse_id = k_warehouse;
      if coalesce(b_quantity, 0) <> coalesce(l_quantity, 0) or coalesce(b_value, 0) <> coalesce(l_value, 0) then
        raise exception 'the stock balance of item % in warehouse % (% units, % EUR) differs from its layers (% units, % EUR)',
            k_item, k_warehouse, coalesce(b_quantity, 0), coalesce(b_value, 0), coalesce(l_quantity, 0), coalesce(l_value, 0)
          using errcode = 'check_violation', constraint = 'stock_balance_matches_layers';
      end if;
      return null;
    end $$;
  `);
}

// Back to the check of migration 20261124000660 (summing the open layers), then without the sums.
export async function down(knex: Knex): Promise<void> {
  await checkSummingLayers(knex);
  await knex.raw(`
    drop trigger stock_layer_sums_insert on stock_layers;
    drop trigger stock_layer_sums_update on stock_layers;
    drop function stock_layer_sums_insert(), stock_layer_sums_update();
    drop table stock_layer_sums;
    drop function stock_layer_sums_written_by_layers();
  `);
}
