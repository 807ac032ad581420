import type { Knex } from "knex";
import { define } from "../definitions.js";

// A purchase's accounting date (issue 24, item 5): the day the purchase posts and the month whose i.SAF
// (`RegistrationAccountDate`) and FR0600 declare it; never before the document date. Existing documents were posted
// on their document date, so that is their accounting date (the frozen-document trigger is paused for the backfill
// only: the value is what they were posted with). A row inserted without one takes its document date
// (purchase_invoices_accounting_date.sql). The declarations read a month's purchases by it: the index of
// 20261127001001 on the document date gives way to one on the accounting date.
export async function up(knex: Knex): Promise<void> {
  await define(knex, "purchase_invoices_accounting_date");
  await knex.raw(`
    alter table purchase_invoices add column accounting_date date;
    alter table purchase_invoices disable trigger purchase_invoices_frozen;
    update purchase_invoices set accounting_date = document_date;
    alter table purchase_invoices enable trigger purchase_invoices_frozen;
    alter table purchase_invoices alter column accounting_date set not null,
      add constraint purchase_invoices_accounting_date_check check (accounting_date >= document_date);
    create trigger purchase_invoices_accounting_date before insert on purchase_invoices
      for each row when (new.accounting_date is null) execute function purchase_invoices_accounting_date();
    drop index purchase_invoices_declared_idx;
    create index purchase_invoices_declared_idx on purchase_invoices (company_id, accounting_date, id) where status <> 'draft' and not migrated;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop index purchase_invoices_declared_idx;
    create index purchase_invoices_declared_idx on purchase_invoices (company_id, document_date, id) where status <> 'draft' and not migrated;
    drop trigger purchase_invoices_accounting_date on purchase_invoices;
    drop function purchase_invoices_accounting_date();
    alter table purchase_invoices drop column accounting_date;
  `);
}
