import type { Knex } from "knex";

// Invoicing review (issue 10, issue 8):
//  - The tax point. A document may name the day its supply happened (`supply_date`), which is its VAT tax point
//    (PVM įstatymas Art. 14): a December 2025 supply invoiced on 2026-01-05 keeps 9%. Null means the issue date
//    (sales) or document date (purchases). A supply after the invoice has the invoice's date as its tax point, so it
//    cannot be later than that date.
//  - Visible numbers. A credit note series may not take the prefix of an invoice series (the code refuses it), and
//    the database refuses two sales documents of one company that show the same number in the same year (a year's
//    series restart at 1: `SF-1` of 2026 and of 2027 are two documents, as the numbering always allowed). The
//    books migration's imported numbers (unique in the company already) fall under it too.
//  - Invoice lines carry at most 4 decimals of quantity and unit price (the contract says so); `not valid`: rows
//    written before are not re-checked (no production data exists, but test databases of older runs may).
//  - Invoice lines may name a lot and serial numbers (stock moved by the line), and a sales credit note line may
//    bring its goods back into stock (`return_to_stock`).
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table sale_invoices add column supply_date date;
    alter table sale_invoices add constraint sale_invoices_supply_date_check check (supply_date <= issue_date);
    alter table purchase_invoices add column supply_date date;
    alter table purchase_invoices add constraint purchase_invoices_supply_date_check check (supply_date <= document_date);

    create unique index sale_invoices_number_key on sale_invoices (company_id, number, (extract(year from issue_date))) where number is not null;
    -- It serves lookups by number as the plain index did (a number = … condition implies number is not null).
    drop index sale_invoices_number_idx;

    alter table sale_invoice_lines
      add column lot_number text check (length(lot_number) between 1 and 64),
      add column serials text[] check (cardinality(serials) between 1 and 1000),
      add column return_to_stock boolean not null default false,
      add constraint sale_invoice_lines_scale check (quantity = round(quantity, 4) and unit_price = round(unit_price, 4)) not valid;
    alter table purchase_invoice_lines
      add column lot_number text check (length(lot_number) between 1 and 64),
      add column serials text[] check (cardinality(serials) between 1 and 1000),
      add constraint purchase_invoice_lines_scale check (quantity = round(quantity, 4) and unit_price = round(unit_price, 4)) not valid;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table purchase_invoice_lines drop constraint purchase_invoice_lines_scale, drop column serials, drop column lot_number;
    alter table sale_invoice_lines drop constraint sale_invoice_lines_scale, drop column return_to_stock, drop column serials, drop column lot_number;
    create index sale_invoices_number_idx on sale_invoices (company_id, number);
    drop index sale_invoices_number_key;
    alter table purchase_invoices drop column supply_date;
    alter table sale_invoices drop column supply_date;
  `);
}
