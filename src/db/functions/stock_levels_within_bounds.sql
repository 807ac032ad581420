-- An item's stock in a warehouse stays within the contract's Quantity (12 integer digits) and Money (15) on every date
-- (issue 22, item 5): after each statement that inserts layers (only incoming movements raise a level), per item and
-- warehouse it brought stock into, today's level and, where movements are dated after the earliest date brought in,
-- the highest level from that date on (stock_level_peak). A back-dated receipt that would push a past level over is
-- refused even when today's fits.
create or replace function stock_levels_within_bounds()
  returns trigger
  language plpgsql volatile
as $$
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
