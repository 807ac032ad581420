import type { Knex } from "knex";

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
  await knex.raw(`
    -- The highest level of an item in a warehouse on p_since or any later date, quantity and value each: the current
    -- level (p_quantity, p_value) less the movements dated after p_since, plus the highest running sum of those.
    create function stock_level_peak(p_company_id uuid, p_item_code text, p_warehouse_id uuid, p_since date, p_quantity numeric, p_value numeric)
      returns table (quantity numeric, value numeric) language sql stable as $$
      select p_quantity - coalesce(sum(d.quantity), 0) + greatest(0, coalesce(max(d.running_quantity), 0)),
             p_value - coalesce(sum(d.value), 0) + greatest(0, coalesce(max(d.running_value), 0))
        from (select sum(m.quantity) as quantity, sum(m.value) as value,
                     sum(sum(m.quantity)) over (order by m.date) as running_quantity,
                     sum(sum(m.value)) over (order by m.date) as running_value
                from stock_movements m
               where m.company_id = p_company_id and m.item_code = p_item_code and m.warehouse_id = p_warehouse_id and m.date > p_since
               group by m.date) d
    $$;

    create function stock_levels_within_bounds() returns trigger language plpgsql as $$
    declare
      bad record;
      peak record;
    begin
      -- Per item and warehouse the statement brought stock into: today's level, and (only where movements are dated
      -- after the earliest date brought in: a back-dated receipt) the highest level from that date on.
      select p.company_id, p.item_code, p.warehouse_id, p.since, s.quantity, s.value
        into bad
        from (select company_id, item_code, warehouse_id, min(date) as since from new_layers group by company_id, item_code, warehouse_id) p
        join stock_layer_sums s on s.company_id = p.company_id and s.item_code = p.item_code and s.warehouse_id = p.warehouse_id
       where s.quantity > 999999999999.9999 or s.value > 999999999999999.99
          or case when exists (select 1 from stock_movements m
                                where m.company_id = p.company_id and m.item_code = p.item_code and m.warehouse_id = p.warehouse_id and m.date > p.since)
                  then (select k.quantity > 999999999999.9999 or k.value > 999999999999999.99
                          from stock_level_peak(p.company_id, p.item_code, p.warehouse_id, p.since, s.quantity, s.value) k)
                  else false end
       limit 1;
      if found then
        select k.quantity, k.value into peak from stock_level_peak(bad.company_id, bad.item_code, bad.warehouse_id, bad.since, bad.quantity, bad.value) k;
        raise exception 'the stock of item % in warehouse % would reach % units and % EUR on or after %, beyond 999999999999.9999 units or 999999999999999.99 EUR',
            bad.item_code, bad.warehouse_id, peak.quantity, peak.value, bad.since
          using errcode = 'check_violation', constraint = 'stock_level_within_bounds',
                detail = json_build_object('itemCode', bad.item_code, 'warehouseId', bad.warehouse_id, 'quantity', peak.quantity::text, 'value', peak.value::text)::text;
      end if;
      return null;
    end $$;
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
