import type { Knex } from "knex";

// Import VAT paid to customs (issue 24, item 4; FR0600 boxes 26 and 27): an `import` invoice may carry its customs
// declaration — number (MRN) and date, the VAT paid to customs in EUR and the customs value it was computed on. The
// VAT is posted with the invoice (debit purchases.vatReceivable, credit purchases.customsVatPayable). The database
// holds what the API checks: only on an import invoice, amounts not negative, VAT only with the declaration's number
// and date. No existing row carries one.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table purchase_invoices
      add column customs_declaration_number text check (length(customs_declaration_number) between 1 and 64),
      add column customs_declaration_date date,
      add column customs_vat numeric(17, 2) check (customs_vat >= 0),
      add column customs_value numeric(17, 2) check (customs_value >= 0),
      add constraint purchase_invoices_customs_import check (
        (customs_declaration_number is null and customs_declaration_date is null and customs_vat is null and customs_value is null)
        or (vat_treatment = 'import' and type = 'invoice' and customs_vat is not null)),
      add constraint purchase_invoices_customs_complete check (
        coalesce(customs_vat, 0) = 0 or (customs_declaration_number is not null and customs_declaration_date is not null)),
      add constraint purchase_invoices_customs_date check (customs_declaration_date <= accounting_date);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table purchase_invoices
      drop column customs_declaration_number,
      drop column customs_declaration_date,
      drop column customs_vat,
      drop column customs_value;
  `);
}
