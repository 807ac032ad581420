import type { Knex } from "knex";
import { define } from "../definitions.js";

// The overdue filter of the invoice lists (issued or partly paid, something outstanding, due before today in
// Vilnius) reads per-group sums too: sale_invoice_open_totals and purchase_invoice_open_totals hold the documents
// that are open (status issued/registered or partially_paid, outstanding > 0) per company, status, type, partner,
// currency, series prefix (sales) or VAT treatment (purchases) and due date, kept by triggers exactly as the
// rollups of migration 20261124000150 (same transaction, 16 stripes, one upsert per group and statement). Today's
// overdue documents are those of the groups due before today; the date is the database's, as the list's own.
const SIDES = [
  {
    table: "sale_invoices",
    rollup: "sale_invoice_open_totals",
    open: "'issued', 'partially_paid'",
    extra: "series_prefix",
  },
  {
    table: "purchase_invoices",
    rollup: "purchase_invoice_open_totals",
    open: "'registered', 'partially_paid'",
    extra: "vat_treatment",
  },
] as const;

export async function up(knex: Knex): Promise<void> {
  // The current text of the functions its triggers execute (src/db/functions; issue 23).
  await define(knex, "invoice_list_totals");
  for (const s of SIDES) {
    const key = `company_id, status, type, partner_code, currency, ${s.extra}, due_date`;
    const grouped = (source: string, sign: string) =>
      `select company_id, status, type, partner_code, currency, ${s.extra}, due_date,
              ${sign} as documents, ${sign} * net_total as net_total, ${sign} * vat_total as vat_total, ${sign} * gross_total as gross_total, ${sign} * outstanding as outstanding
         from ${source} where status in (${s.open}) and outstanding > 0`;
    await knex.raw(`
      create table ${s.rollup} (
        company_id uuid not null references companies (id),
        status text not null,
        type text not null,
        partner_code text not null,
        currency text not null,
        ${s.extra} text not null,
        due_date date not null,
        stripe smallint not null check (stripe between 0 and 15),
        documents bigint not null,
        net_total numeric not null,
        vat_total numeric not null,
        gross_total numeric not null,
        outstanding numeric not null,
        primary key (${key}, stripe)
      );

      -- (their functions: src/db/functions/invoice_list_totals.ts)
      create trigger ${s.rollup}_insert after insert on ${s.table} referencing new table as new_rows
        for each statement execute function ${s.rollup}_insert();
      create trigger ${s.rollup}_update after update on ${s.table} referencing old table as old_rows new table as new_rows
        for each statement execute function ${s.rollup}_update();
      create trigger ${s.rollup}_delete after delete on ${s.table} referencing old table as old_rows
        for each statement execute function ${s.rollup}_delete();

      insert into ${s.rollup} (${key}, stripe, documents, net_total, vat_total, gross_total, outstanding)
      select ${key}, 0, sum(documents), sum(net_total), sum(vat_total), sum(gross_total), sum(outstanding)
        from (${grouped(s.table, "1")}) d
       group by ${key};
    `);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const s of SIDES) {
    await knex.raw(`
      drop trigger ${s.rollup}_insert on ${s.table};
      drop trigger ${s.rollup}_update on ${s.table};
      drop trigger ${s.rollup}_delete on ${s.table};
      drop function ${s.rollup}_insert();
      drop function ${s.rollup}_update();
      drop function ${s.rollup}_delete();
      drop table ${s.rollup};
    `);
  }
}
