import type { Knex } from "knex";
import { define } from "../definitions.js";

// The count and totals of the invoice lists (issue 10: p50 < 150 ms over a million invoices) read from per-group
// sums instead of aggregating every matching invoice: sale_invoice_totals and purchase_invoice_totals hold, per
// company, status, type, partner, currency, series prefix (sales) or VAT treatment (purchases) and month of the
// issue (document) date, the number of documents and the sums of net, VAT, gross and outstanding. Triggers keep
// them in the same transaction as every insert, update and delete of a document — whoever writes it (the API, the
// bank module settling paid_amount/outstanding/status, the migration import) — so they are exact at every commit.
// A list reads them when every filter is on those fields (a date range of whole months included); any other filter
// (number, due date, overdue, amounts...) aggregates the documents as before (src/shared/list-engine.ts, Rollup).
//
// Contention: the triggers add to one of 16 stripes of a group, chosen by the server process (pg_backend_pid), so
// concurrent transactions on different connections rarely wait for one another's rollup row; a list sums the
// stripes. A statement's rows are summed per group first (transition tables), so a bulk insert touches each group
// once, and a change that moves no figure of a group (a note, a timestamp) touches no rollup row at all.
const SIDES = [
  { table: "sale_invoices", rollup: "sale_invoice_totals", date: "issue_date", extra: "series_prefix" },
  { table: "purchase_invoices", rollup: "purchase_invoice_totals", date: "document_date", extra: "vat_treatment" },
] as const;

export async function up(knex: Knex): Promise<void> {
  // The current text of the functions its triggers execute (src/db/functions; issue 23).
  await define(knex, "invoice_list_totals");
  for (const s of SIDES) {
    const key = `company_id, status, type, partner_code, currency, ${s.extra}, month`;
    const grouped = (source: string, sign: string) =>
      `select company_id, status, type, partner_code, currency, ${s.extra}, date_trunc('month', ${s.date})::date as month,
              ${sign} as documents, ${sign} * net_total as net_total, ${sign} * vat_total as vat_total, ${sign} * gross_total as gross_total, ${sign} * outstanding as outstanding
         from ${source}`;
    await knex.raw(`
      create table ${s.rollup} (
        company_id uuid not null references companies (id),
        status text not null,
        type text not null,
        partner_code text not null,
        currency text not null,
        ${s.extra} text not null,
        month date not null,
        stripe smallint not null check (stripe between 0 and 15),
        documents bigint not null, -- per stripe it may be negative (a document added on one stripe, removed on another)
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

      -- What exists already (stripe 0).
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
