// stock_layer_sums holds, per company, item and warehouse, the remaining quantity and value of all its layers (an
// empty layer adds nothing: it has no value left), moved by statement triggers on stock_layers from each statement's
// changed rows (transition tables), so that the balance check (stock_balance_matches_layers.sql) compares one row
// instead of adding up every open layer (issue 11, throughput). Nothing else writes it
// (stock_layer_sums_written_by_layers.sql). Fires: stock_layer_sums_insert (after insert on stock_layers),
// stock_layer_sums_update (after update); layers are never deleted (stock_layers_frozen.sql).
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

export const statements = [
  `create or replace function stock_layer_sums_insert() returns trigger language plpgsql as $$
    begin
      ${apply(rows("new_rows", "1"))}
      return null;
    end $$;`,
  `create or replace function stock_layer_sums_update() returns trigger language plpgsql as $$
    begin
      ${apply(`${rows("new_rows", "1")} union all ${rows("old_rows", "-1")}`)}
      return null;
    end $$;`,
];
