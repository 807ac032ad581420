import type { Knex } from "knex";
import { define } from "../definitions.js";

// What each sales and purchase document declares for VAT, stored when it posts (issues 24 and 27;
// src/db/functions/vat_declared.ts says what the rows hold and how they are computed): FR0600 of a month read the
// month's every document and derived its rows again on each call (3.6 s for 150,000 documents); the declarations now
// read the stored rows, and FR0600's reconciliation the stored pairs of declared and posted amounts per document and
// VAT account, with the ledger's monthly balances. Kept by statement triggers on sale_invoices and purchase_invoices
// in the transaction that issues, registers or annuls a document; nothing else writes the tables. An existing
// database gets every posted document stored here.
export async function up(knex: Knex): Promise<void> {
  // The current text of the functions its triggers execute (src/db/functions; issue 23).
  await define(knex, "vat_declared");
  await knex.raw(`
    create table vat_declared_rows (
      company_id uuid not null,
      side text not null check (side in ('sale', 'purchase')),
      document_id uuid not null,
      ord integer not null check (ord >= 0),
      type text not null,
      annulled boolean not null,
      sign smallint not null check (sign between -1 and 1),
      decl_date date not null,
      doc_no text not null,
      partner_code text not null,
      treatment text not null,
      journal_transaction_id uuid,
      classifier text not null,
      rate_pct numeric(5,2) not null,
      base numeric(17,2) not null,
      vat numeric(17,2) not null,
      ded numeric(17,2),
      nonded numeric(17,2),
      primary key (company_id, document_id, ord),
      check ((side = 'sale') = (ded is null and nonded is null))
    );
    -- The first documents of a classifier in a month (a box's drill-down), in the drill-down's order.
    create index vat_declared_rows_classifier_idx on vat_declared_rows (company_id, side, classifier, decl_date, doc_no, document_id, rate_pct);
    create table vat_declared_accounts (
      company_id uuid not null,
      side text not null check (side in ('sale', 'purchase')),
      document_id uuid not null,
      decl_date date not null,
      journal_transaction_id uuid,
      account_code text not null,
      declared numeric(17,2) not null,
      posted numeric(17,2) not null,
      primary key (company_id, document_id, account_code)
    );
    -- Per company and month, the sums FR0600 reads: per classifier and rate (documents counted, base, VAT, deducted
    -- VAT, each with its document's sign), and per VAT account (declared, posted, documents whose two differ); in 16
    -- stripes by server process, summed on read.
    create table vat_declared_sums (
      company_id uuid not null,
      month date not null check (month = date_trunc('month', month)),
      side text not null,
      classifier text not null,
      rate_pct numeric(5,2) not null,
      stripe smallint not null check (stripe between 0 and 15),
      documents bigint not null,
      base numeric not null,
      vat numeric not null,
      ded numeric not null,
      primary key (company_id, month, side, classifier, rate_pct, stripe)
    );
    create table vat_declared_account_sums (
      company_id uuid not null,
      month date not null check (month = date_trunc('month', month)),
      account_code text not null,
      stripe smallint not null check (stripe between 0 and 15),
      declared numeric not null,
      posted numeric not null,
      differing bigint not null,
      primary key (company_id, month, account_code, stripe)
    );

    create trigger vat_declared_rows_written_by_store before insert or update or delete on vat_declared_rows
      for each statement execute function vat_declared_written_by_store();
    create trigger vat_declared_rows_no_truncate before truncate on vat_declared_rows for each statement execute function refuse_change();
    create trigger vat_declared_accounts_written_by_store before insert or update or delete on vat_declared_accounts
      for each statement execute function vat_declared_written_by_store();
    create trigger vat_declared_accounts_no_truncate before truncate on vat_declared_accounts for each statement execute function refuse_change();
    create trigger vat_declared_sums_written_by_store before insert or update or delete on vat_declared_sums
      for each statement execute function vat_declared_written_by_store();
    create trigger vat_declared_sums_no_truncate before truncate on vat_declared_sums for each statement execute function refuse_change();
    create trigger vat_declared_account_sums_written_by_store before insert or update or delete on vat_declared_account_sums
      for each statement execute function vat_declared_written_by_store();
    create trigger vat_declared_account_sums_no_truncate before truncate on vat_declared_account_sums for each statement execute function refuse_change();

    create trigger vat_declared_sale_invoices_insert after insert on sale_invoices referencing new table as new_rows
      for each statement execute function vat_declared_sale_invoices_insert();
    create trigger vat_declared_sale_invoices_update after update on sale_invoices referencing old table as old_rows new table as new_rows
      for each statement execute function vat_declared_sale_invoices_update();
    create trigger vat_declared_purchase_invoices_insert after insert on purchase_invoices referencing new table as new_rows
      for each statement execute function vat_declared_purchase_invoices_insert();
    create trigger vat_declared_purchase_invoices_update after update on purchase_invoices referencing old table as old_rows new table as new_rows
      for each statement execute function vat_declared_purchase_invoices_update();

    -- What the books hold already.
    select vat_declared_store(c.id,
             array(select id from sale_invoices s where s.company_id = c.id and s.status <> 'draft' and not s.migrated),
             array(select id from purchase_invoices p where p.company_id = c.id and p.status <> 'draft' and not p.migrated))
      from companies c;
  `);
}

export async function down(knex: Knex): Promise<void> {
  // The functions are repeatable definitions (src/db/functions): undoing this migration leaves the current ones.
  await knex.raw(`
    drop trigger vat_declared_purchase_invoices_update on purchase_invoices;
    drop trigger vat_declared_purchase_invoices_insert on purchase_invoices;
    drop trigger vat_declared_sale_invoices_update on sale_invoices;
    drop trigger vat_declared_sale_invoices_insert on sale_invoices;
    drop table vat_declared_account_sums;
    drop table vat_declared_sums;
    drop table vat_declared_accounts;
    drop table vat_declared_rows;
  `);
}
