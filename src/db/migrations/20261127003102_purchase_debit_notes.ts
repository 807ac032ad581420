import type { Knex } from "knex";

// Purchase debit notes (issue 24, item 6; i.SAF `DS`): a supplier's debit note increasing a registered invoice. Like a
// credit note it names the invoice it corrects in `credited_invoice_id` (the column's name is kept, as on sales:
// "the invoice a credit or debit note corrects"); it posts like an invoice, in the month of its own accounting date.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table purchase_invoices
      drop constraint purchase_invoices_type_check,
      add constraint purchase_invoices_type_check check (type in ('invoice', 'credit_note', 'debit_note')),
      drop constraint purchase_invoices_credit_note_target,
      add constraint purchase_invoices_credit_note_target check ((type in ('credit_note', 'debit_note')) = (credited_invoice_id is not null));
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table purchase_invoices
      drop constraint purchase_invoices_credit_note_target,
      add constraint purchase_invoices_credit_note_target check ((type = 'credit_note') = (credited_invoice_id is not null)),
      drop constraint purchase_invoices_type_check,
      add constraint purchase_invoices_type_check check (type in ('invoice', 'credit_note'));
  `);
}
