-- The highest level of an item in a warehouse on a date or any later one, quantity and value each: the current level
-- less the movements dated after the date, plus the highest running sum of those movements (issue 22, item 5).
create or replace function stock_level_peak(p_company_id uuid, p_item_code text, p_warehouse_id uuid, p_since date, p_quantity numeric, p_value numeric)
  returns TABLE(quantity numeric, value numeric)
  language sql stable
as $$
      select p_quantity - coalesce(sum(d.quantity), 0) + greatest(0, coalesce(max(d.running_quantity), 0)),
             p_value - coalesce(sum(d.value), 0) + greatest(0, coalesce(max(d.running_value), 0))
        from (select sum(m.quantity) as quantity, sum(m.value) as value,
                     sum(sum(m.quantity)) over (order by m.date) as running_quantity,
                     sum(sum(m.value)) over (order by m.date) as running_value
                from stock_movements m
               where m.company_id = p_company_id and m.item_code = p_item_code and m.warehouse_id = p_warehouse_id and m.date > p_since
               group by m.date) d
    $$;
