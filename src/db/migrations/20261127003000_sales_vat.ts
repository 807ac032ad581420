import type { Knex } from "knex";

// Issue 24, "The VAT data the declarations need", the sales side:
// - debit notes (`type = 'debit_note'`): like a credit note, a debit note names the issued invoice it corrects in
//   `credited_invoice_id` (the column's name is kept: "the invoice a credit or debit note corrects");
// - annulled invoices (`status = 'annulled'`, i.SAF AN): `annulled_at` and `annulment_transaction_id` (the reversal
//   of the invoice's posting, dated on its issue date), nothing paid or credited, nothing outstanding;
// - debit notes number from their own series (`number_series.document_type = 'sale_debit_note'`, default prefix DS);
// - the triangular-trade flag of a PVM13 sale (FR0600 box 18, FR0564's triangular column);
// - a line of a company that is not a VAT payer carries no classifier (null) and no VAT (rate 0).
export async function up(knex: Knex): Promise<void> {
  // invoice_frozen lets an issued invoice become annulled once (src/db/functions/invoice_frozen.sql, applied after the
  // migrations as every changed definition is).
  await knex.raw(`
    alter table sale_invoices
      drop constraint sale_invoices_type_check,
      add constraint sale_invoices_type_check check (type in ('invoice', 'credit_note', 'debit_note')),
      drop constraint sale_invoices_credit_note_target,
      add constraint sale_invoices_credit_note_target check ((type in ('credit_note', 'debit_note')) = (credited_invoice_id is not null)),
      drop constraint sale_invoices_status_check,
      add constraint sale_invoices_status_check check (status in ('draft', 'issued', 'partially_paid', 'paid', 'credited', 'annulled')),
      add column triangular boolean not null default false,
      add column annulled_at timestamptz,
      add column annulment_transaction_id uuid,
      add constraint sale_invoices_annulment_fkey foreign key (company_id, annulment_transaction_id) references journal_transactions (company_id, id),
      add constraint sale_invoices_annulled_complete check (
        (status = 'annulled') = (annulled_at is not null) and (annulled_at is null) = (annulment_transaction_id is null)
        and (status <> 'annulled' or (type <> 'credit_note' and paid_amount = 0 and credited_amount = 0 and outstanding = 0)));
    alter table number_series
      drop constraint number_series_document_type_check,
      add constraint number_series_document_type_check
        check (document_type in ('sale_invoice', 'sale_credit_note', 'sale_debit_note', 'purchase_invoice', 'purchase_credit_note', 'journal'));
    alter table sale_invoice_lines
      alter column vat_classifier drop not null,
      add constraint sale_invoice_lines_no_classifier_no_vat check (vat_classifier is not null or vat_rate_percent = 0);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table sale_invoice_lines drop constraint sale_invoice_lines_no_classifier_no_vat, alter column vat_classifier set not null;
    alter table number_series
      drop constraint number_series_document_type_check,
      add constraint number_series_document_type_check
        check (document_type in ('sale_invoice', 'sale_credit_note', 'purchase_invoice', 'purchase_credit_note', 'journal'));
    alter table sale_invoices
      drop constraint sale_invoices_annulled_complete,
      drop constraint sale_invoices_annulment_fkey,
      drop column annulment_transaction_id,
      drop column annulled_at,
      drop column triangular,
      drop constraint sale_invoices_status_check,
      add constraint sale_invoices_status_check check (status in ('draft', 'issued', 'partially_paid', 'paid', 'credited')),
      drop constraint sale_invoices_credit_note_target,
      add constraint sale_invoices_credit_note_target check ((type = 'credit_note') = (credited_invoice_id is not null)),
      drop constraint sale_invoices_type_check,
      add constraint sale_invoices_type_check check (type in ('invoice', 'credit_note'));
  `);
}
