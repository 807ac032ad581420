import type { Knex } from "knex";
import { define } from "../definitions.js";

// Sales and purchase invoices and credit notes (issue 10). A document is a draft until it is issued (sales) or
// registered (purchases); from then on the database refuses to change what the document says — a correction is
// a credit note — and lets only its settlement figures move (paid, credited, outstanding, status). A document's
// number comes from its series (series_id, sequence), unique per series, so `SF-1` of 2026 and `SF-1` of 2027
// are two documents. Amounts in the document currency are numeric(17, 2); the EUR figures posted are kept beside
// them with the rate used.
export async function up(knex: Knex): Promise<void> {
  // The current text of the functions its triggers execute (src/db/functions; issue 23).
  await define(knex, "invoice_frozen", "invoice_lines_frozen");
  await knex.raw(`
    -- Credit notes of sales and of purchases are numbered apart from invoices (their own series); no production
    -- data exists yet, so an existing 'credit_note' series simply becomes the sales one.
    alter table number_series drop constraint number_series_document_type_check;
    update number_series set document_type = 'sale_credit_note' where document_type = 'credit_note';
    alter table number_series add constraint number_series_document_type_check
      check (document_type in ('sale_invoice', 'sale_credit_note', 'purchase_invoice', 'purchase_credit_note', 'journal'));

    create table sale_invoices (
      company_id uuid not null references companies (id),
      id uuid not null default gen_random_uuid(),
      type text not null check (type in ('invoice', 'credit_note')),
      status text not null default 'draft' check (status in ('draft', 'issued', 'partially_paid', 'paid', 'credited')),
      series_prefix text not null check (series_prefix ~ '^[A-Za-z0-9_/]{1,20}$'),
      series_id uuid,
      sequence bigint,
      number text,
      partner_code text not null,
      partner_snapshot jsonb check (jsonb_typeof(partner_snapshot) = 'object'),
      issue_date date not null,
      due_date date not null check (due_date >= issue_date),
      currency text not null check (currency ~ '^[A-Z]{3}$'),
      rate numeric(18, 8) check (rate > 0),
      rate_source text check (rate_source in ('base', 'override', 'ecb')),
      rate_date date,
      notes text check (length(notes) <= 2000),
      credited_invoice_id uuid,
      net_total numeric(17, 2) not null default 0 check (net_total >= 0),
      vat_total numeric(17, 2) not null default 0 check (vat_total >= 0),
      gross_total numeric(17, 2) not null default 0 check (gross_total >= 0),
      gross_total_base numeric(17, 2) check (gross_total_base >= 0),
      vat_breakdown jsonb not null default '[]' check (jsonb_typeof(vat_breakdown) = 'array'),
      paid_amount numeric(17, 2) not null default 0 check (paid_amount >= 0),
      credited_amount numeric(17, 2) not null default 0 check (credited_amount >= 0),
      outstanding numeric(17, 2) not null default 0 check (outstanding >= 0),
      journal_transaction_id uuid,
      issued_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (company_id, id),
      constraint sale_invoices_partner_fkey foreign key (company_id, partner_code) references partners (company_id, code) on update restrict,
      constraint sale_invoices_series_fkey foreign key (company_id, series_id) references number_series (company_id, id),
      constraint sale_invoices_credited_fkey foreign key (company_id, credited_invoice_id) references sale_invoices (company_id, id),
      constraint sale_invoices_journal_fkey foreign key (company_id, journal_transaction_id) references journal_transactions (company_id, id),
      constraint sale_invoices_sequence_key unique (series_id, sequence),
      -- A draft has no number, no snapshot, no posting; anything else has all of them.
      constraint sale_invoices_issued_complete check ((status = 'draft') = (number is null)
        and (number is null) = (series_id is null) and (number is null) = (sequence is null)
        and (number is null) = (partner_snapshot is null) and (number is null) = (journal_transaction_id is null)
        and (number is null) = (rate is null) and (number is null) = (gross_total_base is null)),
      constraint sale_invoices_credit_note_target check ((type = 'credit_note') = (credited_invoice_id is not null)),
      constraint sale_invoices_credit_within_gross check (credited_amount <= gross_total),
      constraint sale_invoices_paid_within_gross check (paid_amount <= gross_total)
    );
    create index sale_invoices_issue_date_idx on sale_invoices (company_id, issue_date desc, created_at desc, id);
    create index sale_invoices_partner_idx on sale_invoices (company_id, partner_code);
    create index sale_invoices_number_idx on sale_invoices (company_id, number);
    create index sale_invoices_status_idx on sale_invoices (company_id, status, due_date);
    create index sale_invoices_credited_idx on sale_invoices (company_id, credited_invoice_id) where credited_invoice_id is not null;

    create table sale_invoice_lines (
      company_id uuid not null,
      invoice_id uuid not null,
      line_no smallint not null check (line_no between 1 and 500),
      item_code text,
      description text not null check (length(description) between 1 and 1000),
      quantity numeric(21, 6) not null check (quantity > 0),
      unit text not null check (length(unit) between 1 and 16),
      unit_price numeric(21, 6) not null check (unit_price >= 0),
      discount_percent numeric(5, 2) not null default 0 check (discount_percent between 0 and 100),
      vat_rate_percent numeric(5, 2) not null check (vat_rate_percent between 0 and 100),
      vat_classifier text not null check (vat_classifier ~ '^PVM[0-9]{1,3}$'),
      revenue_account_code text,
      net_amount numeric(17, 2) not null check (net_amount >= 0),
      primary key (company_id, invoice_id, line_no),
      constraint sale_invoice_lines_invoice_fkey foreign key (company_id, invoice_id) references sale_invoices (company_id, id) on delete cascade,
      constraint sale_invoice_lines_item_fkey foreign key (company_id, item_code) references catalog_items (company_id, code) on update restrict,
      constraint sale_invoice_lines_account_fkey foreign key (company_id, revenue_account_code) references ledger_accounts (company_id, code)
    );

    create table purchase_invoices (
      company_id uuid not null references companies (id),
      id uuid not null default gen_random_uuid(),
      type text not null check (type in ('invoice', 'credit_note')),
      status text not null default 'draft' check (status in ('draft', 'registered', 'partially_paid', 'paid', 'credited')),
      partner_code text not null,
      partner_snapshot jsonb check (jsonb_typeof(partner_snapshot) = 'object'),
      document_number text not null check (length(document_number) between 1 and 64),
      document_date date not null,
      due_date date not null check (due_date >= document_date),
      currency text not null check (currency ~ '^[A-Z]{3}$'),
      vat_treatment text not null check (vat_treatment in ('standard', 'reverse_charge', 'import', 'exempt')),
      rate numeric(18, 8) check (rate > 0),
      rate_source text check (rate_source in ('base', 'override', 'ecb')),
      rate_date date,
      notes text check (length(notes) <= 2000),
      credited_invoice_id uuid,
      net_total numeric(17, 2) not null default 0 check (net_total >= 0),
      vat_total numeric(17, 2) not null default 0 check (vat_total >= 0),
      gross_total numeric(17, 2) not null default 0 check (gross_total >= 0),
      gross_total_base numeric(17, 2) check (gross_total_base >= 0),
      vat_breakdown jsonb not null default '[]' check (jsonb_typeof(vat_breakdown) = 'array'),
      paid_amount numeric(17, 2) not null default 0 check (paid_amount >= 0),
      credited_amount numeric(17, 2) not null default 0 check (credited_amount >= 0),
      outstanding numeric(17, 2) not null default 0 check (outstanding >= 0),
      journal_transaction_id uuid,
      registered_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (company_id, id),
      -- The supplier's number identifies the document: one per supplier (and type).
      constraint purchase_invoices_document_number_key unique (company_id, partner_code, type, document_number),
      constraint purchase_invoices_partner_fkey foreign key (company_id, partner_code) references partners (company_id, code) on update restrict,
      constraint purchase_invoices_credited_fkey foreign key (company_id, credited_invoice_id) references purchase_invoices (company_id, id),
      constraint purchase_invoices_journal_fkey foreign key (company_id, journal_transaction_id) references journal_transactions (company_id, id),
      constraint purchase_invoices_registered_complete check ((status = 'draft') = (journal_transaction_id is null)
        and (journal_transaction_id is null) = (partner_snapshot is null) and (journal_transaction_id is null) = (rate is null)
        and (journal_transaction_id is null) = (gross_total_base is null)),
      constraint purchase_invoices_credit_note_target check ((type = 'credit_note') = (credited_invoice_id is not null)),
      constraint purchase_invoices_credit_within_gross check (credited_amount <= gross_total),
      constraint purchase_invoices_paid_within_gross check (paid_amount <= gross_total)
    );
    create index purchase_invoices_date_idx on purchase_invoices (company_id, document_date desc, created_at desc, id);
    create index purchase_invoices_status_idx on purchase_invoices (company_id, status, due_date);

    create table purchase_invoice_lines (
      company_id uuid not null,
      invoice_id uuid not null,
      line_no smallint not null check (line_no between 1 and 500),
      item_code text,
      description text not null check (length(description) between 1 and 1000),
      quantity numeric(21, 6) not null check (quantity > 0),
      unit text not null check (length(unit) between 1 and 16),
      unit_price numeric(21, 6) not null check (unit_price >= 0),
      discount_percent numeric(5, 2) not null default 0 check (discount_percent between 0 and 100),
      vat_rate_percent numeric(5, 2) not null check (vat_rate_percent between 0 and 100),
      vat_classifier text not null check (vat_classifier ~ '^PVM[0-9]{1,3}$'),
      expense_account_code text,
      vat_deductible boolean not null default true,
      net_amount numeric(17, 2) not null check (net_amount >= 0),
      primary key (company_id, invoice_id, line_no),
      constraint purchase_invoice_lines_invoice_fkey foreign key (company_id, invoice_id) references purchase_invoices (company_id, id) on delete cascade,
      constraint purchase_invoice_lines_item_fkey foreign key (company_id, item_code) references catalog_items (company_id, code) on update restrict,
      constraint purchase_invoice_lines_account_fkey foreign key (company_id, expense_account_code) references ledger_accounts (company_id, code)
    );

    -- (src/db/functions/invoice_frozen.sql; the lines: invoice_lines_frozen.ts)
    create trigger sale_invoices_frozen before update or delete on sale_invoices for each row execute function invoice_frozen();
    create trigger purchase_invoices_frozen before update or delete on purchase_invoices for each row execute function invoice_frozen();

    create trigger sale_invoice_lines_frozen before insert or update or delete on sale_invoice_lines
      for each row execute function sale_invoice_lines_frozen();
    create trigger purchase_invoice_lines_frozen before insert or update or delete on purchase_invoice_lines
      for each row execute function purchase_invoice_lines_frozen();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table purchase_invoice_lines, purchase_invoices, sale_invoice_lines, sale_invoices;
    drop function sale_invoice_lines_frozen(), purchase_invoice_lines_frozen(), invoice_frozen();
    alter table number_series drop constraint number_series_document_type_check;
    delete from number_series where document_type = 'purchase_credit_note';
    update number_series set document_type = 'credit_note' where document_type = 'sale_credit_note';
    alter table number_series add constraint number_series_document_type_check
      check (document_type in ('sale_invoice', 'purchase_invoice', 'credit_note', 'journal'));
  `);
}
