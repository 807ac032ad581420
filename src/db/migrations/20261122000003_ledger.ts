import type { Knex } from "knex";
import { define } from "../definitions.js";

// The general ledger and the audit log. Invariants live here as well as in code, so that no code path can
// break them: journal rows are immutable and can only be written together with their header, a transaction
// balances at commit, nothing is posted into a locked month, account hierarchy rules hold, audit records are
// append-only.
export async function up(knex: Knex): Promise<void> {
  // The current text of the functions its triggers execute (src/db/functions; issue 23).
  await define(knex, "refuse_change", "journal_transaction_balanced", "ledger_account_checks");
  await knex.raw(`
    -- ------------------------------------------------------------------------------------------------------
    -- Audit log: every successful mutation, written in the mutation's own transaction. Its ids are copied from the
    -- authenticated request, so they carry no foreign keys: those would make every audited write take a share
    -- lock on the same account, company and key rows.
    create table audit_log (
      account_id uuid not null,
      id bigint generated always as identity,
      company_id uuid,
      key_id uuid,
      operation text not null,
      target_ids text[] not null default '{}',
      summary jsonb not null default '{}',
      request_id text,
      occurred_at timestamptz not null default now(),
      primary key (account_id, id)
    );
    create index audit_log_company_idx on audit_log (company_id, occurred_at);

    create trigger audit_log_append_only before update or delete on audit_log
      for each row execute function refuse_change();
    create trigger audit_log_no_truncate before truncate on audit_log
      for each statement execute function refuse_change();

    -- ------------------------------------------------------------------------------------------------------
    -- Chart of accounts.
    create table ledger_accounts (
      company_id uuid not null references companies (id),
      code text not null check (code ~ '^[A-Za-z0-9.]{1,20}$'),
      id uuid not null default gen_random_uuid(),
      name text not null,
      name_en text,
      type text not null check (type in ('asset', 'liability', 'equity', 'income', 'expense')),
      parent_code text,
      is_postable boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (company_id, code),
      constraint ledger_accounts_id_key unique (company_id, id),
      constraint ledger_accounts_parent_fkey foreign key (company_id, parent_code) references ledger_accounts (company_id, code)
    );
    create index ledger_accounts_parent_idx on ledger_accounts (company_id, parent_code);

    -- ------------------------------------------------------------------------------------------------------
    -- Journal.
    -- No foreign key to companies or api_keys (a share lock on one hot row per posting): the entries' keys to the
    -- company's own accounts already tie a transaction to its company, and a transaction without entries cannot
    -- commit (journal_transaction_balanced).
    create table journal_transactions (
      company_id uuid not null,
      id uuid not null default gen_random_uuid(),
      number text,
      date date not null,
      description text,
      reference text,
      document_type text not null check (document_type in
        ('manual', 'reversal', 'migration', 'migration_opening', 'sale_invoice', 'purchase_invoice', 'payment', 'depreciation', 'inventory', 'fx_revaluation')),
      source_type text,
      source_id text,
      reverses_id uuid,
      total numeric(18, 2) not null check (total > 0),
      account_codes text[] not null,
      partner_codes text[] not null default '{}',
      created_by_key_id uuid,
      created_at timestamptz not null default now(),
      primary key (company_id, id),
      constraint journal_transactions_number_key unique (company_id, number),
      constraint journal_transactions_reverses_fkey foreign key (company_id, reverses_id) references journal_transactions (company_id, id)
    );
    create unique index journal_transactions_reversed_once on journal_transactions (company_id, reverses_id) where reverses_id is not null;
    create index journal_transactions_date_idx on journal_transactions (company_id, date, id);
    create index journal_transactions_accounts_idx on journal_transactions using gin (account_codes);
    create index journal_transactions_partners_idx on journal_transactions using gin (partner_codes);

    create table journal_entries (
      company_id uuid not null,
      transaction_id uuid not null,
      line_no smallint not null check (line_no between 1 and 1000),
      date date not null,
      account_code text not null,
      debit numeric(18, 2) not null default 0 check (debit >= 0),
      credit numeric(18, 2) not null default 0 check (credit >= 0),
      partner_code text,
      currency text check (currency ~ '^[A-Z]{3}$'),
      currency_amount numeric(18, 2) check (currency_amount > 0),
      rate numeric(18, 8) check (rate > 0),
      description text,
      primary key (company_id, transaction_id, line_no),
      constraint journal_entries_one_side check ((debit > 0) <> (credit > 0)),
      constraint journal_entries_currency_complete check ((currency is null) = (currency_amount is null) and (currency is null) = (rate is null)),
      constraint journal_entries_transaction_fkey foreign key (company_id, transaction_id) references journal_transactions (company_id, id),
      constraint journal_entries_account_fkey foreign key (company_id, account_code) references ledger_accounts (company_id, code),
      constraint journal_entries_partner_fkey foreign key (company_id, partner_code) references partners (company_id, code)
    );
    -- Reports read balances by account and date without touching the heap.
    create index journal_entries_account_date_idx on journal_entries (company_id, account_code, date) include (debit, credit);
    create index journal_entries_date_idx on journal_entries (company_id, date) include (account_code, debit, credit);

    create trigger journal_transactions_immutable before update or delete on journal_transactions
      for each row execute function refuse_change();
    create trigger journal_entries_immutable before update or delete on journal_entries
      for each row execute function refuse_change();
    create trigger journal_transactions_no_truncate before truncate on journal_transactions
      for each statement execute function refuse_change();
    create trigger journal_entries_no_truncate before truncate on journal_entries
      for each statement execute function refuse_change();

    -- Period locks: a month is open unless a row names it.
    create table ledger_period_locks (
      company_id uuid not null references companies (id),
      month date not null check (month = date_trunc('month', month)),
      locked_at timestamptz not null default now(),
      locked_by_key_id uuid references api_keys (id),
      primary key (company_id, month)
    );

    -- The header and line checks (a month not locked, lines written with their header on postable accounts) are
    -- src/db/functions/journal_transactions_checks.sql and journal_entries_checks.sql, fired per statement since
    -- migrations 20261125000200 and 20261125000100.

    create constraint trigger journal_transaction_balanced after insert on journal_transactions
      deferrable initially deferred for each row execute function journal_transaction_balanced();

    create trigger ledger_account_checks before insert or update on ledger_accounts
      for each row execute function ledger_account_checks();

    -- Posting rules: named uses of accounts; a rule without a row uses its default code (src/ledger/posting-rules.ts).
    create table posting_rules (
      company_id uuid not null references companies (id),
      rule text not null,
      account_code text not null,
      updated_at timestamptz not null default now(),
      primary key (company_id, rule),
      constraint posting_rules_account_fkey foreign key (company_id, account_code) references ledger_accounts (company_id, code)
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table posting_rules;
    drop table ledger_period_locks;
    drop table journal_entries;
    drop table journal_transactions;
    drop table ledger_accounts;
    drop table audit_log;
    drop function journal_transaction_balanced();
    drop function ledger_account_checks();
    drop function refuse_change();
  `);
}
