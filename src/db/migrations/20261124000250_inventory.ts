import type { Knex } from "knex";
import { define } from "../definitions.js";

// Inventory (issue 11): warehouses, stock operations and their movements, FIFO cost layers and what each outgoing
// movement took from which layer. Quantities are numeric(16, 4) (up to 12 integer digits and 4 decimals), unit
// costs numeric(21, 6), values numeric(17, 2) EUR. A layer's value is kept beside its quantity so that values stay
// exact to the cent: the movement that empties a layer takes what is left of its value (src/inventory/fifo.ts).
// stock_balances holds each item's current quantity and value per warehouse (the sum of its open layers), so that
// `inventory/stock/levels` need not add up every layer. Only new tables and two nullable columns: the migration
// runs on a database with data.
export async function up(knex: Knex): Promise<void> {
  // The current text of the functions its triggers execute (src/db/functions; issue 23).
  await define(knex, "stock_history_frozen");
  await knex.raw(`
    create table warehouses (
      company_id uuid not null references companies (id),
      id uuid not null default gen_random_uuid(),
      code text not null check (length(code) between 1 and 64),
      name text not null check (length(name) between 1 and 255),
      is_default boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (company_id, id),
      constraint warehouses_code_key unique (company_id, code)
    );
    -- At most one default per company (the code keeps exactly one once a warehouse exists).
    create unique index warehouses_one_default on warehouses (company_id) where is_default;

    -- One request that moves stock: a receipt, a transfer, a write-off, a stock take, an invoice's issue or receipt.
    create table stock_operations (
      company_id uuid not null references companies (id),
      id uuid not null default gen_random_uuid(),
      kind text not null check (kind in ('receipt', 'transfer', 'write_off', 'take', 'sale_invoice', 'purchase_invoice', 'migration')),
      date date not null,
      warehouse_id uuid not null,
      to_warehouse_id uuid,
      journal_transaction_id uuid,
      source_type text check (source_type in ('sale_invoice', 'sale_credit_note', 'purchase_invoice', 'purchase_credit_note')),
      source_id uuid,
      notes text check (length(notes) <= 1000),
      created_by_key_id uuid,
      created_at timestamptz not null default now(),
      primary key (company_id, id),
      constraint stock_operations_warehouse_fkey foreign key (company_id, warehouse_id) references warehouses (company_id, id),
      constraint stock_operations_to_warehouse_fkey foreign key (company_id, to_warehouse_id) references warehouses (company_id, id),
      constraint stock_operations_journal_fkey foreign key (company_id, journal_transaction_id) references journal_transactions (company_id, id),
      constraint stock_operations_transfer_target check ((kind = 'transfer') = (to_warehouse_id is not null) and to_warehouse_id is distinct from warehouse_id),
      constraint stock_operations_source check ((source_type is null) = (source_id is null))
    );
    create index stock_operations_source_idx on stock_operations (company_id, source_id) where source_id is not null;

    -- One item's movement in one warehouse: quantity and value signed, positive in, negative out.
    create table stock_movements (
      company_id uuid not null,
      id uuid not null default gen_random_uuid(),
      operation_id uuid not null,
      line_no smallint not null check (line_no between 1 and 1000),
      direction text not null check (direction in ('in', 'out')),
      date date not null,
      warehouse_id uuid not null,
      item_code text not null,
      quantity numeric(16, 4) not null check (quantity <> 0),
      value numeric(17, 2) not null,
      created_at timestamptz not null default now(),
      primary key (company_id, id),
      constraint stock_movements_line_key unique (company_id, operation_id, line_no),
      constraint stock_movements_operation_fkey foreign key (company_id, operation_id) references stock_operations (company_id, id),
      constraint stock_movements_warehouse_fkey foreign key (company_id, warehouse_id) references warehouses (company_id, id),
      constraint stock_movements_item_fkey foreign key (company_id, item_code) references catalog_items (company_id, code) on update restrict,
      constraint stock_movements_signs check (case direction when 'in' then quantity > 0 and value >= 0 else quantity < 0 and value <= 0 end)
    );
    create index stock_movements_date_idx on stock_movements (company_id, date, item_code, warehouse_id);
    create index stock_movements_item_idx on stock_movements (company_id, item_code, warehouse_id, date);

    -- FIFO cost layers: each incoming movement starts one (one per serial number for serial-tracked items).
    create table stock_layers (
      company_id uuid not null,
      id uuid not null default gen_random_uuid(),
      seq bigint generated always as identity,
      movement_id uuid not null,
      warehouse_id uuid not null,
      item_code text not null,
      date date not null,
      quantity numeric(16, 4) not null check (quantity > 0),
      remaining_quantity numeric(16, 4) not null,
      unit_cost numeric(21, 6) not null check (unit_cost >= 0),
      value numeric(17, 2) not null check (value >= 0),
      remaining_value numeric(17, 2) not null,
      lot_number text check (length(lot_number) between 1 and 64),
      expiry_date date,
      serial_number text check (length(serial_number) between 1 and 64),
      origin_layer_id uuid,
      primary key (company_id, id),
      constraint stock_layers_movement_fkey foreign key (company_id, movement_id) references stock_movements (company_id, id),
      constraint stock_layers_warehouse_fkey foreign key (company_id, warehouse_id) references warehouses (company_id, id),
      constraint stock_layers_item_fkey foreign key (company_id, item_code) references catalog_items (company_id, code) on update restrict,
      constraint stock_layers_origin_fkey foreign key (company_id, origin_layer_id) references stock_layers (company_id, id),
      constraint stock_layers_remaining_quantity check (remaining_quantity >= 0 and remaining_quantity <= quantity),
      constraint stock_layers_remaining_value check (remaining_value >= 0 and remaining_value <= value),
      -- An empty layer has no value left.
      constraint stock_layers_empty_without_value check (remaining_quantity > 0 or remaining_value = 0),
      constraint stock_layers_serial_one_unit check (serial_number is null or quantity = 1)
    );
    -- The FIFO order of an item's open layers in a warehouse.
    create index stock_layers_fifo_idx on stock_layers (company_id, item_code, warehouse_id, date, seq) where remaining_quantity > 0;
    -- A serial number is in stock at most once (anywhere in the company).
    create unique index stock_layers_serial_in_stock on stock_layers (company_id, item_code, serial_number) where serial_number is not null and remaining_quantity > 0;

    -- What an outgoing movement took from each layer, at which cost.
    create table stock_consumptions (
      company_id uuid not null,
      movement_id uuid not null,
      layer_id uuid not null,
      quantity numeric(16, 4) not null check (quantity > 0),
      unit_cost numeric(21, 6) not null check (unit_cost >= 0),
      value numeric(17, 2) not null check (value >= 0),
      primary key (company_id, movement_id, layer_id),
      constraint stock_consumptions_movement_fkey foreign key (company_id, movement_id) references stock_movements (company_id, id),
      constraint stock_consumptions_layer_fkey foreign key (company_id, layer_id) references stock_layers (company_id, id)
    );
    create index stock_consumptions_layer_idx on stock_consumptions (company_id, layer_id);

    create table stock_balances (
      company_id uuid not null,
      item_code text not null,
      warehouse_id uuid not null,
      quantity numeric(20, 4) not null check (quantity >= 0),
      value numeric(19, 2) not null check (value >= 0),
      primary key (company_id, item_code, warehouse_id),
      constraint stock_balances_warehouse_fkey foreign key (company_id, warehouse_id) references warehouses (company_id, id),
      constraint stock_balances_item_fkey foreign key (company_id, item_code) references catalog_items (company_id, code) on update restrict
    );

    create trigger stock_movements_frozen before update or delete on stock_movements for each row execute function stock_history_frozen();
    create trigger stock_consumptions_frozen before update or delete on stock_consumptions for each row execute function stock_history_frozen();

    -- Invoice lines may name the warehouse their goods go to or come from (the default warehouse otherwise).
    alter table sale_invoice_lines add column warehouse_code text check (length(warehouse_code) between 1 and 64);
    alter table purchase_invoice_lines add column warehouse_code text check (length(warehouse_code) between 1 and 64);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table purchase_invoice_lines drop column warehouse_code;
    alter table sale_invoice_lines drop column warehouse_code;
    drop table stock_balances, stock_consumptions, stock_layers, stock_movements, stock_operations, warehouses;
    drop function stock_history_frozen();
  `);
}
