import type { Knex } from "knex";

// The check that a stock balance equals its open layers (migration 20261124000630) runs at commit once per row
// written. A sale takes several layers per line and moves the line's balance, so it summed the same open layers
// once per layer taken and once more for the balance: with an item of a thousand open one-unit layers, four sums of
// a thousand rows per line. A layer whose balance row this transaction wrote too now leaves the check to that
// balance row's own run (the same sum, once); a layer written without its balance is still checked in full, which
// is what catches a direct write of layers alone. (A balance written in a savepoint carries the savepoint's
// transaction id: its layers are then checked in full as before — slower, never wrong.)
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
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
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function stock_balance_matches_layers() returns trigger language plpgsql as $$
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
  `);
}
