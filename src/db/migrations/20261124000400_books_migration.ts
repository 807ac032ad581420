import type { Knex } from "knex";

// Migration of historical books (issue 13). An imported open sale invoice keeps the number the old system gave it
// (`2025/0042`, `SF-17`): it is marked `migrated` and needs no series and sequence (a later invoice of the cut-over
// year is numbered after it because the import raises the series, rule 8), and it is linked to the opening-balance
// transaction when there is one (the opening balances carry its receivable; rule 7). Migrated numbers are unique in
// the company. One opening-balance transaction per company (rule 4), enforced here too. Constraints and columns
// only: the migration runs on a database with data (existing invoices get `migrated = false`).
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table sale_invoices add column migrated boolean not null default false;
    alter table sale_invoices drop constraint sale_invoices_issued_complete;
    alter table sale_invoices add constraint sale_invoices_issued_complete check ((status = 'draft') = (number is null)
      and (number is null) = (partner_snapshot is null) and (number is null) = (rate is null) and (number is null) = (gross_total_base is null)
      and case when migrated then status <> 'draft' and series_id is null and sequence is null
               else (number is null) = (series_id is null) and (number is null) = (sequence is null)
                    and (number is null) = (journal_transaction_id is null) end);
    create unique index sale_invoices_migrated_number_key on sale_invoices (company_id, number) where migrated;

    alter table purchase_invoices add column migrated boolean not null default false;

    create unique index journal_transactions_one_opening on journal_transactions (company_id) where document_type = 'migration_opening';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop index journal_transactions_one_opening;
    alter table purchase_invoices drop column migrated;
    drop index sale_invoices_migrated_number_key;
    alter table sale_invoices drop constraint sale_invoices_issued_complete;
    alter table sale_invoices add constraint sale_invoices_issued_complete check ((status = 'draft') = (number is null)
      and (number is null) = (series_id is null) and (number is null) = (sequence is null)
      and (number is null) = (partner_snapshot is null) and (number is null) = (journal_transaction_id is null)
      and (number is null) = (rate is null) and (number is null) = (gross_total_base is null));
    alter table sale_invoices drop column migrated;
  `);
}
