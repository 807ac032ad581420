import type { Knex } from "knex";

// Bank (issue 12): bank accounts, imported statements and their transactions, matches of a transaction to the
// documents it settles (each match one `payment` journal transaction; unmatching posts its reversal and keeps the
// match as history), and the counterparty IBANs learnt per partner. Only new tables and indexes on existing ones:
// the migration runs on a database with data.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table bank_accounts (
      company_id uuid not null references companies (id),
      id uuid not null default gen_random_uuid(),
      name text not null check (length(name) between 1 and 255),
      iban text not null check (iban ~ '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$'),
      bic text check (bic ~ '^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3}){0,1}$'),
      currency text not null check (currency ~ '^[A-Z]{3}$'),
      ledger_account_code text not null,
      active boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (company_id, id),
      constraint bank_accounts_iban_key unique (company_id, iban),
      constraint bank_accounts_ledger_account_fkey foreign key (company_id, ledger_account_code) references ledger_accounts (company_id, code) on update cascade
    );

    create table bank_statements (
      company_id uuid not null references companies (id),
      id uuid not null default gen_random_uuid(),
      bank_account_id uuid not null,
      format text not null check (format in ('camt.053.001.02', 'camt.053.001.08')),
      statement_ref text check (length(statement_ref) <= 35),
      from_date date,
      to_date date,
      opening_balance numeric(17, 2) not null,
      closing_balance numeric(17, 2) not null,
      currency text not null check (currency ~ '^[A-Z]{3}$'),
      imported int not null check (imported >= 0),
      duplicates int not null check (duplicates >= 0),
      created_by_key_id uuid,
      created_at timestamptz not null default now(),
      primary key (company_id, id),
      constraint bank_statements_account_fkey foreign key (company_id, bank_account_id) references bank_accounts (company_id, id)
    );

    create table bank_transactions (
      company_id uuid not null references companies (id),
      id uuid not null default gen_random_uuid(),
      bank_account_id uuid not null,
      statement_id uuid,
      booking_date date not null,
      value_date date,
      amount numeric(17, 2) not null check (amount <> 0),
      currency text not null check (currency ~ '^[A-Z]{3}$'),
      counterparty_name text check (length(counterparty_name) <= 140),
      counterparty_iban text check (length(counterparty_iban) <= 34),
      remittance_information text check (length(remittance_information) <= 1000),
      creditor_reference text check (length(creditor_reference) <= 35),
      end_to_end_id text check (length(end_to_end_id) <= 35),
      bank_reference text check (length(bank_reference) <= 140),
      is_reversal boolean not null default false,
      -- The bank's reference, or a fingerprint of what the entry says when the bank gives none: a re-import finds it.
      dedupe_key text not null check (length(dedupe_key) <= 200),
      status text not null default 'unmatched' check (status in ('unmatched', 'matched', 'ignored')),
      ignored_reason text check (length(ignored_reason) <= 1000),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (company_id, id),
      constraint bank_transactions_account_fkey foreign key (company_id, bank_account_id) references bank_accounts (company_id, id),
      constraint bank_transactions_statement_fkey foreign key (company_id, statement_id) references bank_statements (company_id, id),
      constraint bank_transactions_dedupe_key unique (company_id, bank_account_id, dedupe_key),
      constraint bank_transactions_ignored_reason check (status = 'ignored' or ignored_reason is null)
    );
    create index bank_transactions_date_idx on bank_transactions (company_id, booking_date desc, created_at desc, id);
    create index bank_transactions_status_idx on bank_transactions (company_id, status, booking_date);

    -- One match of a transaction: its posting, and once unmatched the reversal. At most one live match per transaction.
    create table bank_matches (
      company_id uuid not null,
      id uuid not null default gen_random_uuid(),
      transaction_id uuid not null,
      journal_transaction_id uuid not null,
      reversal_journal_transaction_id uuid,
      created_at timestamptz not null default now(),
      unmatched_at timestamptz,
      primary key (company_id, id),
      constraint bank_matches_transaction_fkey foreign key (company_id, transaction_id) references bank_transactions (company_id, id),
      constraint bank_matches_journal_fkey foreign key (company_id, journal_transaction_id) references journal_transactions (company_id, id),
      constraint bank_matches_reversal_fkey foreign key (company_id, reversal_journal_transaction_id) references journal_transactions (company_id, id),
      constraint bank_matches_unmatched check ((unmatched_at is null) = (reversal_journal_transaction_id is null))
    );
    create unique index bank_matches_one_live on bank_matches (company_id, transaction_id) where unmatched_at is null;

    -- What one match settles: a sales document, a purchase document, or an account. amount is in the transaction's
    -- currency, signed as money flows (+ in, - out); base_amount the EUR posted against the document or account.
    create table bank_allocations (
      company_id uuid not null,
      match_id uuid not null,
      line_no smallint not null check (line_no between 1 and 100),
      sale_invoice_id uuid,
      purchase_invoice_id uuid,
      account_code text,
      amount numeric(17, 2) not null check (amount <> 0),
      base_amount numeric(17, 2) not null,
      -- This allocation completed its invoice and announced it (sale_invoice.paid / purchase_invoice.paid): an invoice
      -- is announced paid once, even when a payment is unmatched and matched again.
      announced_paid boolean not null default false,
      primary key (company_id, match_id, line_no),
      constraint bank_allocations_match_fkey foreign key (company_id, match_id) references bank_matches (company_id, id),
      constraint bank_allocations_sale_fkey foreign key (company_id, sale_invoice_id) references sale_invoices (company_id, id),
      constraint bank_allocations_purchase_fkey foreign key (company_id, purchase_invoice_id) references purchase_invoices (company_id, id),
      constraint bank_allocations_one_target check (num_nonnulls(sale_invoice_id, purchase_invoice_id, account_code) = 1)
    );
    create index bank_allocations_sale_idx on bank_allocations (company_id, sale_invoice_id) where sale_invoice_id is not null;
    create index bank_allocations_purchase_idx on bank_allocations (company_id, purchase_invoice_id) where purchase_invoice_id is not null;

    -- Counterparty IBANs seen on matched payments, per partner: they raise later suggestions' scores.
    create table partner_bank_ibans (
      company_id uuid not null,
      partner_code text not null,
      iban text not null check (length(iban) <= 34),
      matches int not null default 1 check (matches > 0),
      last_matched_at timestamptz not null default now(),
      primary key (company_id, partner_code, iban),
      constraint partner_bank_ibans_partner_fkey foreign key (company_id, partner_code) references partners (company_id, code) on update cascade on delete cascade
    );
    create index partner_bank_ibans_iban_idx on partner_bank_ibans (company_id, iban);

    -- Suggestions look open documents up by normalised number, by outstanding amount and by partner IBAN.
    create index sale_invoices_open_number_idx on sale_invoices (company_id, upper(regexp_replace(number, '[^A-Za-z0-9]', '', 'g')))
      where outstanding > 0;
    create index sale_invoices_open_amount_idx on sale_invoices (company_id, outstanding) where outstanding > 0;
    create index sale_invoices_open_partner_idx on sale_invoices (company_id, partner_code, due_date) where outstanding > 0;
    create index purchase_invoices_open_number_idx on purchase_invoices (company_id, upper(regexp_replace(document_number, '[^A-Za-z0-9]', '', 'g')))
      where outstanding > 0;
    create index purchase_invoices_open_amount_idx on purchase_invoices (company_id, outstanding) where outstanding > 0;
    create index purchase_invoices_open_partner_idx on purchase_invoices (company_id, partner_code, due_date) where outstanding > 0;
    create index partners_iban_idx on partners (company_id, iban) where iban is not null;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop index partners_iban_idx, sale_invoices_open_number_idx, sale_invoices_open_amount_idx, sale_invoices_open_partner_idx,
      purchase_invoices_open_number_idx, purchase_invoices_open_amount_idx, purchase_invoices_open_partner_idx;
    drop table partner_bank_ibans, bank_allocations, bank_matches, bank_transactions, bank_statements, bank_accounts;
  `);
}
