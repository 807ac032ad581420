-- The schema the migrations and definitions make (src/db/schema-dump.ts); `npm run gen:db` writes it, CI checks it.

create table accounts (
  id uuid default gen_random_uuid() not null,
  name text not null,
  trial_ends_at date,
  prepaid_credit numeric(18,2) default 0 not null,
  created_at timestamp with time zone default now() not null,
  owner_email text
);
alter table accounts add constraint accounts_name_check CHECK (((length(name) >= 1) AND (length(name) <= 255)));
alter table accounts add constraint accounts_owner_email_check CHECK (((owner_email IS NULL) OR ((length(owner_email) >= 3) AND (length(owner_email) <= 254))));
alter table accounts add constraint accounts_pkey PRIMARY KEY (id);
alter table accounts add constraint accounts_prepaid_credit_check CHECK ((prepaid_credit >= (0)::numeric));

create table api_keys (
  id uuid default gen_random_uuid() not null,
  account_id uuid not null,
  name text not null,
  prefix text not null,
  secret_hash bytea not null,
  scopes text[] not null,
  company_ids uuid[],
  rate_limit_per_minute integer,
  created_at timestamp with time zone default now() not null,
  revoked_at timestamp with time zone
);
alter table api_keys add constraint api_keys_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id);
alter table api_keys add constraint api_keys_company_ids_check CHECK (((company_ids IS NULL) OR (cardinality(company_ids) > 0)));
alter table api_keys add constraint api_keys_pkey PRIMARY KEY (id);
alter table api_keys add constraint api_keys_rate_limit_per_minute_check CHECK ((rate_limit_per_minute > 0));
alter table api_keys add constraint api_keys_scopes_check CHECK ((cardinality(scopes) > 0));
alter table api_keys add constraint api_keys_secret_hash_check CHECK ((length(secret_hash) = 32));
CREATE INDEX api_keys_account_idx ON api_keys USING btree (account_id, created_at DESC);

create table asset_depreciation_lines (
  company_id uuid not null,
  asset_id uuid not null,
  month date not null,
  group_code text not null,
  expense_account_code text not null,
  depreciation_account_code text not null,
  amount numeric(17,2) not null,
  accumulated_after numeric(17,2) not null,
  depreciated_months_after integer not null,
  run_no integer default 1 not null
);
alter table asset_depreciation_lines add constraint asset_depreciation_lines_amount_check CHECK ((amount >= (0)::numeric));
alter table asset_depreciation_lines add constraint asset_depreciation_lines_asset_fkey FOREIGN KEY (company_id, asset_id) REFERENCES fixed_assets(company_id, id);
alter table asset_depreciation_lines add constraint asset_depreciation_lines_check CHECK ((accumulated_after >= amount));
alter table asset_depreciation_lines add constraint asset_depreciation_lines_depreciated_months_after_check CHECK ((depreciated_months_after >= 1));
alter table asset_depreciation_lines add constraint asset_depreciation_lines_pkey PRIMARY KEY (company_id, month, run_no, asset_id);
alter table asset_depreciation_lines add constraint asset_depreciation_lines_run_fkey FOREIGN KEY (company_id, month, run_no) REFERENCES asset_depreciation_runs(company_id, month, run_no);
CREATE TRIGGER asset_depreciation_lines_immutable BEFORE DELETE OR UPDATE ON asset_depreciation_lines FOR EACH ROW EXECUTE FUNCTION refuse_change();

create table asset_depreciation_run_transactions (
  company_id uuid not null,
  month date not null,
  run_no integer not null,
  part integer not null,
  journal_transaction_id uuid not null,
  reversal_transaction_id uuid
);
alter table asset_depreciation_run_transactions add constraint asset_depreciation_run_transactions_journal_fkey FOREIGN KEY (company_id, journal_transaction_id) REFERENCES journal_transactions(company_id, id);
alter table asset_depreciation_run_transactions add constraint asset_depreciation_run_transactions_journal_key UNIQUE (company_id, journal_transaction_id);
alter table asset_depreciation_run_transactions add constraint asset_depreciation_run_transactions_part_check CHECK ((part >= 1));
alter table asset_depreciation_run_transactions add constraint asset_depreciation_run_transactions_pkey PRIMARY KEY (company_id, month, run_no, part);
alter table asset_depreciation_run_transactions add constraint asset_depreciation_run_transactions_reversal_fkey FOREIGN KEY (company_id, reversal_transaction_id) REFERENCES journal_transactions(company_id, id);
alter table asset_depreciation_run_transactions add constraint asset_depreciation_run_transactions_run_fkey FOREIGN KEY (company_id, month, run_no) REFERENCES asset_depreciation_runs(company_id, month, run_no);
CREATE TRIGGER asset_depreciation_run_transactions_checks BEFORE INSERT OR DELETE OR UPDATE ON asset_depreciation_run_transactions FOR EACH ROW EXECUTE FUNCTION asset_depreciation_run_transaction_checks();

create table asset_depreciation_runs (
  company_id uuid not null,
  month date not null,
  asset_count integer not null,
  total numeric(38,2) not null,
  created_by_key_id uuid,
  posted_at timestamp with time zone default now() not null,
  run_no integer default 1 not null,
  reversed_at timestamp with time zone,
  reversed_by_key_id uuid
);
alter table asset_depreciation_runs add constraint asset_depreciation_runs_asset_count_check CHECK ((asset_count >= 0));
alter table asset_depreciation_runs add constraint asset_depreciation_runs_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table asset_depreciation_runs add constraint asset_depreciation_runs_month_check CHECK ((month = date_trunc('month'::text, (month)::timestamp with time zone)));
alter table asset_depreciation_runs add constraint asset_depreciation_runs_pkey PRIMARY KEY (company_id, month, run_no);
alter table asset_depreciation_runs add constraint asset_depreciation_runs_run_no_check CHECK ((run_no >= 1));
alter table asset_depreciation_runs add constraint asset_depreciation_runs_total_check CHECK ((total >= (0)::numeric));
CREATE UNIQUE INDEX asset_depreciation_runs_live_key ON asset_depreciation_runs USING btree (company_id, month) WHERE (reversed_at IS NULL);
CREATE TRIGGER asset_depreciation_runs_immutable BEFORE DELETE OR UPDATE ON asset_depreciation_runs FOR EACH ROW EXECUTE FUNCTION asset_depreciation_run_checks();

create table asset_groups (
  company_id uuid not null,
  id uuid default gen_random_uuid() not null,
  code text not null,
  name text not null,
  asset_account_code text not null,
  depreciation_account_code text not null,
  expense_account_code text not null,
  default_useful_life_months integer not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null
);
alter table asset_groups add constraint asset_groups_accounts_differ CHECK ((asset_account_code <> depreciation_account_code));
alter table asset_groups add constraint asset_groups_asset_account_fkey FOREIGN KEY (company_id, asset_account_code) REFERENCES ledger_accounts(company_id, code);
alter table asset_groups add constraint asset_groups_code_check CHECK (((length(code) >= 1) AND (length(code) <= 64)));
alter table asset_groups add constraint asset_groups_code_key UNIQUE (company_id, code);
alter table asset_groups add constraint asset_groups_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table asset_groups add constraint asset_groups_default_useful_life_months_check CHECK (((default_useful_life_months >= 1) AND (default_useful_life_months <= 1200)));
alter table asset_groups add constraint asset_groups_depreciation_account_fkey FOREIGN KEY (company_id, depreciation_account_code) REFERENCES ledger_accounts(company_id, code);
alter table asset_groups add constraint asset_groups_expense_account_fkey FOREIGN KEY (company_id, expense_account_code) REFERENCES ledger_accounts(company_id, code);
alter table asset_groups add constraint asset_groups_name_check CHECK (((length(name) >= 1) AND (length(name) <= 255)));
alter table asset_groups add constraint asset_groups_pkey PRIMARY KEY (company_id, id);

create table audit_log (
  account_id uuid not null,
  id bigint generated always as identity not null,
  company_id uuid,
  key_id uuid,
  operation text not null,
  target_ids text[] default '{}'::text[] not null,
  summary jsonb default '{}'::jsonb not null,
  request_id text,
  occurred_at timestamp with time zone default now() not null
);
alter table audit_log add constraint audit_log_pkey PRIMARY KEY (account_id, id);
CREATE INDEX audit_log_company_idx ON audit_log USING btree (company_id, occurred_at);
CREATE TRIGGER audit_log_append_only BEFORE DELETE OR UPDATE ON audit_log FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();

create table bank_accounts (
  company_id uuid not null,
  id uuid default gen_random_uuid() not null,
  name text not null,
  iban text not null,
  bic text,
  currency text not null,
  ledger_account_code text not null,
  active boolean default true not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null
);
alter table bank_accounts add constraint bank_accounts_bic_check CHECK ((bic ~ '^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3}){0,1}$'::text));
alter table bank_accounts add constraint bank_accounts_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table bank_accounts add constraint bank_accounts_currency_check CHECK ((currency ~ '^[A-Z]{3}$'::text));
alter table bank_accounts add constraint bank_accounts_iban_check CHECK ((iban ~ '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$'::text));
alter table bank_accounts add constraint bank_accounts_iban_currency_key UNIQUE (company_id, iban, currency);
alter table bank_accounts add constraint bank_accounts_ledger_account_fkey FOREIGN KEY (company_id, ledger_account_code) REFERENCES ledger_accounts(company_id, code) ON UPDATE CASCADE;
alter table bank_accounts add constraint bank_accounts_name_check CHECK (((length(name) >= 1) AND (length(name) <= 255)));
alter table bank_accounts add constraint bank_accounts_pkey PRIMARY KEY (company_id, id);

create table bank_allocations (
  company_id uuid not null,
  match_id uuid not null,
  line_no smallint not null,
  sale_invoice_id uuid,
  purchase_invoice_id uuid,
  account_code text,
  amount numeric(17,2) not null,
  base_amount numeric(17,2) not null,
  announced_paid boolean default false not null
);
alter table bank_allocations add constraint bank_allocations_amount_check CHECK ((amount <> (0)::numeric));
alter table bank_allocations add constraint bank_allocations_line_no_check CHECK (((line_no >= 1) AND (line_no <= 100)));
alter table bank_allocations add constraint bank_allocations_match_fkey FOREIGN KEY (company_id, match_id) REFERENCES bank_matches(company_id, id);
alter table bank_allocations add constraint bank_allocations_one_target CHECK ((num_nonnulls(sale_invoice_id, purchase_invoice_id, account_code) = 1));
alter table bank_allocations add constraint bank_allocations_pkey PRIMARY KEY (company_id, match_id, line_no);
alter table bank_allocations add constraint bank_allocations_purchase_fkey FOREIGN KEY (company_id, purchase_invoice_id) REFERENCES purchase_invoices(company_id, id);
alter table bank_allocations add constraint bank_allocations_sale_fkey FOREIGN KEY (company_id, sale_invoice_id) REFERENCES sale_invoices(company_id, id);
CREATE INDEX bank_allocations_purchase_idx ON bank_allocations USING btree (company_id, purchase_invoice_id) WHERE (purchase_invoice_id IS NOT NULL);
CREATE INDEX bank_allocations_sale_idx ON bank_allocations USING btree (company_id, sale_invoice_id) WHERE (sale_invoice_id IS NOT NULL);

create table bank_matches (
  company_id uuid not null,
  id uuid default gen_random_uuid() not null,
  transaction_id uuid not null,
  journal_transaction_id uuid not null,
  reversal_journal_transaction_id uuid,
  created_at timestamp with time zone default now() not null,
  unmatched_at timestamp with time zone
);
alter table bank_matches add constraint bank_matches_journal_fkey FOREIGN KEY (company_id, journal_transaction_id) REFERENCES journal_transactions(company_id, id);
alter table bank_matches add constraint bank_matches_pkey PRIMARY KEY (company_id, id);
alter table bank_matches add constraint bank_matches_reversal_fkey FOREIGN KEY (company_id, reversal_journal_transaction_id) REFERENCES journal_transactions(company_id, id);
alter table bank_matches add constraint bank_matches_transaction_fkey FOREIGN KEY (company_id, transaction_id) REFERENCES bank_transactions(company_id, id);
alter table bank_matches add constraint bank_matches_unmatched CHECK (((unmatched_at IS NULL) = (reversal_journal_transaction_id IS NULL)));
CREATE UNIQUE INDEX bank_matches_one_live ON bank_matches USING btree (company_id, transaction_id) WHERE (unmatched_at IS NULL);

create table bank_statements (
  company_id uuid not null,
  id uuid default gen_random_uuid() not null,
  bank_account_id uuid not null,
  format text not null,
  statement_ref text,
  from_date date,
  to_date date,
  opening_balance numeric(17,2) not null,
  closing_balance numeric(17,2) not null,
  currency text not null,
  imported integer not null,
  duplicates integer not null,
  created_by_key_id uuid,
  created_at timestamp with time zone default now() not null
);
alter table bank_statements add constraint bank_statements_account_fkey FOREIGN KEY (company_id, bank_account_id) REFERENCES bank_accounts(company_id, id);
alter table bank_statements add constraint bank_statements_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table bank_statements add constraint bank_statements_currency_check CHECK ((currency ~ '^[A-Z]{3}$'::text));
alter table bank_statements add constraint bank_statements_duplicates_check CHECK ((duplicates >= 0));
alter table bank_statements add constraint bank_statements_format_check CHECK ((format = ANY (ARRAY['camt.053.001.02'::text, 'camt.053.001.08'::text])));
alter table bank_statements add constraint bank_statements_imported_check CHECK ((imported >= 0));
alter table bank_statements add constraint bank_statements_pkey PRIMARY KEY (company_id, id);
alter table bank_statements add constraint bank_statements_statement_ref_check CHECK ((length(statement_ref) <= 35));

create table bank_transactions (
  company_id uuid not null,
  id uuid default gen_random_uuid() not null,
  bank_account_id uuid not null,
  statement_id uuid,
  booking_date date not null,
  value_date date,
  amount numeric(17,2) not null,
  currency text not null,
  counterparty_name text,
  counterparty_iban text,
  remittance_information text,
  creditor_reference text,
  end_to_end_id text,
  bank_reference text,
  is_reversal boolean default false not null,
  dedupe_key text not null,
  status text default 'unmatched'::text not null,
  ignored_reason text,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  original_amount numeric(18,4),
  original_currency text
);
alter table bank_transactions add constraint bank_transactions_account_fkey FOREIGN KEY (company_id, bank_account_id) REFERENCES bank_accounts(company_id, id);
alter table bank_transactions add constraint bank_transactions_amount_check CHECK ((amount <> (0)::numeric));
alter table bank_transactions add constraint bank_transactions_bank_reference_check CHECK ((length(bank_reference) <= 140));
alter table bank_transactions add constraint bank_transactions_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table bank_transactions add constraint bank_transactions_counterparty_iban_check CHECK ((length(counterparty_iban) <= 34));
alter table bank_transactions add constraint bank_transactions_counterparty_name_check CHECK ((length(counterparty_name) <= 140));
alter table bank_transactions add constraint bank_transactions_creditor_reference_check CHECK ((length(creditor_reference) <= 35));
alter table bank_transactions add constraint bank_transactions_currency_check CHECK ((currency ~ '^[A-Z]{3}$'::text));
alter table bank_transactions add constraint bank_transactions_dedupe_key UNIQUE (company_id, bank_account_id, dedupe_key);
alter table bank_transactions add constraint bank_transactions_dedupe_key_check CHECK ((length(dedupe_key) <= 200));
alter table bank_transactions add constraint bank_transactions_end_to_end_id_check CHECK ((length(end_to_end_id) <= 35));
alter table bank_transactions add constraint bank_transactions_ignored_reason CHECK (((status = 'ignored'::text) OR (ignored_reason IS NULL)));
alter table bank_transactions add constraint bank_transactions_ignored_reason_check CHECK ((length(ignored_reason) <= 1000));
alter table bank_transactions add constraint bank_transactions_original CHECK (((original_amount IS NULL) = (original_currency IS NULL)));
alter table bank_transactions add constraint bank_transactions_original_amount_check CHECK ((original_amount <> (0)::numeric));
alter table bank_transactions add constraint bank_transactions_original_currency_check CHECK ((original_currency ~ '^[A-Z]{3}$'::text));
alter table bank_transactions add constraint bank_transactions_pkey PRIMARY KEY (company_id, id);
alter table bank_transactions add constraint bank_transactions_remittance_information_check CHECK ((length(remittance_information) <= 10000));
alter table bank_transactions add constraint bank_transactions_statement_fkey FOREIGN KEY (company_id, statement_id) REFERENCES bank_statements(company_id, id);
alter table bank_transactions add constraint bank_transactions_status_check CHECK ((status = ANY (ARRAY['unmatched'::text, 'matched'::text, 'ignored'::text])));
CREATE INDEX bank_transactions_date_idx ON bank_transactions USING btree (company_id, booking_date DESC, created_at DESC, id);
CREATE INDEX bank_transactions_status_idx ON bank_transactions USING btree (company_id, status, booking_date);

create table catalog_items (
  company_id uuid not null,
  id uuid default gen_random_uuid() not null,
  code text not null,
  name text not null,
  type text not null,
  unit text not null,
  barcode text,
  vat_rate_percent numeric(5,2) not null,
  sale_price_excl_vat numeric(21,6),
  purchase_price_excl_vat numeric(21,6),
  tracking text default 'none'::text not null,
  active boolean default true not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  vat_classifier text,
  revenue_account_code text,
  expense_account_code text
);
alter table catalog_items add constraint catalog_items_barcode_check CHECK (((length(barcode) >= 1) AND (length(barcode) <= 64)));
alter table catalog_items add constraint catalog_items_code_check CHECK (((length(code) >= 1) AND (length(code) <= 64)));
alter table catalog_items add constraint catalog_items_company_code_key UNIQUE (company_id, code);
alter table catalog_items add constraint catalog_items_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table catalog_items add constraint catalog_items_expense_account_fkey FOREIGN KEY (company_id, expense_account_code) REFERENCES ledger_accounts(company_id, code);
alter table catalog_items add constraint catalog_items_name_check CHECK (((length(name) >= 1) AND (length(name) <= 255)));
alter table catalog_items add constraint catalog_items_pkey PRIMARY KEY (company_id, id);
alter table catalog_items add constraint catalog_items_purchase_price_check CHECK ((purchase_price_excl_vat >= (0)::numeric));
alter table catalog_items add constraint catalog_items_revenue_account_fkey FOREIGN KEY (company_id, revenue_account_code) REFERENCES ledger_accounts(company_id, code);
alter table catalog_items add constraint catalog_items_sale_price_check CHECK ((sale_price_excl_vat >= (0)::numeric));
alter table catalog_items add constraint catalog_items_tracking_check CHECK ((tracking = ANY (ARRAY['none'::text, 'lot'::text, 'serial'::text])));
alter table catalog_items add constraint catalog_items_type_check CHECK ((type = ANY (ARRAY['product'::text, 'service'::text])));
alter table catalog_items add constraint catalog_items_unit_check CHECK (((length(unit) >= 1) AND (length(unit) <= 16)));
alter table catalog_items add constraint catalog_items_vat_classifier_check CHECK ((vat_classifier ~ '^PVM[0-9]{1,3}$'::text));
alter table catalog_items add constraint catalog_items_vat_rate_percent_check CHECK (((vat_rate_percent >= (0)::numeric) AND (vat_rate_percent <= (100)::numeric)));

create table companies (
  id uuid default gen_random_uuid() not null,
  account_id uuid not null,
  name text not null,
  code text not null,
  vat_code text,
  country_code character(2) not null,
  base_currency character(3) not null,
  invoice_currency character(3) not null,
  address jsonb,
  email text,
  phone text,
  iban text,
  fiscal_year_start_month smallint default 1 not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  invoice_issuer jsonb,
  contact_person jsonb
);
alter table companies add constraint companies_account_code_key UNIQUE (account_id, code);
alter table companies add constraint companies_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id);
alter table companies add constraint companies_account_id_key UNIQUE (account_id, id);
alter table companies add constraint companies_contact_person_check CHECK (((contact_person IS NULL) OR ((jsonb_typeof(contact_person) = 'object'::text) AND (jsonb_typeof((contact_person -> 'firstName'::text)) = 'string'::text) AND (jsonb_typeof((contact_person -> 'lastName'::text)) = 'string'::text))));
alter table companies add constraint companies_fiscal_year_start_month_check CHECK (((fiscal_year_start_month >= 1) AND (fiscal_year_start_month <= 12)));
alter table companies add constraint companies_invoice_issuer_check CHECK (((invoice_issuer IS NULL) OR ((jsonb_typeof(invoice_issuer) = 'object'::text) AND (jsonb_typeof((invoice_issuer -> 'name'::text)) = 'string'::text))));
alter table companies add constraint companies_pkey PRIMARY KEY (id);

create table company_addresses (
  company_id uuid not null,
  id uuid default gen_random_uuid() not null,
  type text not null,
  street text,
  building text,
  city text not null,
  postal_code text,
  country_code text not null,
  is_default boolean default false not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null
);
alter table company_addresses add constraint company_addresses_building_check CHECK (((length(building) >= 1) AND (length(building) <= 18)));
alter table company_addresses add constraint company_addresses_city_check CHECK (((length(city) >= 1) AND (length(city) <= 35)));
alter table company_addresses add constraint company_addresses_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table company_addresses add constraint company_addresses_country_code_check CHECK ((country_code ~ '^[A-Z]{2}$'::text));
alter table company_addresses add constraint company_addresses_pkey PRIMARY KEY (company_id, id);
alter table company_addresses add constraint company_addresses_postal_code_check CHECK (((length(postal_code) >= 1) AND (length(postal_code) <= 18)));
alter table company_addresses add constraint company_addresses_street_check CHECK (((length(street) >= 1) AND (length(street) <= 200)));
alter table company_addresses add constraint company_addresses_type_check CHECK ((type = ANY (ARRAY['registered'::text, 'billing'::text, 'shipping'::text])));
CREATE UNIQUE INDEX company_addresses_one_default ON company_addresses USING btree (company_id) WHERE is_default;
CREATE INDEX company_addresses_order_idx ON company_addresses USING btree (company_id, created_at, id);

create table declaration_submission_files (
  company_id uuid not null,
  submission_id uuid not null,
  part_number integer not null,
  file_name text not null,
  content_type text not null,
  content bytea not null,
  sha256 text not null
);
alter table declaration_submission_files add constraint declaration_submission_files_content_type_check CHECK ((content_type = 'application/xml'::text));
alter table declaration_submission_files add constraint declaration_submission_files_file_name_check CHECK (((length(file_name) >= 1) AND (length(file_name) <= 255)));
alter table declaration_submission_files add constraint declaration_submission_files_part_number_check CHECK (((part_number >= 1) AND (part_number <= 10000)));
alter table declaration_submission_files add constraint declaration_submission_files_pkey PRIMARY KEY (company_id, submission_id, part_number);
alter table declaration_submission_files add constraint declaration_submission_files_sha256_check CHECK ((sha256 ~ '^[0-9a-f]{64}$'::text));
alter table declaration_submission_files add constraint declaration_submission_files_submission_fkey FOREIGN KEY (company_id, submission_id) REFERENCES declaration_submissions(company_id, id);
CREATE TRIGGER declaration_submission_files_immutable BEFORE DELETE OR UPDATE ON declaration_submission_files FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER declaration_submission_files_no_truncate BEFORE TRUNCATE ON declaration_submission_files FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();

create table declaration_submission_statuses (
  company_id uuid not null,
  submission_id uuid not null,
  seq integer not null,
  status text not null,
  previous_seq integer generated always as (NULLIF((seq - 1), 0)) stored,
  previous_status text,
  registration_number text,
  submitted_on date,
  key_id uuid,
  created_at timestamp with time zone default now() not null
);
alter table declaration_submission_statuses add constraint declaration_submission_statuses_pkey PRIMARY KEY (company_id, submission_id, seq);
alter table declaration_submission_statuses add constraint declaration_submission_statuses_previous_fkey FOREIGN KEY (company_id, submission_id, previous_seq, previous_status) REFERENCES declaration_submission_statuses(company_id, submission_id, seq, status);
alter table declaration_submission_statuses add constraint declaration_submission_statuses_registration_number_check CHECK (((length(registration_number) >= 1) AND (length(registration_number) <= 64)));
alter table declaration_submission_statuses add constraint declaration_submission_statuses_seq_check CHECK (((seq >= 1) AND (seq <= 10)));
alter table declaration_submission_statuses add constraint declaration_submission_statuses_status_check CHECK ((status = ANY (ARRAY['created'::text, 'submitted'::text, 'accepted'::text, 'rejected'::text])));
alter table declaration_submission_statuses add constraint declaration_submission_statuses_status_key UNIQUE (company_id, submission_id, seq, status);
alter table declaration_submission_statuses add constraint declaration_submission_statuses_step CHECK (
CASE
    WHEN (seq = 1) THEN ((status = 'created'::text) AND (previous_status IS NULL))
    ELSE ((((previous_status = 'created'::text) AND (status = 'submitted'::text)) OR ((previous_status = 'submitted'::text) AND (status = 'accepted'::text))) OR ((previous_status = 'submitted'::text) AND (status = 'rejected'::text)))
END);
alter table declaration_submission_statuses add constraint declaration_submission_statuses_submission_fkey FOREIGN KEY (company_id, submission_id) REFERENCES declaration_submissions(company_id, id);
alter table declaration_submission_statuses add constraint declaration_submission_statuses_submitted CHECK ((((status = 'submitted'::text) = (registration_number IS NOT NULL)) AND ((status = 'submitted'::text) = (submitted_on IS NOT NULL))));
CREATE TRIGGER declaration_submission_statuses_append_only BEFORE DELETE OR UPDATE ON declaration_submission_statuses FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER declaration_submission_statuses_no_truncate BEFORE TRUNCATE ON declaration_submission_statuses FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();

create table declaration_submissions (
  company_id uuid not null,
  id uuid default gen_random_uuid() not null,
  declaration text not null,
  period text not null,
  data_type text default ''::text not null,
  version integer not null,
  previous_version integer generated always as (NULLIF((version - 1), 0)) stored,
  snapshot jsonb not null,
  sha256 text not null,
  created_by_key_id uuid,
  created_at timestamp with time zone default now() not null
);
alter table declaration_submissions add constraint declaration_submissions_check CHECK ((((declaration = 'lt.isaf'::text) = (data_type = ANY (ARRAY['F'::text, 'S'::text, 'P'::text]))) AND (data_type = ANY (ARRAY[''::text, 'F'::text, 'S'::text, 'P'::text]))));
alter table declaration_submissions add constraint declaration_submissions_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table declaration_submissions add constraint declaration_submissions_declaration_check CHECK ((declaration = ANY (ARRAY['lt.fr0600'::text, 'lt.isaf'::text, 'lt.fr0564'::text])));
alter table declaration_submissions add constraint declaration_submissions_period_check CHECK ((period ~ '^(20[0-9]{2}|2100)-(0[1-9]|1[0-2])$'::text));
alter table declaration_submissions add constraint declaration_submissions_pkey PRIMARY KEY (company_id, id);
alter table declaration_submissions add constraint declaration_submissions_previous_fkey FOREIGN KEY (company_id, declaration, period, data_type, previous_version) REFERENCES declaration_submissions(company_id, declaration, period, data_type, version);
alter table declaration_submissions add constraint declaration_submissions_sha256_check CHECK ((sha256 ~ '^[0-9a-f]{64}$'::text));
alter table declaration_submissions add constraint declaration_submissions_snapshot_check CHECK ((jsonb_typeof(snapshot) = 'object'::text));
alter table declaration_submissions add constraint declaration_submissions_version_check CHECK (((version >= 1) AND (version <= 10000)));
alter table declaration_submissions add constraint declaration_submissions_version_key UNIQUE (company_id, declaration, period, data_type, version);
CREATE INDEX declaration_submissions_list_idx ON declaration_submissions USING btree (company_id, created_at DESC, id);
CREATE TRIGGER declaration_submissions_immutable BEFORE DELETE OR UPDATE ON declaration_submissions FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER declaration_submissions_no_truncate BEFORE TRUNCATE ON declaration_submissions FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();

create table exchange_rate_overrides (
  company_id uuid not null,
  currency_code text not null,
  rate_date date not null,
  rate numeric(18,8) not null,
  set_by_key_id uuid not null,
  set_at timestamp with time zone default now() not null
);
alter table exchange_rate_overrides add constraint exchange_rate_overrides_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table exchange_rate_overrides add constraint exchange_rate_overrides_currency_code_check CHECK (((currency_code ~ '^[A-Z]{3}$'::text) AND (currency_code <> 'EUR'::text)));
alter table exchange_rate_overrides add constraint exchange_rate_overrides_pkey PRIMARY KEY (company_id, currency_code, rate_date);
alter table exchange_rate_overrides add constraint exchange_rate_overrides_rate_check CHECK ((rate > (0)::numeric));
alter table exchange_rate_overrides add constraint exchange_rate_overrides_set_by_key_id_fkey FOREIGN KEY (set_by_key_id) REFERENCES api_keys(id);
CREATE INDEX exchange_rate_overrides_date_idx ON exchange_rate_overrides USING btree (company_id, rate_date, currency_code);

create table exchange_rates (
  currency_code text not null,
  rate_date date not null,
  rate numeric(18,8) not null,
  imported_at timestamp with time zone default now() not null
);
alter table exchange_rates add constraint exchange_rates_currency_code_check CHECK ((currency_code ~ '^[A-Z]{3}$'::text));
alter table exchange_rates add constraint exchange_rates_pkey PRIMARY KEY (currency_code, rate_date);
alter table exchange_rates add constraint exchange_rates_rate_check CHECK ((rate > (0)::numeric));
CREATE INDEX exchange_rates_date_idx ON exchange_rates USING btree (rate_date, currency_code);

create table fixed_assets (
  company_id uuid not null,
  id uuid default gen_random_uuid() not null,
  code text not null,
  name text not null,
  description text,
  group_code text not null,
  acquisition_date date not null,
  put_into_use_date date not null,
  depreciation_start_date date not null,
  acquisition_cost numeric(17,2) not null,
  salvage_value numeric(17,2) default 0 not null,
  useful_life_months integer not null,
  source_transaction_id uuid,
  opening_accumulated_depreciation numeric(17,2) default 0 not null,
  opening_depreciated_months integer default 0 not null,
  accumulated_depreciation numeric(17,2) default 0 not null,
  depreciated_months integer default 0 not null,
  last_depreciated_month date,
  status text default 'active'::text not null,
  disposal_date date,
  disposal_proceeds numeric(17,2),
  disposal_account_code text,
  disposal_gain numeric(17,2),
  disposal_transaction_id uuid,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null
) with (fillfactor=50);
alter table fixed_assets add constraint fixed_assets_acquisition_cost_check CHECK ((acquisition_cost > (0)::numeric));
alter table fixed_assets add constraint fixed_assets_check CHECK ((put_into_use_date >= acquisition_date));
alter table fixed_assets add constraint fixed_assets_check1 CHECK ((depreciation_start_date = ((date_trunc('month'::text, (put_into_use_date)::timestamp with time zone) + '1 mon'::interval))::date));
alter table fixed_assets add constraint fixed_assets_check2 CHECK (((salvage_value >= (0)::numeric) AND (salvage_value <= acquisition_cost)));
alter table fixed_assets add constraint fixed_assets_code_check CHECK (((length(code) >= 1) AND (length(code) <= 64)));
alter table fixed_assets add constraint fixed_assets_code_key UNIQUE (company_id, code);
alter table fixed_assets add constraint fixed_assets_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table fixed_assets add constraint fixed_assets_depreciation_within_value CHECK (((accumulated_depreciation >= opening_accumulated_depreciation) AND (accumulated_depreciation <= (acquisition_cost - salvage_value))));
alter table fixed_assets add constraint fixed_assets_description_check CHECK ((length(description) <= 1000));
alter table fixed_assets add constraint fixed_assets_disposal_account_fkey FOREIGN KEY (company_id, disposal_account_code) REFERENCES ledger_accounts(company_id, code);
alter table fixed_assets add constraint fixed_assets_disposal_complete CHECK ((((status = 'disposed'::text) = (disposal_transaction_id IS NOT NULL)) AND ((status = 'disposed'::text) = (disposal_date IS NOT NULL)) AND ((status = 'disposed'::text) = (disposal_proceeds IS NOT NULL)) AND ((status = 'disposed'::text) = (disposal_gain IS NOT NULL))));
alter table fixed_assets add constraint fixed_assets_disposal_fkey FOREIGN KEY (company_id, disposal_transaction_id) REFERENCES journal_transactions(company_id, id);
alter table fixed_assets add constraint fixed_assets_disposal_proceeds_check CHECK ((disposal_proceeds >= (0)::numeric));
alter table fixed_assets add constraint fixed_assets_group_fkey FOREIGN KEY (company_id, group_code) REFERENCES asset_groups(company_id, code) ON UPDATE RESTRICT;
alter table fixed_assets add constraint fixed_assets_last_depreciated_month_check CHECK ((last_depreciated_month = date_trunc('month'::text, (last_depreciated_month)::timestamp with time zone)));
alter table fixed_assets add constraint fixed_assets_life_complete CHECK (((depreciated_months < useful_life_months) OR (accumulated_depreciation = (acquisition_cost - salvage_value))));
alter table fixed_assets add constraint fixed_assets_months_within_life CHECK (((depreciated_months >= opening_depreciated_months) AND (depreciated_months <= useful_life_months)));
alter table fixed_assets add constraint fixed_assets_name_check CHECK (((length(name) >= 1) AND (length(name) <= 255)));
alter table fixed_assets add constraint fixed_assets_opening_accumulated_depreciation_check CHECK ((opening_accumulated_depreciation >= (0)::numeric));
alter table fixed_assets add constraint fixed_assets_opening_depreciated_months_check CHECK ((opening_depreciated_months >= 0));
alter table fixed_assets add constraint fixed_assets_pkey PRIMARY KEY (company_id, id);
alter table fixed_assets add constraint fixed_assets_source_fkey FOREIGN KEY (company_id, source_transaction_id) REFERENCES journal_transactions(company_id, id);
alter table fixed_assets add constraint fixed_assets_status_agrees CHECK (
CASE status
    WHEN 'active'::text THEN (accumulated_depreciation < (acquisition_cost - salvage_value))
    WHEN 'fully_depreciated'::text THEN (accumulated_depreciation = (acquisition_cost - salvage_value))
    ELSE true
END);
alter table fixed_assets add constraint fixed_assets_status_check CHECK ((status = ANY (ARRAY['active'::text, 'fully_depreciated'::text, 'disposed'::text])));
alter table fixed_assets add constraint fixed_assets_useful_life_months_check CHECK (((useful_life_months >= 1) AND (useful_life_months <= 1200)));
CREATE INDEX fixed_assets_active_idx ON fixed_assets USING btree (company_id, depreciation_start_date) WHERE (status = 'active'::text);
CREATE INDEX fixed_assets_group_idx ON fixed_assets USING btree (company_id, group_code);

create table idempotency_keys (
  account_id uuid not null,
  company_id uuid not null,
  key text not null,
  operation_id text not null,
  request_hash text not null,
  status_code integer not null,
  response_body jsonb not null,
  created_at timestamp with time zone default now() not null,
  key_id uuid not null
);
alter table idempotency_keys add constraint idempotency_keys_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id);
alter table idempotency_keys add constraint idempotency_keys_key_check CHECK (((length(key) >= 1) AND (length(key) <= 255)));
alter table idempotency_keys add constraint idempotency_keys_pkey PRIMARY KEY (account_id, company_id, key_id, key);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys USING btree (created_at);

create table journal_entries (
  company_id uuid not null,
  transaction_id uuid not null,
  line_no smallint not null,
  date date not null,
  account_code text not null,
  debit numeric(18,2) default 0 not null,
  credit numeric(18,2) default 0 not null,
  partner_code text,
  currency text,
  currency_amount numeric(18,2),
  rate numeric(18,8),
  description text
);
alter table journal_entries add constraint journal_entries_credit_check CHECK ((credit >= (0)::numeric));
alter table journal_entries add constraint journal_entries_currency_amount_check CHECK ((currency_amount > (0)::numeric));
alter table journal_entries add constraint journal_entries_currency_check CHECK ((currency ~ '^[A-Z]{3}$'::text));
alter table journal_entries add constraint journal_entries_currency_complete CHECK ((((currency IS NULL) = (currency_amount IS NULL)) AND ((currency IS NULL) = (rate IS NULL))));
alter table journal_entries add constraint journal_entries_debit_check CHECK ((debit >= (0)::numeric));
alter table journal_entries add constraint journal_entries_line_no_check CHECK (((line_no >= 1) AND (line_no <= 20001))) NOT VALID;
alter table journal_entries add constraint journal_entries_one_side CHECK (((debit > (0)::numeric) <> (credit > (0)::numeric)));
alter table journal_entries add constraint journal_entries_partner_fkey FOREIGN KEY (company_id, partner_code) REFERENCES partners(company_id, code);
alter table journal_entries add constraint journal_entries_pkey PRIMARY KEY (company_id, transaction_id, line_no);
alter table journal_entries add constraint journal_entries_rate_check CHECK ((rate > (0)::numeric));
CREATE INDEX journal_entries_account_date_idx ON journal_entries USING btree (company_id, account_code, date) INCLUDE (debit, credit);
CREATE INDEX journal_entries_date_idx ON journal_entries USING btree (company_id, date) INCLUDE (account_code, debit, credit);
CREATE INDEX journal_entries_partner_date_idx ON journal_entries USING btree (company_id, partner_code, date) WHERE (partner_code IS NOT NULL);
CREATE TRIGGER journal_entries_checks AFTER INSERT ON journal_entries REFERENCING NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION journal_entries_checks();
CREATE TRIGGER journal_entries_immutable BEFORE DELETE OR UPDATE ON journal_entries FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER journal_entries_no_truncate BEFORE TRUNCATE ON journal_entries FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
CREATE TRIGGER ledger_balances_move AFTER INSERT ON journal_entries REFERENCING NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION ledger_balances_move();
CREATE TRIGGER ledger_day_balances_move AFTER INSERT ON journal_entries REFERENCING NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION ledger_day_balances_move();

create table journal_transactions (
  company_id uuid not null,
  id uuid default gen_random_uuid() not null,
  number text,
  date date not null,
  description text,
  reference text,
  document_type text not null,
  source_type text,
  source_id text,
  reverses_id uuid,
  total numeric(18,2) not null,
  account_codes text[] not null,
  partner_codes text[] default '{}'::text[] not null,
  created_by_key_id uuid,
  created_at timestamp with time zone default now() not null,
  open_xid xid8 default pg_current_xact_id()
);
alter table journal_transactions add constraint journal_transaction_balanced TRIGGER DEFERRABLE INITIALLY DEFERRED;
alter table journal_transactions add constraint journal_transactions_document_type_check CHECK ((document_type = ANY (ARRAY['manual'::text, 'reversal'::text, 'migration'::text, 'migration_opening'::text, 'sale_invoice'::text, 'purchase_invoice'::text, 'payment'::text, 'depreciation'::text, 'inventory'::text, 'fx_revaluation'::text, 'asset_disposal'::text])));
alter table journal_transactions add constraint journal_transactions_number_key UNIQUE (company_id, number);
alter table journal_transactions add constraint journal_transactions_pkey PRIMARY KEY (company_id, id);
alter table journal_transactions add constraint journal_transactions_reverses_fkey FOREIGN KEY (company_id, reverses_id) REFERENCES journal_transactions(company_id, id);
alter table journal_transactions add constraint journal_transactions_total_check CHECK ((total > (0)::numeric));
CREATE INDEX journal_transactions_accounts_idx ON journal_transactions USING gin (account_codes);
CREATE INDEX journal_transactions_date_idx ON journal_transactions USING btree (company_id, date, id);
CREATE UNIQUE INDEX journal_transactions_one_opening ON journal_transactions USING btree (company_id) WHERE (document_type = 'migration_opening'::text);
CREATE INDEX journal_transactions_partners_idx ON journal_transactions USING gin (partner_codes);
CREATE UNIQUE INDEX journal_transactions_reversed_once ON journal_transactions USING btree (company_id, reverses_id) WHERE (reverses_id IS NOT NULL);
CREATE CONSTRAINT TRIGGER journal_transaction_balanced AFTER INSERT ON journal_transactions DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION journal_transaction_balanced();
CREATE TRIGGER journal_transactions_checks AFTER INSERT ON journal_transactions REFERENCING NEW TABLE AS new_headers FOR EACH STATEMENT EXECUTE FUNCTION journal_transactions_checks();
CREATE TRIGGER journal_transactions_immutable BEFORE DELETE OR UPDATE ON journal_transactions FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER journal_transactions_no_truncate BEFORE TRUNCATE ON journal_transactions FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();

create table knex_migrations (
  id integer default nextval('knex_migrations_id_seq'::regclass) not null,
  name character varying(255),
  batch integer,
  migration_time timestamp with time zone
);
alter table knex_migrations add constraint knex_migrations_pkey PRIMARY KEY (id);

create table knex_migrations_lock (
  index integer default nextval('knex_migrations_lock_index_seq'::regclass) not null,
  is_locked integer
);
alter table knex_migrations_lock add constraint knex_migrations_lock_pkey PRIMARY KEY (index);

create table ledger_accounts (
  company_id uuid not null,
  code text not null,
  id uuid default gen_random_uuid() not null,
  name text not null,
  name_en text,
  type text not null,
  parent_code text,
  is_postable boolean default true not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  is_contra boolean default false not null,
  statement_line text,
  saft_account_table_id text,
  saft_account_type text
);
alter table ledger_accounts add constraint ledger_accounts_code_check CHECK ((code ~ '^[A-Za-z0-9.]{1,20}$'::text));
alter table ledger_accounts add constraint ledger_accounts_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table ledger_accounts add constraint ledger_accounts_id_key UNIQUE (company_id, id);
alter table ledger_accounts add constraint ledger_accounts_parent_fkey FOREIGN KEY (company_id, parent_code) REFERENCES ledger_accounts(company_id, code);
alter table ledger_accounts add constraint ledger_accounts_pkey PRIMARY KEY (company_id, code);
alter table ledger_accounts add constraint ledger_accounts_saft_account_table_id_check CHECK (((length(saft_account_table_id) >= 1) AND (length(saft_account_table_id) <= 70)));
alter table ledger_accounts add constraint ledger_accounts_saft_account_type_check CHECK ((saft_account_type = ANY (ARRAY['IT'::text, 'TT'::text, 'NK'::text, 'I'::text, 'P'::text, 'S'::text, 'KT'::text])));
alter table ledger_accounts add constraint ledger_accounts_statement_line_check CHECK ((statement_line ~ '^(A|B|C|D|E|F|G|H|X|PL)(\.[0-9IVX]+)*$'::text));
alter table ledger_accounts add constraint ledger_accounts_type_check CHECK ((type = ANY (ARRAY['asset'::text, 'liability'::text, 'equity'::text, 'income'::text, 'expense'::text])));
CREATE INDEX ledger_accounts_parent_idx ON ledger_accounts USING btree (company_id, parent_code);
CREATE TRIGGER ledger_account_checks BEFORE INSERT OR UPDATE ON ledger_accounts FOR EACH ROW EXECUTE FUNCTION ledger_account_checks();
CREATE TRIGGER ledger_accounts_entries_guard BEFORE DELETE OR UPDATE OF company_id, code ON ledger_accounts FOR EACH ROW EXECUTE FUNCTION ledger_accounts_entries_guard();

create table ledger_balances (
  company_id uuid not null,
  account_code text not null,
  month date not null,
  partner_code text,
  stripe smallint not null,
  debit numeric not null,
  credit numeric not null
);
alter table ledger_balances add constraint ledger_balances_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table ledger_balances add constraint ledger_balances_key UNIQUE NULLS NOT DISTINCT (company_id, account_code, month, partner_code, stripe);
alter table ledger_balances add constraint ledger_balances_month_check CHECK ((month = date_trunc('month'::text, (month)::timestamp with time zone)));
alter table ledger_balances add constraint ledger_balances_stripe_check CHECK (((stripe >= 0) AND (stripe <= 15)));
CREATE INDEX ledger_balances_partner_idx ON ledger_balances USING btree (company_id, partner_code, month) WHERE (partner_code IS NOT NULL);
CREATE TRIGGER ledger_balances_no_truncate BEFORE TRUNCATE ON ledger_balances FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
CREATE TRIGGER ledger_balances_written_by_journal BEFORE INSERT OR DELETE OR UPDATE ON ledger_balances FOR EACH STATEMENT EXECUTE FUNCTION ledger_balances_written_by_journal();

create table ledger_day_balances (
  company_id uuid not null,
  day date not null,
  account_code text not null,
  stripe smallint not null,
  debit numeric not null,
  credit numeric not null
);
alter table ledger_day_balances add constraint ledger_day_balances_pkey PRIMARY KEY (company_id, day, account_code, stripe);
alter table ledger_day_balances add constraint ledger_day_balances_stripe_check CHECK (((stripe >= 0) AND (stripe <= 15)));
CREATE TRIGGER ledger_day_balances_no_truncate BEFORE TRUNCATE ON ledger_day_balances FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
CREATE TRIGGER ledger_day_balances_written_by_journal BEFORE INSERT OR DELETE OR UPDATE ON ledger_day_balances FOR EACH STATEMENT EXECUTE FUNCTION ledger_balances_written_by_journal();

create table ledger_locked_through (
  company_id uuid not null,
  month date not null,
  locked_at timestamp with time zone default now() not null,
  locked_by_key_id uuid
);
alter table ledger_locked_through add constraint ledger_locked_through_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table ledger_locked_through add constraint ledger_locked_through_locked_by_key_id_fkey FOREIGN KEY (locked_by_key_id) REFERENCES api_keys(id);
alter table ledger_locked_through add constraint ledger_locked_through_month_check CHECK ((month = date_trunc('month'::text, (month)::timestamp with time zone)));
alter table ledger_locked_through add constraint ledger_locked_through_pkey PRIMARY KEY (company_id);

create table ledger_period_locks (
  company_id uuid not null,
  month date not null,
  locked_at timestamp with time zone default now() not null,
  locked_by_key_id uuid
);
alter table ledger_period_locks add constraint ledger_period_locks_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table ledger_period_locks add constraint ledger_period_locks_locked_by_key_id_fkey FOREIGN KEY (locked_by_key_id) REFERENCES api_keys(id);
alter table ledger_period_locks add constraint ledger_period_locks_month_check CHECK ((month = date_trunc('month'::text, (month)::timestamp with time zone)));
alter table ledger_period_locks add constraint ledger_period_locks_pkey PRIMARY KEY (company_id, month);

create table migration_imports (
  company_id uuid not null,
  id uuid default gen_random_uuid() not null,
  fingerprint text not null,
  repeat_of uuid,
  cutover_date date not null,
  source text,
  key_id uuid,
  request_id text not null,
  imported_at timestamp with time zone default now() not null
);
alter table migration_imports add constraint migration_imports_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table migration_imports add constraint migration_imports_company_id_id_fingerprint_key UNIQUE (company_id, id, fingerprint);
alter table migration_imports add constraint migration_imports_fingerprint_check CHECK ((fingerprint ~ '^[0-9a-f]{64}$'::text));
alter table migration_imports add constraint migration_imports_pkey PRIMARY KEY (company_id, id);
alter table migration_imports add constraint migration_imports_repeat_not_itself CHECK ((repeat_of <> id));
alter table migration_imports add constraint migration_imports_repeat_same_package FOREIGN KEY (company_id, repeat_of, fingerprint) REFERENCES migration_imports(company_id, id, fingerprint);
alter table migration_imports add constraint migration_imports_repeated_once UNIQUE (company_id, repeat_of);
CREATE UNIQUE INDEX migration_imports_once ON migration_imports USING btree (company_id, fingerprint) WHERE (repeat_of IS NULL);
CREATE TRIGGER migration_imports_immutable BEFORE DELETE OR UPDATE ON migration_imports FOR EACH ROW EXECUTE FUNCTION migration_imports_immutable();

create table number_series (
  company_id uuid not null,
  id uuid default gen_random_uuid() not null,
  document_type text not null,
  prefix text not null,
  year integer not null,
  next_number bigint not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null
);
alter table number_series add constraint number_series_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table number_series add constraint number_series_document_type_check CHECK ((document_type = ANY (ARRAY['sale_invoice'::text, 'sale_credit_note'::text, 'sale_debit_note'::text, 'purchase_invoice'::text, 'purchase_credit_note'::text, 'journal'::text])));
alter table number_series add constraint number_series_identity_key UNIQUE (company_id, document_type, prefix, year);
alter table number_series add constraint number_series_next_number_check CHECK (((next_number >= 1) AND (next_number <= '999999999999'::bigint)));
alter table number_series add constraint number_series_pkey PRIMARY KEY (company_id, id);
alter table number_series add constraint number_series_prefix_check CHECK ((prefix ~ '^[A-Za-z0-9_/]{1,20}$'::text));
alter table number_series add constraint number_series_year_check CHECK (((year >= 2000) AND (year <= 2100)));
CREATE TRIGGER number_series_never_lowered BEFORE UPDATE ON number_series FOR EACH ROW EXECUTE FUNCTION number_series_never_lowered();

create table outbound_emails (
  id uuid default gen_random_uuid() not null,
  recipients text[] not null,
  subject text not null,
  body text not null,
  created_at timestamp with time zone default now() not null
);
alter table outbound_emails add constraint outbound_emails_pkey PRIMARY KEY (id);

create table owners (
  company_id uuid not null,
  id uuid default gen_random_uuid() not null,
  code text not null,
  name text not null,
  country_code text not null,
  capital_account_code text not null,
  share_percent numeric(5,2),
  shares_quantity numeric(18,6),
  shares_amount numeric(17,2),
  shares_type text,
  acquired_on date,
  transferred_on date,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null
);
alter table owners add constraint owners_capital_account_fkey FOREIGN KEY (company_id, capital_account_code) REFERENCES ledger_accounts(company_id, code);
alter table owners add constraint owners_check CHECK ((transferred_on >= acquired_on));
alter table owners add constraint owners_code_check CHECK (((length(code) >= 1) AND (length(code) <= 35)));
alter table owners add constraint owners_code_key UNIQUE (company_id, code);
alter table owners add constraint owners_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table owners add constraint owners_country_code_check CHECK ((country_code ~ '^[A-Z]{2}$'::text));
alter table owners add constraint owners_name_check CHECK (((length(name) >= 1) AND (length(name) <= 255)));
alter table owners add constraint owners_pkey PRIMARY KEY (company_id, id);
alter table owners add constraint owners_share_percent_check CHECK (((share_percent >= (0)::numeric) AND (share_percent <= (100)::numeric)));
alter table owners add constraint owners_shares_amount_check CHECK ((shares_amount >= (0)::numeric));
alter table owners add constraint owners_shares_quantity_check CHECK ((shares_quantity > (0)::numeric));
alter table owners add constraint owners_shares_type_check CHECK ((shares_type = ANY (ARRAY['ordinary'::text, 'preference'::text])));

create table partner_addresses (
  company_id uuid not null,
  id uuid default gen_random_uuid() not null,
  partner_id uuid not null,
  type text not null,
  street text,
  building text,
  city text not null,
  postal_code text,
  country_code text not null,
  is_default boolean default false not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null
);
alter table partner_addresses add constraint partner_addresses_building_check CHECK (((length(building) >= 1) AND (length(building) <= 18)));
alter table partner_addresses add constraint partner_addresses_city_check CHECK (((length(city) >= 1) AND (length(city) <= 35)));
alter table partner_addresses add constraint partner_addresses_country_code_check CHECK ((country_code ~ '^[A-Z]{2}$'::text));
alter table partner_addresses add constraint partner_addresses_partner_fkey FOREIGN KEY (company_id, partner_id) REFERENCES partners(company_id, id) ON DELETE CASCADE;
alter table partner_addresses add constraint partner_addresses_pkey PRIMARY KEY (company_id, id);
alter table partner_addresses add constraint partner_addresses_postal_code_check CHECK (((length(postal_code) >= 1) AND (length(postal_code) <= 18)));
alter table partner_addresses add constraint partner_addresses_street_check CHECK (((length(street) >= 1) AND (length(street) <= 200)));
alter table partner_addresses add constraint partner_addresses_type_check CHECK ((type = ANY (ARRAY['registered'::text, 'billing'::text, 'shipping'::text])));
CREATE UNIQUE INDEX partner_addresses_one_default ON partner_addresses USING btree (company_id, partner_id) WHERE is_default;
CREATE INDEX partner_addresses_partner_idx ON partner_addresses USING btree (company_id, partner_id, created_at, id);

create table partner_bank_ibans (
  company_id uuid not null,
  partner_code text not null,
  iban text not null,
  matches integer default 1 not null,
  last_matched_at timestamp with time zone default now() not null
);
alter table partner_bank_ibans add constraint partner_bank_ibans_iban_check CHECK ((length(iban) <= 34));
alter table partner_bank_ibans add constraint partner_bank_ibans_matches_check CHECK ((matches > 0));
alter table partner_bank_ibans add constraint partner_bank_ibans_partner_fkey FOREIGN KEY (company_id, partner_code) REFERENCES partners(company_id, code) ON UPDATE CASCADE ON DELETE CASCADE;
alter table partner_bank_ibans add constraint partner_bank_ibans_pkey PRIMARY KEY (company_id, partner_code, iban);
CREATE INDEX partner_bank_ibans_iban_idx ON partner_bank_ibans USING btree (company_id, iban);

create table partners (
  company_id uuid not null,
  id uuid default gen_random_uuid() not null,
  code text not null,
  name text not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  vat_code text,
  registration_code text,
  country_code text,
  address jsonb,
  email text,
  phone text,
  iban text,
  is_customer boolean default true not null,
  is_supplier boolean default false not null,
  is_private_person boolean default false not null,
  payment_term_days integer default 0 not null,
  document_language text default 'lt-en'::text not null,
  peppol_id text
);
alter table partners add constraint partners_address_check CHECK ((jsonb_typeof(address) = 'object'::text));
alter table partners add constraint partners_company_code_key UNIQUE (company_id, code);
alter table partners add constraint partners_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table partners add constraint partners_country_code_check CHECK ((country_code ~ '^[A-Z]{2}$'::text));
alter table partners add constraint partners_document_language_check CHECK ((document_language = ANY (ARRAY['lt'::text, 'en'::text, 'lt-en'::text])));
alter table partners add constraint partners_iban_check CHECK ((iban ~ '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$'::text));
alter table partners add constraint partners_payment_term_days_check CHECK (((payment_term_days >= 0) AND (payment_term_days <= 365)));
alter table partners add constraint partners_peppol_id_check CHECK ((peppol_id ~ '^[0-9]{4}:[A-Za-z0-9][A-Za-z0-9._:+/-]{0,99}$'::text));
alter table partners add constraint partners_pkey PRIMARY KEY (company_id, id);
alter table partners add constraint partners_registration_code_check CHECK (((length(registration_code) >= 1) AND (length(registration_code) <= 64)));
alter table partners add constraint partners_vat_code_check CHECK ((vat_code ~ '^[A-Z]{2}[0-9A-Z+*.]{2,13}$'::text));
CREATE INDEX partners_iban_idx ON partners USING btree (company_id, iban) WHERE (iban IS NOT NULL);

create table posting_rules (
  company_id uuid not null,
  rule text not null,
  account_code text not null,
  updated_at timestamp with time zone default now() not null
);
alter table posting_rules add constraint posting_rules_account_fkey FOREIGN KEY (company_id, account_code) REFERENCES ledger_accounts(company_id, code);
alter table posting_rules add constraint posting_rules_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table posting_rules add constraint posting_rules_pkey PRIMARY KEY (company_id, rule);
CREATE TRIGGER posting_rules_stock_held BEFORE INSERT OR UPDATE ON posting_rules FOR EACH ROW WHEN ((new.rule = 'inventory.stock'::text)) EXECUTE FUNCTION posting_rules_stock_held();
CREATE TRIGGER posting_rules_stock_held_delete BEFORE DELETE ON posting_rules FOR EACH ROW WHEN ((old.rule = 'inventory.stock'::text)) EXECUTE FUNCTION posting_rules_stock_held();

create table purchase_invoice_attachments (
  company_id uuid not null,
  id uuid default gen_random_uuid() not null,
  invoice_id uuid not null,
  kind text not null,
  file_name text not null,
  content_type text not null,
  description text,
  content bytea not null,
  size_bytes integer generated always as (octet_length(content)) stored not null,
  sha256 text not null,
  created_at timestamp with time zone default now() not null
);
alter table purchase_invoice_attachments add constraint purchase_invoice_attachments_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table purchase_invoice_attachments add constraint purchase_invoice_attachments_company_id_invoice_id_fkey FOREIGN KEY (company_id, invoice_id) REFERENCES purchase_invoices(company_id, id) ON DELETE CASCADE;
alter table purchase_invoice_attachments add constraint purchase_invoice_attachments_content_check CHECK (((octet_length(content) >= 1) AND (octet_length(content) <= 10485760)));
alter table purchase_invoice_attachments add constraint purchase_invoice_attachments_content_type_check CHECK (((length(content_type) >= 1) AND (length(content_type) <= 255)));
alter table purchase_invoice_attachments add constraint purchase_invoice_attachments_description_check CHECK ((length(description) <= 1000));
alter table purchase_invoice_attachments add constraint purchase_invoice_attachments_file_name_check CHECK (((length(file_name) >= 1) AND (length(file_name) <= 255)));
alter table purchase_invoice_attachments add constraint purchase_invoice_attachments_kind_check CHECK ((kind = ANY (ARRAY['einvoice'::text, 'embedded'::text])));
alter table purchase_invoice_attachments add constraint purchase_invoice_attachments_pkey PRIMARY KEY (company_id, id);
alter table purchase_invoice_attachments add constraint purchase_invoice_attachments_sha256_check CHECK ((sha256 ~ '^[0-9a-f]{64}$'::text));
CREATE INDEX purchase_invoice_attachments_created_idx ON purchase_invoice_attachments USING btree (company_id, created_at DESC, id);
CREATE INDEX purchase_invoice_attachments_invoice_idx ON purchase_invoice_attachments USING btree (company_id, invoice_id, created_at, id);

create table purchase_invoice_lines (
  company_id uuid not null,
  invoice_id uuid not null,
  line_no smallint not null,
  item_code text,
  description text not null,
  quantity numeric(21,6) not null,
  unit text not null,
  unit_price numeric(21,6) not null,
  discount_percent numeric(5,2) default 0 not null,
  vat_rate_percent numeric(5,2) not null,
  vat_classifier text not null,
  expense_account_code text,
  vat_deductible boolean default true not null,
  net_amount numeric(17,2) not null,
  warehouse_code text,
  lot_number text,
  serials text[]
);
alter table purchase_invoice_lines add constraint purchase_invoice_lines_account_fkey FOREIGN KEY (company_id, expense_account_code) REFERENCES ledger_accounts(company_id, code);
alter table purchase_invoice_lines add constraint purchase_invoice_lines_description_check CHECK (((length(description) >= 1) AND (length(description) <= 1000)));
alter table purchase_invoice_lines add constraint purchase_invoice_lines_discount_percent_check CHECK (((discount_percent >= (0)::numeric) AND (discount_percent <= (100)::numeric)));
alter table purchase_invoice_lines add constraint purchase_invoice_lines_invoice_fkey FOREIGN KEY (company_id, invoice_id) REFERENCES purchase_invoices(company_id, id) ON DELETE CASCADE;
alter table purchase_invoice_lines add constraint purchase_invoice_lines_item_fkey FOREIGN KEY (company_id, item_code) REFERENCES catalog_items(company_id, code) ON UPDATE RESTRICT;
alter table purchase_invoice_lines add constraint purchase_invoice_lines_line_no_check CHECK (((line_no >= 1) AND (line_no <= 500)));
alter table purchase_invoice_lines add constraint purchase_invoice_lines_lot_number_check CHECK (((length(lot_number) >= 1) AND (length(lot_number) <= 64)));
alter table purchase_invoice_lines add constraint purchase_invoice_lines_net_amount_check CHECK ((net_amount >= (0)::numeric));
alter table purchase_invoice_lines add constraint purchase_invoice_lines_pkey PRIMARY KEY (company_id, invoice_id, line_no);
alter table purchase_invoice_lines add constraint purchase_invoice_lines_quantity_check CHECK ((quantity > (0)::numeric));
alter table purchase_invoice_lines add constraint purchase_invoice_lines_scale CHECK (((quantity = round(quantity, 4)) AND (unit_price = round(unit_price, 4)))) NOT VALID;
alter table purchase_invoice_lines add constraint purchase_invoice_lines_serials_check CHECK (((cardinality(serials) >= 1) AND (cardinality(serials) <= 1000)));
alter table purchase_invoice_lines add constraint purchase_invoice_lines_unit_check CHECK (((length(unit) >= 1) AND (length(unit) <= 16)));
alter table purchase_invoice_lines add constraint purchase_invoice_lines_unit_price_check CHECK ((unit_price >= (0)::numeric));
alter table purchase_invoice_lines add constraint purchase_invoice_lines_vat_classifier_check CHECK ((vat_classifier ~ '^PVM[0-9]{1,3}$'::text));
alter table purchase_invoice_lines add constraint purchase_invoice_lines_vat_rate_percent_check CHECK (((vat_rate_percent >= (0)::numeric) AND (vat_rate_percent <= (100)::numeric)));
alter table purchase_invoice_lines add constraint purchase_invoice_lines_warehouse_code_check CHECK (((length(warehouse_code) >= 1) AND (length(warehouse_code) <= 64)));
CREATE TRIGGER purchase_invoice_lines_frozen BEFORE INSERT OR DELETE OR UPDATE ON purchase_invoice_lines FOR EACH ROW EXECUTE FUNCTION purchase_invoice_lines_frozen();

create table purchase_invoice_open_totals (
  company_id uuid not null,
  status text not null,
  type text not null,
  partner_code text not null,
  currency text not null,
  vat_treatment text not null,
  due_date date not null,
  stripe smallint not null,
  documents bigint not null,
  net_total numeric not null,
  vat_total numeric not null,
  gross_total numeric not null,
  outstanding numeric not null
);
alter table purchase_invoice_open_totals add constraint purchase_invoice_open_totals_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table purchase_invoice_open_totals add constraint purchase_invoice_open_totals_pkey PRIMARY KEY (company_id, status, type, partner_code, currency, vat_treatment, due_date, stripe);
alter table purchase_invoice_open_totals add constraint purchase_invoice_open_totals_stripe_check CHECK (((stripe >= 0) AND (stripe <= 15)));

create table purchase_invoice_totals (
  company_id uuid not null,
  status text not null,
  type text not null,
  partner_code text not null,
  currency text not null,
  vat_treatment text not null,
  month date not null,
  stripe smallint not null,
  documents bigint not null,
  net_total numeric not null,
  vat_total numeric not null,
  gross_total numeric not null,
  outstanding numeric not null
);
alter table purchase_invoice_totals add constraint purchase_invoice_totals_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table purchase_invoice_totals add constraint purchase_invoice_totals_pkey PRIMARY KEY (company_id, status, type, partner_code, currency, vat_treatment, month, stripe);
alter table purchase_invoice_totals add constraint purchase_invoice_totals_stripe_check CHECK (((stripe >= 0) AND (stripe <= 15)));

create table purchase_invoices (
  company_id uuid not null,
  id uuid default gen_random_uuid() not null,
  type text not null,
  status text default 'draft'::text not null,
  partner_code text not null,
  partner_snapshot jsonb,
  document_number text not null,
  document_date date not null,
  due_date date not null,
  currency text not null,
  vat_treatment text not null,
  rate numeric(18,8),
  rate_source text,
  rate_date date,
  notes text,
  credited_invoice_id uuid,
  net_total numeric(17,2) default 0 not null,
  vat_total numeric(17,2) default 0 not null,
  gross_total numeric(17,2) default 0 not null,
  gross_total_base numeric(17,2),
  vat_breakdown jsonb default '[]'::jsonb not null,
  paid_amount numeric(17,2) default 0 not null,
  credited_amount numeric(17,2) default 0 not null,
  outstanding numeric(17,2) default 0 not null,
  journal_transaction_id uuid,
  registered_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  migrated boolean default false not null,
  supply_date date,
  accounting_date date not null,
  customs_declaration_number text,
  customs_declaration_date date,
  customs_vat numeric(17,2),
  customs_value numeric(17,2)
);
alter table purchase_invoices add constraint purchase_invoices_accounting_date_check CHECK ((accounting_date >= document_date));
alter table purchase_invoices add constraint purchase_invoices_check CHECK ((due_date >= document_date));
alter table purchase_invoices add constraint purchase_invoices_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table purchase_invoices add constraint purchase_invoices_credit_note_target CHECK (((type = ANY (ARRAY['credit_note'::text, 'debit_note'::text])) = (credited_invoice_id IS NOT NULL)));
alter table purchase_invoices add constraint purchase_invoices_credit_within_gross CHECK ((credited_amount <= gross_total));
alter table purchase_invoices add constraint purchase_invoices_credited_amount_check CHECK ((credited_amount >= (0)::numeric));
alter table purchase_invoices add constraint purchase_invoices_credited_fkey FOREIGN KEY (company_id, credited_invoice_id) REFERENCES purchase_invoices(company_id, id);
alter table purchase_invoices add constraint purchase_invoices_currency_check CHECK ((currency ~ '^[A-Z]{3}$'::text));
alter table purchase_invoices add constraint purchase_invoices_customs_complete CHECK (((COALESCE(customs_vat, (0)::numeric) = (0)::numeric) OR ((customs_declaration_number IS NOT NULL) AND (customs_declaration_date IS NOT NULL))));
alter table purchase_invoices add constraint purchase_invoices_customs_date CHECK ((customs_declaration_date <= accounting_date));
alter table purchase_invoices add constraint purchase_invoices_customs_declaration_number_check CHECK (((length(customs_declaration_number) >= 1) AND (length(customs_declaration_number) <= 64)));
alter table purchase_invoices add constraint purchase_invoices_customs_import CHECK ((((customs_declaration_number IS NULL) AND (customs_declaration_date IS NULL) AND (customs_vat IS NULL) AND (customs_value IS NULL)) OR ((vat_treatment = 'import'::text) AND (type = 'invoice'::text) AND (customs_vat IS NOT NULL))));
alter table purchase_invoices add constraint purchase_invoices_customs_value_check CHECK ((customs_value >= (0)::numeric));
alter table purchase_invoices add constraint purchase_invoices_customs_vat_check CHECK ((customs_vat >= (0)::numeric));
alter table purchase_invoices add constraint purchase_invoices_document_number_check CHECK (((length(document_number) >= 1) AND (length(document_number) <= 64)));
alter table purchase_invoices add constraint purchase_invoices_document_number_key UNIQUE (company_id, partner_code, type, document_number);
alter table purchase_invoices add constraint purchase_invoices_gross_total_base_check CHECK ((gross_total_base >= (0)::numeric));
alter table purchase_invoices add constraint purchase_invoices_gross_total_check CHECK ((gross_total >= (0)::numeric));
alter table purchase_invoices add constraint purchase_invoices_journal_fkey FOREIGN KEY (company_id, journal_transaction_id) REFERENCES journal_transactions(company_id, id);
alter table purchase_invoices add constraint purchase_invoices_net_total_check CHECK ((net_total >= (0)::numeric));
alter table purchase_invoices add constraint purchase_invoices_notes_check CHECK ((length(notes) <= 2000));
alter table purchase_invoices add constraint purchase_invoices_outstanding_check CHECK ((outstanding >= (0)::numeric));
alter table purchase_invoices add constraint purchase_invoices_paid_amount_check CHECK ((paid_amount >= (0)::numeric));
alter table purchase_invoices add constraint purchase_invoices_paid_within_gross CHECK ((paid_amount <= gross_total));
alter table purchase_invoices add constraint purchase_invoices_partner_fkey FOREIGN KEY (company_id, partner_code) REFERENCES partners(company_id, code) ON UPDATE RESTRICT;
alter table purchase_invoices add constraint purchase_invoices_partner_snapshot_check CHECK ((jsonb_typeof(partner_snapshot) = 'object'::text));
alter table purchase_invoices add constraint purchase_invoices_pkey PRIMARY KEY (company_id, id);
alter table purchase_invoices add constraint purchase_invoices_rate_check CHECK ((rate > (0)::numeric));
alter table purchase_invoices add constraint purchase_invoices_rate_source_check CHECK ((rate_source = ANY (ARRAY['base'::text, 'override'::text, 'ecb'::text])));
alter table purchase_invoices add constraint purchase_invoices_registered_complete CHECK ((((status = 'draft'::text) = (journal_transaction_id IS NULL)) AND ((journal_transaction_id IS NULL) = (partner_snapshot IS NULL)) AND ((journal_transaction_id IS NULL) = (rate IS NULL)) AND ((journal_transaction_id IS NULL) = (gross_total_base IS NULL))));
alter table purchase_invoices add constraint purchase_invoices_status_check CHECK ((status = ANY (ARRAY['draft'::text, 'registered'::text, 'partially_paid'::text, 'paid'::text, 'credited'::text])));
alter table purchase_invoices add constraint purchase_invoices_supply_date_check CHECK ((supply_date <= document_date));
alter table purchase_invoices add constraint purchase_invoices_type_check CHECK ((type = ANY (ARRAY['invoice'::text, 'credit_note'::text, 'debit_note'::text])));
alter table purchase_invoices add constraint purchase_invoices_vat_breakdown_check CHECK ((jsonb_typeof(vat_breakdown) = 'array'::text));
alter table purchase_invoices add constraint purchase_invoices_vat_total_check CHECK ((vat_total >= (0)::numeric));
alter table purchase_invoices add constraint purchase_invoices_vat_treatment_check CHECK ((vat_treatment = ANY (ARRAY['standard'::text, 'reverse_charge'::text, 'import'::text, 'exempt'::text])));
CREATE INDEX purchase_invoices_date_idx ON purchase_invoices USING btree (company_id, document_date DESC, created_at DESC, id);
CREATE INDEX purchase_invoices_declared_idx ON purchase_invoices USING btree (company_id, accounting_date, id) WHERE ((status <> 'draft'::text) AND (NOT migrated));
CREATE INDEX purchase_invoices_list_totals_idx ON purchase_invoices USING btree (company_id, document_date) INCLUDE (partner_code, status, due_date, type, currency, vat_treatment, net_total, vat_total, gross_total, outstanding);
CREATE INDEX purchase_invoices_open_amount_idx ON purchase_invoices USING btree (company_id, outstanding) WHERE (outstanding > (0)::numeric);
CREATE INDEX purchase_invoices_open_number_idx ON purchase_invoices USING btree (company_id, upper(regexp_replace(document_number, '[^A-Za-z0-9]'::text, ''::text, 'g'::text))) WHERE (outstanding > (0)::numeric);
CREATE INDEX purchase_invoices_open_partner_idx ON purchase_invoices USING btree (company_id, partner_code, due_date) WHERE (outstanding > (0)::numeric);
CREATE INDEX purchase_invoices_status_idx ON purchase_invoices USING btree (company_id, status, due_date) INCLUDE (outstanding, net_total, vat_total, gross_total, partner_code, document_date);
CREATE TRIGGER purchase_invoice_open_totals_delete AFTER DELETE ON purchase_invoices REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION purchase_invoice_open_totals_delete();
CREATE TRIGGER purchase_invoice_open_totals_insert AFTER INSERT ON purchase_invoices REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION purchase_invoice_open_totals_insert();
CREATE TRIGGER purchase_invoice_open_totals_update AFTER UPDATE ON purchase_invoices REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION purchase_invoice_open_totals_update();
CREATE TRIGGER purchase_invoice_totals_delete AFTER DELETE ON purchase_invoices REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION purchase_invoice_totals_delete();
CREATE TRIGGER purchase_invoice_totals_insert AFTER INSERT ON purchase_invoices REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION purchase_invoice_totals_insert();
CREATE TRIGGER purchase_invoice_totals_update AFTER UPDATE ON purchase_invoices REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION purchase_invoice_totals_update();
CREATE TRIGGER purchase_invoices_accounting_date BEFORE INSERT ON purchase_invoices FOR EACH ROW WHEN ((new.accounting_date IS NULL)) EXECUTE FUNCTION purchase_invoices_accounting_date();
CREATE TRIGGER purchase_invoices_frozen BEFORE DELETE OR UPDATE ON purchase_invoices FOR EACH ROW EXECUTE FUNCTION invoice_frozen();
CREATE TRIGGER vat_declared_purchase_invoices_insert AFTER INSERT ON purchase_invoices REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION vat_declared_purchase_invoices_insert();
CREATE TRIGGER vat_declared_purchase_invoices_update AFTER UPDATE ON purchase_invoices REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION vat_declared_purchase_invoices_update();

create table rate_limit_counters (
  bucket text not null,
  window_start timestamp with time zone not null,
  count integer not null
);
alter table rate_limit_counters add constraint rate_limit_counters_pkey PRIMARY KEY (bucket, window_start);

create table saft_file_parts (
  company_id uuid not null,
  file_id uuid not null,
  part_number integer not null,
  file_name text not null,
  content bytea not null,
  bytes bigint not null,
  sha256 text not null
);
alter table saft_file_parts add constraint saft_file_parts_check CHECK ((bytes = octet_length(content)));
alter table saft_file_parts add constraint saft_file_parts_company_id_file_id_fkey FOREIGN KEY (company_id, file_id) REFERENCES saft_files(company_id, id) ON DELETE CASCADE;
alter table saft_file_parts add constraint saft_file_parts_file_name_check CHECK (((length(file_name) >= 1) AND (length(file_name) <= 255)));
alter table saft_file_parts add constraint saft_file_parts_part_number_check CHECK (((part_number >= 1) AND (part_number <= 10000)));
alter table saft_file_parts add constraint saft_file_parts_pkey PRIMARY KEY (company_id, file_id, part_number);
alter table saft_file_parts add constraint saft_file_parts_sha256_check CHECK ((sha256 ~ '^[0-9a-f]{64}$'::text));

create table saft_files (
  company_id uuid not null,
  id uuid default gen_random_uuid() not null,
  data_type text not null,
  date_from date not null,
  date_to date not null,
  status text default 'queued'::text not null,
  rows_total bigint,
  rows_written bigint default 0 not null,
  error jsonb,
  requested_by_key_id uuid,
  created_at timestamp with time zone default now() not null,
  started_at timestamp with time zone,
  finished_at timestamp with time zone,
  expires_at timestamp with time zone
);
alter table saft_files add constraint saft_files_check CHECK ((date_from <= date_to));
alter table saft_files add constraint saft_files_check1 CHECK (((status = 'failed'::text) = (error IS NOT NULL)));
alter table saft_files add constraint saft_files_check2 CHECK (((status = ANY (ARRAY['ready'::text, 'failed'::text])) = (finished_at IS NOT NULL)));
alter table saft_files add constraint saft_files_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table saft_files add constraint saft_files_data_type_check CHECK ((data_type = ANY (ARRAY['F'::text, 'GL'::text, 'SI'::text, 'PI'::text, 'PA'::text, 'MG'::text, 'AS'::text])));
alter table saft_files add constraint saft_files_error_check CHECK (((error IS NULL) OR (jsonb_typeof(error) = 'object'::text)));
alter table saft_files add constraint saft_files_pkey PRIMARY KEY (company_id, id);
alter table saft_files add constraint saft_files_requested_by_key_id_fkey FOREIGN KEY (requested_by_key_id) REFERENCES api_keys(id);
alter table saft_files add constraint saft_files_rows_total_check CHECK ((rows_total >= 0));
alter table saft_files add constraint saft_files_rows_written_check CHECK ((rows_written >= 0));
alter table saft_files add constraint saft_files_status_check CHECK ((status = ANY (ARRAY['queued'::text, 'running'::text, 'ready'::text, 'failed'::text])));
CREATE INDEX saft_files_expires_idx ON saft_files USING btree (expires_at) WHERE (expires_at IS NOT NULL);

create table sale_invoice_lines (
  company_id uuid not null,
  invoice_id uuid not null,
  line_no smallint not null,
  item_code text,
  description text not null,
  quantity numeric(21,6) not null,
  unit text not null,
  unit_price numeric(21,6) not null,
  discount_percent numeric(5,2) default 0 not null,
  vat_rate_percent numeric(5,2) not null,
  vat_classifier text,
  revenue_account_code text,
  net_amount numeric(17,2) not null,
  warehouse_code text,
  lot_number text,
  serials text[],
  return_to_stock boolean default false not null
);
alter table sale_invoice_lines add constraint sale_invoice_lines_account_fkey FOREIGN KEY (company_id, revenue_account_code) REFERENCES ledger_accounts(company_id, code);
alter table sale_invoice_lines add constraint sale_invoice_lines_description_check CHECK (((length(description) >= 1) AND (length(description) <= 1000)));
alter table sale_invoice_lines add constraint sale_invoice_lines_discount_percent_check CHECK (((discount_percent >= (0)::numeric) AND (discount_percent <= (100)::numeric)));
alter table sale_invoice_lines add constraint sale_invoice_lines_invoice_fkey FOREIGN KEY (company_id, invoice_id) REFERENCES sale_invoices(company_id, id) ON DELETE CASCADE;
alter table sale_invoice_lines add constraint sale_invoice_lines_item_fkey FOREIGN KEY (company_id, item_code) REFERENCES catalog_items(company_id, code) ON UPDATE RESTRICT;
alter table sale_invoice_lines add constraint sale_invoice_lines_line_no_check CHECK (((line_no >= 1) AND (line_no <= 500)));
alter table sale_invoice_lines add constraint sale_invoice_lines_lot_number_check CHECK (((length(lot_number) >= 1) AND (length(lot_number) <= 64)));
alter table sale_invoice_lines add constraint sale_invoice_lines_net_amount_check CHECK ((net_amount >= (0)::numeric));
alter table sale_invoice_lines add constraint sale_invoice_lines_no_classifier_no_vat CHECK (((vat_classifier IS NOT NULL) OR (vat_rate_percent = (0)::numeric)));
alter table sale_invoice_lines add constraint sale_invoice_lines_pkey PRIMARY KEY (company_id, invoice_id, line_no);
alter table sale_invoice_lines add constraint sale_invoice_lines_quantity_check CHECK ((quantity > (0)::numeric));
alter table sale_invoice_lines add constraint sale_invoice_lines_scale CHECK (((quantity = round(quantity, 4)) AND (unit_price = round(unit_price, 4)))) NOT VALID;
alter table sale_invoice_lines add constraint sale_invoice_lines_serials_check CHECK (((cardinality(serials) >= 1) AND (cardinality(serials) <= 1000)));
alter table sale_invoice_lines add constraint sale_invoice_lines_unit_check CHECK (((length(unit) >= 1) AND (length(unit) <= 16)));
alter table sale_invoice_lines add constraint sale_invoice_lines_unit_price_check CHECK ((unit_price >= (0)::numeric));
alter table sale_invoice_lines add constraint sale_invoice_lines_vat_classifier_check CHECK ((vat_classifier ~ '^PVM[0-9]{1,3}$'::text));
alter table sale_invoice_lines add constraint sale_invoice_lines_vat_rate_percent_check CHECK (((vat_rate_percent >= (0)::numeric) AND (vat_rate_percent <= (100)::numeric)));
alter table sale_invoice_lines add constraint sale_invoice_lines_warehouse_code_check CHECK (((length(warehouse_code) >= 1) AND (length(warehouse_code) <= 64)));
CREATE TRIGGER sale_invoice_lines_frozen BEFORE INSERT OR DELETE OR UPDATE ON sale_invoice_lines FOR EACH ROW EXECUTE FUNCTION sale_invoice_lines_frozen();

create table sale_invoice_open_totals (
  company_id uuid not null,
  status text not null,
  type text not null,
  partner_code text not null,
  currency text not null,
  series_prefix text not null,
  due_date date not null,
  stripe smallint not null,
  documents bigint not null,
  net_total numeric not null,
  vat_total numeric not null,
  gross_total numeric not null,
  outstanding numeric not null
);
alter table sale_invoice_open_totals add constraint sale_invoice_open_totals_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table sale_invoice_open_totals add constraint sale_invoice_open_totals_pkey PRIMARY KEY (company_id, status, type, partner_code, currency, series_prefix, due_date, stripe);
alter table sale_invoice_open_totals add constraint sale_invoice_open_totals_stripe_check CHECK (((stripe >= 0) AND (stripe <= 15)));

create table sale_invoice_sends (
  company_id uuid not null,
  id uuid default gen_random_uuid() not null,
  invoice_id uuid not null,
  recipients text[] not null,
  cc text[] default '{}'::text[] not null,
  subject text not null,
  message text,
  attach text[] not null,
  status text default 'queued'::text not null,
  attempts integer default 0 not null,
  last_error text,
  sent_at timestamp with time zone,
  failed_at timestamp with time zone,
  key_id uuid,
  created_at timestamp with time zone default now() not null,
  issuer jsonb
);
alter table sale_invoice_sends add constraint sale_invoice_sends_attach_check CHECK ((attach <@ ARRAY['pdf'::text, 'ubl'::text]));
alter table sale_invoice_sends add constraint sale_invoice_sends_attempts_check CHECK ((attempts >= 0));
alter table sale_invoice_sends add constraint sale_invoice_sends_cc_check CHECK ((cardinality(cc) <= 10));
alter table sale_invoice_sends add constraint sale_invoice_sends_check CHECK (((status = 'sent'::text) = (sent_at IS NOT NULL)));
alter table sale_invoice_sends add constraint sale_invoice_sends_check1 CHECK (((status = 'failed'::text) = (failed_at IS NOT NULL)));
alter table sale_invoice_sends add constraint sale_invoice_sends_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table sale_invoice_sends add constraint sale_invoice_sends_company_id_invoice_id_fkey FOREIGN KEY (company_id, invoice_id) REFERENCES sale_invoices(company_id, id);
alter table sale_invoice_sends add constraint sale_invoice_sends_issuer_check CHECK ((jsonb_typeof(issuer) = 'object'::text));
alter table sale_invoice_sends add constraint sale_invoice_sends_message_check CHECK ((length(message) <= 10000));
alter table sale_invoice_sends add constraint sale_invoice_sends_pkey PRIMARY KEY (company_id, id);
alter table sale_invoice_sends add constraint sale_invoice_sends_recipients_check CHECK (((cardinality(recipients) >= 1) AND (cardinality(recipients) <= 10)));
alter table sale_invoice_sends add constraint sale_invoice_sends_status_check CHECK ((status = ANY (ARRAY['queued'::text, 'sent'::text, 'failed'::text])));
alter table sale_invoice_sends add constraint sale_invoice_sends_subject_check CHECK (((length(subject) >= 1) AND (length(subject) <= 998)));
CREATE INDEX sale_invoice_sends_created_idx ON sale_invoice_sends USING btree (company_id, created_at DESC, id);
CREATE INDEX sale_invoice_sends_invoice_idx ON sale_invoice_sends USING btree (company_id, invoice_id, created_at DESC);
CREATE TRIGGER sale_invoice_sends_keep_request BEFORE DELETE OR UPDATE ON sale_invoice_sends FOR EACH ROW EXECUTE FUNCTION sale_invoice_sends_keep_request();

create table sale_invoice_totals (
  company_id uuid not null,
  status text not null,
  type text not null,
  partner_code text not null,
  currency text not null,
  series_prefix text not null,
  month date not null,
  stripe smallint not null,
  documents bigint not null,
  net_total numeric not null,
  vat_total numeric not null,
  gross_total numeric not null,
  outstanding numeric not null
);
alter table sale_invoice_totals add constraint sale_invoice_totals_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table sale_invoice_totals add constraint sale_invoice_totals_pkey PRIMARY KEY (company_id, status, type, partner_code, currency, series_prefix, month, stripe);
alter table sale_invoice_totals add constraint sale_invoice_totals_stripe_check CHECK (((stripe >= 0) AND (stripe <= 15)));

create table sale_invoices (
  company_id uuid not null,
  id uuid default gen_random_uuid() not null,
  type text not null,
  status text default 'draft'::text not null,
  series_prefix text not null,
  series_id uuid,
  sequence bigint,
  number text,
  partner_code text not null,
  partner_snapshot jsonb,
  issue_date date not null,
  due_date date not null,
  currency text not null,
  rate numeric(18,8),
  rate_source text,
  rate_date date,
  notes text,
  credited_invoice_id uuid,
  net_total numeric(17,2) default 0 not null,
  vat_total numeric(17,2) default 0 not null,
  gross_total numeric(17,2) default 0 not null,
  gross_total_base numeric(17,2),
  vat_breakdown jsonb default '[]'::jsonb not null,
  paid_amount numeric(17,2) default 0 not null,
  credited_amount numeric(17,2) default 0 not null,
  outstanding numeric(17,2) default 0 not null,
  journal_transaction_id uuid,
  issued_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  migrated boolean default false not null,
  supply_date date,
  triangular boolean default false not null,
  annulled_at timestamp with time zone,
  annulment_transaction_id uuid
);
alter table sale_invoices add constraint sale_invoices_annulled_complete CHECK ((((status = 'annulled'::text) = (annulled_at IS NOT NULL)) AND ((annulled_at IS NULL) = (annulment_transaction_id IS NULL)) AND ((status <> 'annulled'::text) OR ((type <> 'credit_note'::text) AND (paid_amount = (0)::numeric) AND (credited_amount = (0)::numeric) AND (outstanding = (0)::numeric)))));
alter table sale_invoices add constraint sale_invoices_annulment_fkey FOREIGN KEY (company_id, annulment_transaction_id) REFERENCES journal_transactions(company_id, id);
alter table sale_invoices add constraint sale_invoices_check CHECK ((due_date >= issue_date));
alter table sale_invoices add constraint sale_invoices_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table sale_invoices add constraint sale_invoices_credit_note_target CHECK (((type = ANY (ARRAY['credit_note'::text, 'debit_note'::text])) = (credited_invoice_id IS NOT NULL)));
alter table sale_invoices add constraint sale_invoices_credit_within_gross CHECK ((credited_amount <= gross_total));
alter table sale_invoices add constraint sale_invoices_credited_amount_check CHECK ((credited_amount >= (0)::numeric));
alter table sale_invoices add constraint sale_invoices_credited_fkey FOREIGN KEY (company_id, credited_invoice_id) REFERENCES sale_invoices(company_id, id);
alter table sale_invoices add constraint sale_invoices_currency_check CHECK ((currency ~ '^[A-Z]{3}$'::text));
alter table sale_invoices add constraint sale_invoices_gross_total_base_check CHECK ((gross_total_base >= (0)::numeric));
alter table sale_invoices add constraint sale_invoices_gross_total_check CHECK ((gross_total >= (0)::numeric));
alter table sale_invoices add constraint sale_invoices_issued_complete CHECK ((((status = 'draft'::text) = (number IS NULL)) AND ((number IS NULL) = (partner_snapshot IS NULL)) AND ((number IS NULL) = (rate IS NULL)) AND ((number IS NULL) = (gross_total_base IS NULL)) AND
CASE
    WHEN migrated THEN ((status <> 'draft'::text) AND (series_id IS NULL) AND (sequence IS NULL))
    ELSE (((number IS NULL) = (series_id IS NULL)) AND ((number IS NULL) = (sequence IS NULL)) AND ((number IS NULL) = (journal_transaction_id IS NULL)))
END));
alter table sale_invoices add constraint sale_invoices_journal_fkey FOREIGN KEY (company_id, journal_transaction_id) REFERENCES journal_transactions(company_id, id);
alter table sale_invoices add constraint sale_invoices_net_total_check CHECK ((net_total >= (0)::numeric));
alter table sale_invoices add constraint sale_invoices_notes_check CHECK ((length(notes) <= 2000));
alter table sale_invoices add constraint sale_invoices_outstanding_check CHECK ((outstanding >= (0)::numeric));
alter table sale_invoices add constraint sale_invoices_paid_amount_check CHECK ((paid_amount >= (0)::numeric));
alter table sale_invoices add constraint sale_invoices_paid_within_gross CHECK ((paid_amount <= gross_total));
alter table sale_invoices add constraint sale_invoices_partner_fkey FOREIGN KEY (company_id, partner_code) REFERENCES partners(company_id, code) ON UPDATE RESTRICT;
alter table sale_invoices add constraint sale_invoices_partner_snapshot_check CHECK ((jsonb_typeof(partner_snapshot) = 'object'::text));
alter table sale_invoices add constraint sale_invoices_pkey PRIMARY KEY (company_id, id);
alter table sale_invoices add constraint sale_invoices_rate_check CHECK ((rate > (0)::numeric));
alter table sale_invoices add constraint sale_invoices_rate_source_check CHECK ((rate_source = ANY (ARRAY['base'::text, 'override'::text, 'ecb'::text])));
alter table sale_invoices add constraint sale_invoices_sequence_key UNIQUE (series_id, sequence);
alter table sale_invoices add constraint sale_invoices_series_fkey FOREIGN KEY (company_id, series_id) REFERENCES number_series(company_id, id);
alter table sale_invoices add constraint sale_invoices_series_prefix_check CHECK ((series_prefix ~ '^[A-Za-z0-9_/]{1,20}$'::text));
alter table sale_invoices add constraint sale_invoices_status_check CHECK ((status = ANY (ARRAY['draft'::text, 'issued'::text, 'partially_paid'::text, 'paid'::text, 'credited'::text, 'annulled'::text])));
alter table sale_invoices add constraint sale_invoices_supply_date_check CHECK ((supply_date <= issue_date));
alter table sale_invoices add constraint sale_invoices_type_check CHECK ((type = ANY (ARRAY['invoice'::text, 'credit_note'::text, 'debit_note'::text])));
alter table sale_invoices add constraint sale_invoices_vat_breakdown_check CHECK ((jsonb_typeof(vat_breakdown) = 'array'::text));
alter table sale_invoices add constraint sale_invoices_vat_total_check CHECK ((vat_total >= (0)::numeric));
CREATE INDEX sale_invoices_credited_idx ON sale_invoices USING btree (company_id, credited_invoice_id) WHERE (credited_invoice_id IS NOT NULL);
CREATE INDEX sale_invoices_declared_idx ON sale_invoices USING btree (company_id, issue_date, id) WHERE ((status <> 'draft'::text) AND (NOT migrated));
CREATE INDEX sale_invoices_issue_date_idx ON sale_invoices USING btree (company_id, issue_date DESC, created_at DESC, id);
CREATE INDEX sale_invoices_list_totals_idx ON sale_invoices USING btree (company_id, issue_date) INCLUDE (partner_code, status, due_date, type, currency, series_prefix, net_total, vat_total, gross_total, outstanding);
CREATE UNIQUE INDEX sale_invoices_migrated_number_key ON sale_invoices USING btree (company_id, number) WHERE migrated;
CREATE UNIQUE INDEX sale_invoices_number_key ON sale_invoices USING btree (company_id, number, EXTRACT(year FROM issue_date)) WHERE (number IS NOT NULL);
CREATE INDEX sale_invoices_open_amount_idx ON sale_invoices USING btree (company_id, outstanding) WHERE (outstanding > (0)::numeric);
CREATE INDEX sale_invoices_open_number_idx ON sale_invoices USING btree (company_id, upper(regexp_replace(number, '[^A-Za-z0-9]'::text, ''::text, 'g'::text))) WHERE (outstanding > (0)::numeric);
CREATE INDEX sale_invoices_open_partner_idx ON sale_invoices USING btree (company_id, partner_code, due_date) WHERE (outstanding > (0)::numeric);
CREATE INDEX sale_invoices_partner_idx ON sale_invoices USING btree (company_id, partner_code);
CREATE INDEX sale_invoices_status_idx ON sale_invoices USING btree (company_id, status, due_date) INCLUDE (outstanding, net_total, vat_total, gross_total, partner_code, issue_date);
CREATE TRIGGER sale_invoice_open_totals_delete AFTER DELETE ON sale_invoices REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION sale_invoice_open_totals_delete();
CREATE TRIGGER sale_invoice_open_totals_insert AFTER INSERT ON sale_invoices REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sale_invoice_open_totals_insert();
CREATE TRIGGER sale_invoice_open_totals_update AFTER UPDATE ON sale_invoices REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sale_invoice_open_totals_update();
CREATE TRIGGER sale_invoice_totals_delete AFTER DELETE ON sale_invoices REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION sale_invoice_totals_delete();
CREATE TRIGGER sale_invoice_totals_insert AFTER INSERT ON sale_invoices REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sale_invoice_totals_insert();
CREATE TRIGGER sale_invoice_totals_update AFTER UPDATE ON sale_invoices REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sale_invoice_totals_update();
CREATE TRIGGER sale_invoices_frozen BEFORE DELETE OR UPDATE ON sale_invoices FOR EACH ROW EXECUTE FUNCTION invoice_frozen();
CREATE TRIGGER vat_declared_sale_invoices_insert AFTER INSERT ON sale_invoices REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION vat_declared_sale_invoices_insert();
CREATE TRIGGER vat_declared_sale_invoices_update AFTER UPDATE ON sale_invoices REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION vat_declared_sale_invoices_update();

create table schema_definitions (
  name text not null,
  checksum text not null,
  applied_at timestamp with time zone default now() not null
);
alter table schema_definitions add constraint schema_definitions_checksum_check CHECK ((checksum ~ '^[0-9a-f]{64}$'::text));
alter table schema_definitions add constraint schema_definitions_pkey PRIMARY KEY (name);

create table stock_balances (
  company_id uuid not null,
  item_code text not null,
  warehouse_id uuid not null,
  quantity numeric(20,4) not null,
  value numeric(19,2) not null
);
alter table stock_balances add constraint stock_balances_item_fkey FOREIGN KEY (company_id, item_code) REFERENCES catalog_items(company_id, code) ON UPDATE RESTRICT;
alter table stock_balances add constraint stock_balances_match_layers TRIGGER DEFERRABLE INITIALLY DEFERRED;
alter table stock_balances add constraint stock_balances_pkey PRIMARY KEY (company_id, item_code, warehouse_id);
alter table stock_balances add constraint stock_balances_quantity_check CHECK ((quantity >= (0)::numeric));
alter table stock_balances add constraint stock_balances_value_check CHECK ((value >= (0)::numeric));
alter table stock_balances add constraint stock_balances_warehouse_fkey FOREIGN KEY (company_id, warehouse_id) REFERENCES warehouses(company_id, id);
CREATE CONSTRAINT TRIGGER stock_balances_match_layers AFTER INSERT OR DELETE OR UPDATE ON stock_balances DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION stock_balance_matches_layers();

create table stock_consumptions (
  company_id uuid not null,
  movement_id uuid not null,
  layer_id uuid not null,
  quantity numeric(16,4) not null,
  unit_cost numeric(21,6) not null,
  value numeric(17,2) not null
);
alter table stock_consumptions add constraint stock_consumptions_layer_fkey FOREIGN KEY (company_id, layer_id) REFERENCES stock_layers(company_id, id);
alter table stock_consumptions add constraint stock_consumptions_movement_fkey FOREIGN KEY (company_id, movement_id) REFERENCES stock_movements(company_id, id);
alter table stock_consumptions add constraint stock_consumptions_pkey PRIMARY KEY (company_id, movement_id, layer_id);
alter table stock_consumptions add constraint stock_consumptions_quantity_check CHECK ((quantity > (0)::numeric));
alter table stock_consumptions add constraint stock_consumptions_unit_cost_check CHECK ((unit_cost >= (0)::numeric));
alter table stock_consumptions add constraint stock_consumptions_value_check CHECK ((value >= (0)::numeric));
CREATE INDEX stock_consumptions_layer_idx ON stock_consumptions USING btree (company_id, layer_id);
CREATE TRIGGER stock_consumptions_frozen BEFORE DELETE OR UPDATE ON stock_consumptions FOR EACH ROW EXECUTE FUNCTION stock_history_frozen();

create table stock_layer_sums (
  company_id uuid not null,
  item_code text not null,
  warehouse_id uuid not null,
  quantity numeric not null,
  value numeric not null
);
alter table stock_layer_sums add constraint stock_layer_sums_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table stock_layer_sums add constraint stock_layer_sums_pkey PRIMARY KEY (company_id, item_code, warehouse_id);
CREATE TRIGGER stock_layer_sums_no_truncate BEFORE TRUNCATE ON stock_layer_sums FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
CREATE TRIGGER stock_layer_sums_written_by_layers BEFORE INSERT OR DELETE OR UPDATE ON stock_layer_sums FOR EACH ROW EXECUTE FUNCTION stock_layer_sums_written_by_layers();

create table stock_layers (
  company_id uuid not null,
  id uuid default gen_random_uuid() not null,
  seq bigint generated always as identity not null,
  movement_id uuid not null,
  warehouse_id uuid not null,
  item_code text not null,
  date date not null,
  quantity numeric(16,4) not null,
  remaining_quantity numeric(16,4) not null,
  unit_cost numeric(21,6) not null,
  value numeric(17,2) not null,
  remaining_value numeric(17,2) not null,
  lot_number text,
  expiry_date date,
  serial_number text,
  origin_layer_id uuid
);
alter table stock_layers add constraint stock_layers_empty_without_value CHECK (((remaining_quantity > (0)::numeric) OR (remaining_value = (0)::numeric)));
alter table stock_layers add constraint stock_layers_item_fkey FOREIGN KEY (company_id, item_code) REFERENCES catalog_items(company_id, code) ON UPDATE RESTRICT;
alter table stock_layers add constraint stock_layers_lot_number_check CHECK (((length(lot_number) >= 1) AND (length(lot_number) <= 64)));
alter table stock_layers add constraint stock_layers_match_balance TRIGGER DEFERRABLE INITIALLY DEFERRED;
alter table stock_layers add constraint stock_layers_movement_fkey FOREIGN KEY (company_id, movement_id) REFERENCES stock_movements(company_id, id);
alter table stock_layers add constraint stock_layers_origin_fkey FOREIGN KEY (company_id, origin_layer_id) REFERENCES stock_layers(company_id, id);
alter table stock_layers add constraint stock_layers_pkey PRIMARY KEY (company_id, id);
alter table stock_layers add constraint stock_layers_quantity_check CHECK ((quantity > (0)::numeric));
alter table stock_layers add constraint stock_layers_remaining_quantity CHECK (((remaining_quantity >= (0)::numeric) AND (remaining_quantity <= quantity)));
alter table stock_layers add constraint stock_layers_remaining_value CHECK (((remaining_value >= (0)::numeric) AND (remaining_value <= value)));
alter table stock_layers add constraint stock_layers_serial_number_check CHECK (((length(serial_number) >= 1) AND (length(serial_number) <= 64)));
alter table stock_layers add constraint stock_layers_serial_one_unit CHECK (((serial_number IS NULL) OR (quantity = (1)::numeric)));
alter table stock_layers add constraint stock_layers_unit_cost_check CHECK ((unit_cost >= (0)::numeric));
alter table stock_layers add constraint stock_layers_value_check CHECK ((value >= (0)::numeric));
alter table stock_layers add constraint stock_layers_warehouse_fkey FOREIGN KEY (company_id, warehouse_id) REFERENCES warehouses(company_id, id);
CREATE INDEX stock_layers_fifo_idx ON stock_layers USING btree (company_id, item_code, warehouse_id, date, seq) WHERE (remaining_quantity > (0)::numeric);
CREATE UNIQUE INDEX stock_layers_serial_in_stock ON stock_layers USING btree (company_id, item_code, serial_number) WHERE ((serial_number IS NOT NULL) AND (remaining_quantity > (0)::numeric));
CREATE TRIGGER stock_layer_sums_insert AFTER INSERT ON stock_layers REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stock_layer_sums_insert();
CREATE TRIGGER stock_layer_sums_update AFTER UPDATE ON stock_layers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stock_layer_sums_update();
CREATE TRIGGER stock_layers_frozen BEFORE DELETE OR UPDATE OF company_id, id, seq, movement_id, warehouse_id, item_code, date, quantity, unit_cost, value, lot_number, expiry_date, serial_number, origin_layer_id ON stock_layers FOR EACH ROW EXECUTE FUNCTION stock_layers_frozen();
CREATE CONSTRAINT TRIGGER stock_layers_match_balance AFTER INSERT OR DELETE OR UPDATE OF remaining_quantity, remaining_value ON stock_layers DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION stock_balance_matches_layers();
CREATE TRIGGER stock_levels_within_bounds AFTER INSERT ON stock_layers REFERENCING NEW TABLE AS new_layers FOR EACH STATEMENT EXECUTE FUNCTION stock_levels_within_bounds();

create table stock_movements (
  company_id uuid not null,
  id uuid default gen_random_uuid() not null,
  operation_id uuid not null,
  line_no smallint not null,
  direction text not null,
  date date not null,
  warehouse_id uuid not null,
  item_code text not null,
  quantity numeric(16,4) not null,
  value numeric(17,2) not null,
  created_at timestamp with time zone default now() not null
);
alter table stock_movements add constraint stock_movements_direction_check CHECK ((direction = ANY (ARRAY['in'::text, 'out'::text])));
alter table stock_movements add constraint stock_movements_item_fkey FOREIGN KEY (company_id, item_code) REFERENCES catalog_items(company_id, code) ON UPDATE RESTRICT;
alter table stock_movements add constraint stock_movements_line_key UNIQUE (company_id, operation_id, line_no);
alter table stock_movements add constraint stock_movements_line_no_check CHECK (((line_no >= 1) AND (line_no <= 1000)));
alter table stock_movements add constraint stock_movements_operation_fkey FOREIGN KEY (company_id, operation_id) REFERENCES stock_operations(company_id, id);
alter table stock_movements add constraint stock_movements_pkey PRIMARY KEY (company_id, id);
alter table stock_movements add constraint stock_movements_quantity_check CHECK ((quantity <> (0)::numeric));
alter table stock_movements add constraint stock_movements_signs CHECK (
CASE direction
    WHEN 'in'::text THEN ((quantity > (0)::numeric) AND (value >= (0)::numeric))
    ELSE ((quantity < (0)::numeric) AND (value <= (0)::numeric))
END);
alter table stock_movements add constraint stock_movements_warehouse_fkey FOREIGN KEY (company_id, warehouse_id) REFERENCES warehouses(company_id, id);
CREATE INDEX stock_movements_date_idx ON stock_movements USING btree (company_id, date, item_code, warehouse_id);
CREATE INDEX stock_movements_item_idx ON stock_movements USING btree (company_id, item_code, warehouse_id, date);
CREATE TRIGGER stock_movements_frozen BEFORE DELETE OR UPDATE ON stock_movements FOR EACH ROW EXECUTE FUNCTION stock_history_frozen();

create table stock_operations (
  company_id uuid not null,
  id uuid default gen_random_uuid() not null,
  kind text not null,
  date date not null,
  warehouse_id uuid not null,
  to_warehouse_id uuid,
  journal_transaction_id uuid,
  source_type text,
  source_id uuid,
  notes text,
  created_by_key_id uuid,
  created_at timestamp with time zone default now() not null
);
alter table stock_operations add constraint stock_operations_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table stock_operations add constraint stock_operations_journal_fkey FOREIGN KEY (company_id, journal_transaction_id) REFERENCES journal_transactions(company_id, id);
alter table stock_operations add constraint stock_operations_kind_check CHECK ((kind = ANY (ARRAY['receipt'::text, 'transfer'::text, 'write_off'::text, 'take'::text, 'sale_invoice'::text, 'purchase_invoice'::text, 'migration'::text])));
alter table stock_operations add constraint stock_operations_notes_check CHECK ((length(notes) <= 1000));
alter table stock_operations add constraint stock_operations_pkey PRIMARY KEY (company_id, id);
alter table stock_operations add constraint stock_operations_source CHECK (((source_type IS NULL) = (source_id IS NULL)));
alter table stock_operations add constraint stock_operations_source_type_check CHECK ((source_type = ANY (ARRAY['sale_invoice'::text, 'sale_credit_note'::text, 'purchase_invoice'::text, 'purchase_credit_note'::text])));
alter table stock_operations add constraint stock_operations_to_warehouse_fkey FOREIGN KEY (company_id, to_warehouse_id) REFERENCES warehouses(company_id, id);
alter table stock_operations add constraint stock_operations_transfer_target CHECK ((((kind = 'transfer'::text) = (to_warehouse_id IS NOT NULL)) AND (to_warehouse_id IS DISTINCT FROM warehouse_id)));
alter table stock_operations add constraint stock_operations_warehouse_fkey FOREIGN KEY (company_id, warehouse_id) REFERENCES warehouses(company_id, id);
CREATE INDEX stock_operations_source_idx ON stock_operations USING btree (company_id, source_id) WHERE (source_id IS NOT NULL);
CREATE TRIGGER stock_operations_open_period BEFORE INSERT ON stock_operations FOR EACH ROW EXECUTE FUNCTION stock_operation_checks();

create table vat_classifiers (
  country_code text not null,
  code text not null,
  kind text not null,
  rate numeric(5,2) not null,
  valid_from date not null,
  valid_to date,
  name text not null,
  description text not null,
  source text not null,
  default_for_rate boolean default false not null,
  replaced_by text[] default '{}'::text[] not null
);
alter table vat_classifiers add constraint vat_classifiers_check CHECK ((valid_to >= valid_from));
alter table vat_classifiers add constraint vat_classifiers_code_check CHECK ((code ~ '^PVM[0-9]{1,3}$'::text));
alter table vat_classifiers add constraint vat_classifiers_country_code_check CHECK ((country_code ~ '^[A-Z]{2}$'::text));
alter table vat_classifiers add constraint vat_classifiers_kind_check CHECK ((kind = ANY (ARRAY['standard'::text, 'reduced'::text, 'zero'::text, 'exempt'::text, 'outside_scope'::text, 'reverse_charge'::text, 'triangular'::text])));
alter table vat_classifiers add constraint vat_classifiers_pkey PRIMARY KEY (country_code, code, valid_from);
alter table vat_classifiers add constraint vat_classifiers_rate_check CHECK (((rate >= (0)::numeric) AND (rate <= (100)::numeric)));

create table vat_declared_account_sums (
  company_id uuid not null,
  month date not null,
  account_code text not null,
  stripe smallint not null,
  declared numeric not null,
  posted numeric not null,
  differing bigint not null
);
alter table vat_declared_account_sums add constraint vat_declared_account_sums_month_check CHECK ((month = date_trunc('month'::text, (month)::timestamp with time zone)));
alter table vat_declared_account_sums add constraint vat_declared_account_sums_pkey PRIMARY KEY (company_id, month, account_code, stripe);
alter table vat_declared_account_sums add constraint vat_declared_account_sums_stripe_check CHECK (((stripe >= 0) AND (stripe <= 15)));
CREATE TRIGGER vat_declared_account_sums_no_truncate BEFORE TRUNCATE ON vat_declared_account_sums FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
CREATE TRIGGER vat_declared_account_sums_written_by_store BEFORE INSERT OR DELETE OR UPDATE ON vat_declared_account_sums FOR EACH STATEMENT EXECUTE FUNCTION vat_declared_written_by_store();

create table vat_declared_accounts (
  company_id uuid not null,
  side text not null,
  document_id uuid not null,
  decl_date date not null,
  journal_transaction_id uuid,
  account_code text not null,
  declared numeric(17,2) not null,
  posted numeric(17,2) not null
);
alter table vat_declared_accounts add constraint vat_declared_accounts_pkey PRIMARY KEY (company_id, document_id, account_code);
alter table vat_declared_accounts add constraint vat_declared_accounts_side_check CHECK ((side = ANY (ARRAY['sale'::text, 'purchase'::text])));
CREATE TRIGGER vat_declared_accounts_no_truncate BEFORE TRUNCATE ON vat_declared_accounts FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
CREATE TRIGGER vat_declared_accounts_written_by_store BEFORE INSERT OR DELETE OR UPDATE ON vat_declared_accounts FOR EACH STATEMENT EXECUTE FUNCTION vat_declared_written_by_store();

create table vat_declared_rows (
  company_id uuid not null,
  side text not null,
  document_id uuid not null,
  ord integer not null,
  type text not null,
  annulled boolean not null,
  sign smallint not null,
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
  nonded numeric(17,2)
);
alter table vat_declared_rows add constraint vat_declared_rows_check CHECK (((side = 'sale'::text) = ((ded IS NULL) AND (nonded IS NULL))));
alter table vat_declared_rows add constraint vat_declared_rows_ord_check CHECK ((ord >= 0));
alter table vat_declared_rows add constraint vat_declared_rows_pkey PRIMARY KEY (company_id, document_id, ord);
alter table vat_declared_rows add constraint vat_declared_rows_side_check CHECK ((side = ANY (ARRAY['sale'::text, 'purchase'::text])));
alter table vat_declared_rows add constraint vat_declared_rows_sign_check CHECK (((sign >= '-1'::integer) AND (sign <= 1)));
CREATE INDEX vat_declared_rows_classifier_idx ON vat_declared_rows USING btree (company_id, side, classifier, decl_date, doc_no, document_id, rate_pct);
CREATE INDEX vat_declared_rows_transaction_idx ON vat_declared_rows USING btree (company_id, journal_transaction_id) WHERE (journal_transaction_id IS NOT NULL);
CREATE TRIGGER vat_declared_rows_no_truncate BEFORE TRUNCATE ON vat_declared_rows FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
CREATE TRIGGER vat_declared_rows_written_by_store BEFORE INSERT OR DELETE OR UPDATE ON vat_declared_rows FOR EACH STATEMENT EXECUTE FUNCTION vat_declared_written_by_store();

create table vat_declared_sums (
  company_id uuid not null,
  month date not null,
  side text not null,
  classifier text not null,
  rate_pct numeric(5,2) not null,
  stripe smallint not null,
  documents bigint not null,
  base numeric not null,
  vat numeric not null,
  ded numeric not null
);
alter table vat_declared_sums add constraint vat_declared_sums_month_check CHECK ((month = date_trunc('month'::text, (month)::timestamp with time zone)));
alter table vat_declared_sums add constraint vat_declared_sums_pkey PRIMARY KEY (company_id, month, side, classifier, rate_pct, stripe);
alter table vat_declared_sums add constraint vat_declared_sums_stripe_check CHECK (((stripe >= 0) AND (stripe <= 15)));
CREATE TRIGGER vat_declared_sums_no_truncate BEFORE TRUNCATE ON vat_declared_sums FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
CREATE TRIGGER vat_declared_sums_written_by_store BEFORE INSERT OR DELETE OR UPDATE ON vat_declared_sums FOR EACH STATEMENT EXECUTE FUNCTION vat_declared_written_by_store();

create table vat_rates (
  country_code text not null,
  kind text not null,
  rate numeric(5,2) not null,
  valid_from date not null,
  valid_to date,
  description text not null
);
alter table vat_rates add constraint vat_rates_check CHECK ((valid_to >= valid_from));
alter table vat_rates add constraint vat_rates_country_code_check CHECK ((country_code ~ '^[A-Z]{2}$'::text));
alter table vat_rates add constraint vat_rates_kind_check CHECK ((kind = ANY (ARRAY['standard'::text, 'reduced'::text, 'super_reduced'::text, 'parking'::text, 'zero'::text])));
alter table vat_rates add constraint vat_rates_pkey PRIMARY KEY (country_code, kind, rate, valid_from);
alter table vat_rates add constraint vat_rates_rate_check CHECK (((rate >= (0)::numeric) AND (rate <= (100)::numeric)));

create table warehouses (
  company_id uuid not null,
  id uuid default gen_random_uuid() not null,
  code text not null,
  name text not null,
  is_default boolean default false not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null
);
alter table warehouses add constraint warehouses_code_check CHECK (((length(code) >= 1) AND (length(code) <= 64)));
alter table warehouses add constraint warehouses_code_key UNIQUE (company_id, code);
alter table warehouses add constraint warehouses_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table warehouses add constraint warehouses_name_check CHECK (((length(name) >= 1) AND (length(name) <= 255)));
alter table warehouses add constraint warehouses_pkey PRIMARY KEY (company_id, id);
CREATE UNIQUE INDEX warehouses_one_default ON warehouses USING btree (company_id) WHERE is_default;

create table webhook_deliveries (
  company_id uuid not null,
  id uuid default gen_random_uuid() not null,
  subscription_id uuid not null,
  event_id uuid not null,
  event_seq bigint not null,
  event_type text not null,
  status text not null,
  attempts integer default 0 not null,
  scheduled_attempts integer default 0 not null,
  next_attempt_at timestamp with time zone,
  last_attempt_at timestamp with time zone,
  last_response_status integer,
  last_error text,
  delivered_at timestamp with time zone,
  lease_job_id text,
  lease_until timestamp with time zone,
  created_at timestamp with time zone default now() not null
);
alter table webhook_deliveries add constraint webhook_deliveries_company_id_event_id_fkey FOREIGN KEY (company_id, event_id) REFERENCES webhook_events(company_id, id);
alter table webhook_deliveries add constraint webhook_deliveries_company_id_subscription_id_event_id_key UNIQUE (company_id, subscription_id, event_id);
alter table webhook_deliveries add constraint webhook_deliveries_company_id_subscription_id_fkey FOREIGN KEY (company_id, subscription_id) REFERENCES webhook_subscriptions(company_id, id) ON DELETE CASCADE;
alter table webhook_deliveries add constraint webhook_deliveries_pkey PRIMARY KEY (company_id, id);
alter table webhook_deliveries add constraint webhook_deliveries_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'held'::text, 'succeeded'::text, 'failed'::text])));
CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries USING btree (company_id, event_id);
CREATE INDEX webhook_deliveries_list_idx ON webhook_deliveries USING btree (company_id, created_at DESC);
CREATE INDEX webhook_deliveries_subscription_idx ON webhook_deliveries USING btree (company_id, subscription_id, status, event_seq);

create table webhook_events (
  company_id uuid not null,
  id uuid default gen_random_uuid() not null,
  seq bigint generated always as identity not null,
  event_type text not null,
  version text not null,
  data jsonb not null,
  created_at timestamp with time zone default now() not null
);
alter table webhook_events add constraint webhook_events_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table webhook_events add constraint webhook_events_pkey PRIMARY KEY (company_id, id);
CREATE INDEX webhook_events_company_seq_idx ON webhook_events USING btree (company_id, seq);
CREATE INDEX webhook_events_created_idx ON webhook_events USING btree (created_at);
CREATE INDEX webhook_events_list_idx ON webhook_events USING btree (company_id, created_at DESC, seq);
CREATE INDEX webhook_events_object_idx ON webhook_events USING btree (company_id, webhook_event_object_id(data));

create table webhook_subscriptions (
  company_id uuid not null,
  id uuid default gen_random_uuid() not null,
  url text not null,
  event_types text[] not null,
  description text,
  owner_emails text[] default '{}'::text[] not null,
  status text default 'active'::text not null,
  secret_sealed bytea not null,
  previous_secret_sealed bytea,
  previous_secret_expires_at timestamp with time zone,
  consecutive_failures integer default 0 not null,
  paused_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null
);
alter table webhook_subscriptions add constraint webhook_subscriptions_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
alter table webhook_subscriptions add constraint webhook_subscriptions_consecutive_failures_check CHECK ((consecutive_failures >= 0));
alter table webhook_subscriptions add constraint webhook_subscriptions_event_types_check CHECK (((cardinality(event_types) >= 1) AND (cardinality(event_types) <= 100)));
alter table webhook_subscriptions add constraint webhook_subscriptions_pkey PRIMARY KEY (company_id, id);
alter table webhook_subscriptions add constraint webhook_subscriptions_status_check CHECK ((status = ANY (ARRAY['active'::text, 'paused'::text])));
alter table webhook_subscriptions add constraint webhook_subscriptions_url_check CHECK (((length(url) >= 1) AND (length(url) <= 2048)));
CREATE INDEX webhook_subscriptions_company_idx ON webhook_subscriptions USING btree (company_id, created_at);

create table worker_registry (
  worker_id text not null,
  process_id text not null,
  registered_at timestamp with time zone default now() not null
);
alter table worker_registry add constraint worker_registry_pkey PRIMARY KEY (worker_id);
CREATE INDEX worker_registry_process_idx ON worker_registry USING btree (process_id);

CREATE OR REPLACE FUNCTION api_gate(p_key_id uuid, p_company_id uuid, p_secret_hash bytea, p_address text)
 RETURNS TABLE(id uuid, account_id uuid, scopes text[], company_ids uuid[], rate_limit_per_minute integer, payment_required boolean, company_id uuid, country_code text, base_currency text, invoice_currency text, count integer, reset numeric)
 LANGUAGE plpgsql
AS $function$
    #variable_conflict use_column
    begin
      return query
      with k as (
        select k.id, k.account_id, k.scopes, k.company_ids, k.rate_limit_per_minute,
               (a.trial_ends_at is not null and a.trial_ends_at < current_date and a.prepaid_credit <= 0) as payment_required
          from api_keys k join accounts a on a.id = k.account_id
         where k.id = p_key_id and k.secret_hash = p_secret_hash and k.revoked_at is null
      ), c as (
        select c.id as company_id, c.country_code::text, c.base_currency::text, c.invoice_currency::text
          from companies c join k on c.account_id = k.account_id
         where c.id = coalesce(p_company_id, case when cardinality(k.company_ids) = 1 then k.company_ids[1] end)
      ), rl as (
        insert into rate_limit_counters as r (bucket, window_start, count)
        values (coalesce((select 'key:' || k.id from k), 'ip:' || p_address), date_trunc('minute', now()), 1)
        on conflict (bucket, window_start) do update set count = r.count + 1
        returning r.count, ceil(extract(epoch from r.window_start + interval '1 minute' - now())) as reset
      )
      select k.id, k.account_id, k.scopes, k.company_ids, k.rate_limit_per_minute, k.payment_required,
             c.company_id, c.country_code, c.base_currency, c.invoice_currency, rl.count, rl.reset
        from rl left join k on true left join c on true;
    end
    $function$;

CREATE OR REPLACE FUNCTION api_key_write_guard(p_key_id uuid)
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
    begin
      perform pg_advisory_xact_lock_shared(7303, hashtext(p_key_id::text));
      return exists (select 1 from api_keys where id = p_key_id and revoked_at is null);
    end $function$;

CREATE OR REPLACE FUNCTION asset_depreciation_run_checks()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      if tg_op = 'DELETE' or old.reversed_at is not null or new.reversed_at is null
         or (new.company_id, new.month, new.run_no, new.asset_count, new.total, new.posted_at) is distinct from
            (old.company_id, old.month, old.run_no, old.asset_count, old.total, old.posted_at)
         or new.created_by_key_id is distinct from old.created_by_key_id then
        raise exception 'a posted depreciation month cannot be changed or deleted, only reversed once' using errcode = 'integrity_constraint_violation';
      end if;
      if exists (select 1 from asset_depreciation_run_transactions t
                  where t.company_id = old.company_id and t.month = old.month and t.run_no = old.run_no and t.reversal_transaction_id is null) then
        raise exception 'depreciation run %/% cannot be marked reversed while a transaction of it is not reversed', old.month, old.run_no
          using errcode = 'integrity_constraint_violation';
      end if;
      return new;
    end $function$;

CREATE OR REPLACE FUNCTION asset_depreciation_run_transaction_checks()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      if tg_op = 'INSERT' then
        if exists (select 1 from asset_depreciation_runs r
                    where r.company_id = new.company_id and r.month = new.month and r.run_no = new.run_no and r.reversed_at is not null) then
          raise exception 'depreciation run %/% is reversed: no transaction can be added to it', new.month, new.run_no using errcode = 'integrity_constraint_violation';
        end if;
        return new;
      end if;
      if tg_op = 'DELETE' or old.reversal_transaction_id is not null or new.reversal_transaction_id is null
         or (new.company_id, new.month, new.run_no, new.part, new.journal_transaction_id)
            is distinct from (old.company_id, old.month, old.run_no, old.part, old.journal_transaction_id) then
        raise exception 'a depreciation run''s transaction cannot be changed or deleted, only reversed once' using errcode = 'integrity_constraint_violation';
      end if;
      if not exists (select 1 from journal_transactions j
                      where j.company_id = new.company_id and j.id = new.reversal_transaction_id and j.reverses_id = new.journal_transaction_id) then
        raise exception 'journal transaction % does not reverse %', new.reversal_transaction_id, new.journal_transaction_id using errcode = 'integrity_constraint_violation';
      end if;
      return new;
    end $function$;

CREATE OR REPLACE FUNCTION invoice_frozen()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    
    begin
      if old.status = 'draft' then
        return case when tg_op = 'DELETE' then old else new end;
      end if;
      if tg_op = 'DELETE' then
        raise exception 'an issued or registered document cannot be deleted' using errcode = 'P0001', constraint = 'invoice_frozen';
      end if;
      if old.status = 'annulled' then
        raise exception 'an annulled document cannot be changed' using errcode = 'P0001', constraint = 'invoice_frozen';
      end if;
      if new.status = 'draft'
         or (to_jsonb(old) - array['status', 'paid_amount', 'credited_amount', 'outstanding', 'updated_at', 'annulled_at', 'annulment_transaction_id'])
            is distinct from (to_jsonb(new) - array['status', 'paid_amount', 'credited_amount', 'outstanding', 'updated_at', 'annulled_at', 'annulment_transaction_id'])
         or (new.status <> 'annulled' and (to_jsonb(new) -> 'annulled_at') is distinct from (to_jsonb(old) -> 'annulled_at')) then
        raise exception 'an issued or registered document cannot be changed' using errcode = 'P0001', constraint = 'invoice_frozen';
      end if;
      return new;
    end $function$;

CREATE OR REPLACE FUNCTION journal_entries_checks()
 RETURNS trigger
 LANGUAGE plpgsql
 SET enable_seqscan TO 'off'
AS $function$
    declare
      bad record;
    begin
      select e.transaction_id, e.date, h.id is not null and h.open_xid = pg_current_xact_id() as own_header, h.date as header_date
        into bad
        from (select distinct n.company_id, n.transaction_id, n.date from new_entries n) e
        left join journal_transactions h on h.company_id = e.company_id and h.id = e.transaction_id
       where h.id is null or h.open_xid is distinct from pg_current_xact_id() or e.date <> h.date
       limit 1;
      if found then
        if not bad.own_header then
          raise exception 'entries can only be added in the transaction that creates their journal transaction'
            using errcode = 'check_violation', constraint = 'journal_entries_with_header';
        end if;
        raise exception 'entry date % differs from its transaction date %', bad.date, bad.header_date
          using errcode = 'check_violation', constraint = 'journal_entries_date';
      end if;
      -- Held until commit: the accounts cannot be deleted or re-keyed under these lines meanwhile.
      perform 1
         from ledger_accounts a
        where (a.company_id, a.code) in (select distinct n.company_id, n.account_code from new_entries n)
          for key share of a;
      select e.account_code into bad
        from (select distinct n.company_id, n.account_code from new_entries n) e
        left join ledger_accounts a on a.company_id = e.company_id and a.code = e.account_code
       where a.is_postable is not true
       limit 1;
      if found then
        raise exception 'account % is not postable', bad.account_code
          using errcode = 'check_violation', constraint = 'journal_entries_postable_account';
      end if;
      return null;
    end $function$;

CREATE OR REPLACE FUNCTION journal_transaction_balanced()
 RETURNS trigger
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
    declare
      debits numeric;
      credits numeric;
      lines int;
    begin
      select coalesce(sum(debit), 0), coalesce(sum(credit), 0), count(*) into debits, credits, lines
        from journal_entries where company_id = new.company_id and transaction_id = new.id;
      if lines < 2 or debits <> credits or debits <> new.total then
        raise exception 'journal transaction % does not balance (% lines, debits %, credits %, total %)', new.id, lines, debits, credits, new.total
          using errcode = 'check_violation', constraint = 'journal_transactions_balanced';
      end if;
      return null;
    end $function$;

CREATE OR REPLACE FUNCTION journal_transactions_checks()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    declare
      bad record;
    begin
      perform pg_advisory_xact_lock_shared(7301, hashtext(c.company_id::text))
         from (select distinct company_id from new_headers order by company_id) c;
      select h.id into bad from new_headers h where h.open_xid is distinct from pg_current_xact_id() limit 1;
      if found then
        raise exception 'open_xid of journal transaction % is set by the database', bad.id
          using errcode = 'check_violation', constraint = 'journal_transactions_open_xid';
      end if;
      select n.company_id, n.month into bad
        from (select distinct company_id, date_trunc('month', date)::date as month from new_headers) n
       where ledger_month_locked(n.company_id, n.month)
       limit 1;
      if found then
        raise exception 'period % of company % is locked', to_char(bad.month, 'YYYY-MM'), bad.company_id
          using errcode = 'check_violation', constraint = 'ledger_period_locked';
      end if;
      return null;
    end $function$;

CREATE OR REPLACE FUNCTION ledger_account_checks()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      if new.parent_code is not null and (select is_postable from ledger_accounts where company_id = new.company_id and code = new.parent_code) then
        raise exception 'parent account % is postable', new.parent_code
          using errcode = 'check_violation', constraint = 'ledger_accounts_parent_not_postable';
      end if;
      if tg_op = 'UPDATE' then
        if new.is_postable and not old.is_postable and exists (select 1 from ledger_accounts where company_id = new.company_id and parent_code = new.code) then
          raise exception 'account % has sub-accounts and cannot be postable', new.code
            using errcode = 'check_violation', constraint = 'ledger_accounts_parent_not_postable';
        end if;
        if (new.type <> old.type or (old.is_postable and not new.is_postable))
           and exists (select 1 from journal_entries where company_id = new.company_id and account_code = new.code) then
          raise exception 'account % has postings', new.code
            using errcode = 'check_violation', constraint = 'ledger_accounts_has_postings';
        end if;
      end if;
      return new;
    end $function$;

CREATE OR REPLACE FUNCTION ledger_accounts_entries_guard()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      if tg_op = 'UPDATE' and new.company_id = old.company_id and new.code = old.code then
        return new;
      end if;
      if exists (select 1 from journal_entries e where e.company_id = old.company_id and e.account_code = old.code) then
        raise exception 'account % has journal entries', old.code
          using errcode = 'foreign_key_violation', constraint = 'journal_entries_account_fkey';
      end if;
      return case when tg_op = 'DELETE' then old else new end;
    end $function$;

CREATE OR REPLACE FUNCTION ledger_balances_move()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      perform set_config('ledger.balances_writer', 'journal_entries', true);
      insert into ledger_balances as b (company_id, account_code, month, partner_code, stripe, debit, credit)
      select n.company_id, n.account_code, date_trunc('month', n.date)::date, n.partner_code, (pg_backend_pid() % 16)::smallint,
             sum(n.debit), sum(n.credit)
        from new_entries n
       group by n.company_id, n.account_code, date_trunc('month', n.date)::date, n.partner_code
       order by n.company_id, n.account_code, date_trunc('month', n.date)::date, n.partner_code
      on conflict (company_id, account_code, month, partner_code, stripe) do update
         set debit = b.debit + excluded.debit, credit = b.credit + excluded.credit;
      perform set_config('ledger.balances_writer', '', true);
      return null;
    end $function$;

CREATE OR REPLACE FUNCTION ledger_balances_written_by_journal()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      if pg_trigger_depth() < 2 or current_setting('ledger.balances_writer', true) is distinct from 'journal_entries' then
        raise exception '% is kept by the journal entries'' trigger only (%)', tg_table_name, tg_op
          using errcode = 'integrity_constraint_violation', constraint = 'ledger_balances_written_by_journal';
      end if;
      return null;
    end $function$;

CREATE OR REPLACE FUNCTION ledger_day_balances_move()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      perform set_config('ledger.balances_writer', 'journal_entries', true);
      insert into ledger_day_balances as b (company_id, day, account_code, stripe, debit, credit)
      select n.company_id, n.date, n.account_code, (pg_backend_pid() % 16)::smallint, sum(n.debit), sum(n.credit)
        from new_entries n
       group by n.company_id, n.date, n.account_code
       order by n.company_id, n.date, n.account_code
      on conflict (company_id, day, account_code, stripe) do update
         set debit = b.debit + excluded.debit, credit = b.credit + excluded.credit;
      perform set_config('ledger.balances_writer', '', true);
      return null;
    end $function$;

CREATE OR REPLACE FUNCTION ledger_month_locked(p_company_id uuid, p_date date)
 RETURNS boolean
 LANGUAGE sql
 STABLE
AS $function$
      select exists (select 1 from ledger_period_locks l where l.company_id = p_company_id and l.month = date_trunc('month', p_date))
          or exists (select 1 from ledger_locked_through t where t.company_id = p_company_id and t.month >= date_trunc('month', p_date))
    $function$;

CREATE OR REPLACE FUNCTION ledger_post(p_company_id uuid, p_year integer, p_date date, p_description text, p_reference text, p_document_type text, p_source_type text, p_source_id text, p_reverses_id uuid, p_total numeric, p_account_codes text[], p_partner_codes text[], p_created_by_key_id uuid, l_accounts text[], l_debits numeric[], l_credits numeric[], l_partners text[], l_currencies text[], l_currency_amounts numeric[], l_rates numeric[], l_descriptions text[])
 RETURNS TABLE(company_id uuid, id uuid, number text, date date, description text, reference text, document_type text, source_type text, source_id text, reverses_id uuid, total numeric, account_codes text[], partner_codes text[], created_by_key_id uuid, created_at timestamp with time zone, entries json)
 LANGUAGE plpgsql
 ROWS 1
AS $function$
    #variable_conflict use_column
    begin
      -- A numbered posting waits for the series row's lock, which its holder keeps until commit. Waiting on a row, the
      -- waiters are not served in order (each waits on the version it found; a newer one goes to whoever arrives after
      -- an update), so under load some wait many turns (issue 26: p99 several times the p50). So the posters of one
      -- series first queue for an advisory lock on it (class 7305; PostgreSQL grants one lock's waiters in order, and
      -- releases it at commit with the row's), and then find the row free. Without a journal series: no lock.
      perform pg_advisory_xact_lock(7305, hashtext(ns.id::text))
         from number_series ns
        where ns.company_id = p_company_id and ns.document_type = 'journal' and ns.year = p_year
        order by ns.created_at, ns.id limit 1;
      return query
      with taken as (
        update number_series s set next_number = s.next_number + 1, updated_at = now()
          from (select ns.id from number_series ns where ns.company_id = p_company_id and ns.document_type = 'journal' and ns.year = p_year
                 order by ns.created_at, ns.id limit 1 for update) target
         where s.company_id = p_company_id and s.id = target.id
         returning s.prefix || '-' || (s.next_number - 1) as number
      ), header as (
        insert into journal_transactions (company_id, number, date, description, reference, document_type, source_type, source_id,
                                          reverses_id, total, account_codes, partner_codes, created_by_key_id)
        values (p_company_id, (select t.number from taken t), p_date, p_description, p_reference, p_document_type, p_source_type, p_source_id,
                p_reverses_id, p_total, p_account_codes, p_partner_codes, p_created_by_key_id)
        returning *
      ), lines as (
        insert into journal_entries (company_id, transaction_id, line_no, date, account_code, debit, credit, partner_code,
                                     currency, currency_amount, rate, description)
        select h.company_id, h.id, l.line_no, h.date, l.account_code, l.debit, l.credit, l.partner_code,
               l.currency, l.currency_amount, l.rate, l.description
          from header h,
               unnest(l_accounts, l_debits, l_credits, l_partners, l_currencies, l_currency_amounts, l_rates, l_descriptions)
                 with ordinality as l(account_code, debit, credit, partner_code, currency, currency_amount, rate, description, line_no)
        returning *
      )
      -- Amounts leave as text: a JSON number would become a JS float.
      select h.company_id, h.id, h.number, h.date, h.description, h.reference, h.document_type, h.source_type, h.source_id,
             h.reverses_id, h.total, h.account_codes, h.partner_codes, h.created_by_key_id, h.created_at,
             (select json_agg(json_build_object(
                       'line_no', l.line_no, 'account_code', l.account_code, 'debit', l.debit::text, 'credit', l.credit::text,
                       'partner_code', l.partner_code, 'currency', l.currency, 'currency_amount', l.currency_amount::text,
                       'rate', l.rate::text, 'description', l.description) order by l.line_no)
                from lines l)
        from header h;
    end
    $function$;

CREATE OR REPLACE FUNCTION ledger_posting_context(p_company_id uuid, p_account_codes text[], p_partner_codes text[], p_date date)
 RETURNS TABLE(accounts json, partners json, locked boolean)
 LANGUAGE plpgsql
 STABLE
AS $function$
    begin
      return query
      select (select coalesce(json_agg(json_build_array(a.code, a.is_postable)), '[]') from ledger_accounts a where a.company_id = p_company_id and a.code = any(p_account_codes)),
             (select coalesce(json_agg(p.code), '[]') from partners p where p.company_id = p_company_id and p.code = any(p_partner_codes)),
             ledger_month_locked(p_company_id, p_date);
    end
    $function$;

CREATE OR REPLACE FUNCTION migration_imports_immutable()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      raise exception 'migration_imports rows are never changed or deleted' using errcode = '55000';
    end $function$;

CREATE OR REPLACE FUNCTION number_series_never_lowered()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      if new.next_number < old.next_number then
        raise exception 'number series % cannot be lowered from % to %', old.id, old.next_number, new.next_number
          using errcode = 'check_violation', constraint = 'number_series_never_lowered';
      end if;
      return new;
    end $function$;

CREATE OR REPLACE FUNCTION posting_rules_stock_held()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    declare
      k_company uuid := case when tg_op = 'DELETE' then old.company_id else new.company_id end;
    begin
      if tg_op = 'UPDATE' and new.account_code = old.account_code then
        return new;
      end if;
      perform pg_advisory_xact_lock(7304, hashtext(k_company::text));
      if exists (select 1 from stock_layer_sums s where s.company_id = k_company and s.value > 0) then
        raise exception 'the stock layers of company % hold value: the posting rule inventory.stock cannot change', k_company
          using errcode = 'check_violation', constraint = 'posting_rules_stock_held';
      end if;
      return case when tg_op = 'DELETE' then old else new end;
    end $function$;

CREATE OR REPLACE FUNCTION purchase_invoice_lines_frozen()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    declare
      parent_status text;
    begin
      select d.status into parent_status from purchase_invoices d
       where d.company_id = case when tg_op = 'DELETE' then old.company_id else new.company_id end
         and d.id = case when tg_op = 'DELETE' then old.invoice_id else new.invoice_id end;
      -- A cascade from deleting a draft finds no parent any more.
      if parent_status is not null and parent_status <> 'draft' then
        raise exception 'the lines of an issued or registered document cannot change' using errcode = 'P0001', constraint = 'invoice_frozen';
      end if;
      return case when tg_op = 'DELETE' then old else new end;
    end $function$;

CREATE OR REPLACE FUNCTION purchase_invoice_open_totals_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      begin
        
      insert into purchase_invoice_open_totals as t (company_id, status, type, partner_code, currency, vat_treatment, due_date, stripe, documents, net_total, vat_total, gross_total, outstanding)
      select company_id, status, type, partner_code, currency, vat_treatment, due_date, (pg_backend_pid() % 16)::smallint, sum(documents), sum(net_total), sum(vat_total), sum(gross_total), sum(outstanding)
        from (select company_id, status, type, partner_code, currency, vat_treatment, due_date,
              -1 as documents, -1 * net_total as net_total, -1 * vat_total as vat_total, -1 * gross_total as gross_total, -1 * outstanding as outstanding
         from old_rows where status in ('registered', 'partially_paid') and outstanding > 0) d
       group by company_id, status, type, partner_code, currency, vat_treatment, due_date
      having sum(documents) <> 0 or sum(net_total) <> 0 or sum(vat_total) <> 0 or sum(gross_total) <> 0 or sum(outstanding) <> 0
       order by company_id, status, type, partner_code, currency, vat_treatment, due_date
      on conflict (company_id, status, type, partner_code, currency, vat_treatment, due_date, stripe) do update
         set documents = t.documents + excluded.documents, net_total = t.net_total + excluded.net_total, vat_total = t.vat_total + excluded.vat_total,
             gross_total = t.gross_total + excluded.gross_total, outstanding = t.outstanding + excluded.outstanding;
        return null;
      end $function$;

CREATE OR REPLACE FUNCTION purchase_invoice_open_totals_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      begin
        
      insert into purchase_invoice_open_totals as t (company_id, status, type, partner_code, currency, vat_treatment, due_date, stripe, documents, net_total, vat_total, gross_total, outstanding)
      select company_id, status, type, partner_code, currency, vat_treatment, due_date, (pg_backend_pid() % 16)::smallint, sum(documents), sum(net_total), sum(vat_total), sum(gross_total), sum(outstanding)
        from (select company_id, status, type, partner_code, currency, vat_treatment, due_date,
              1 as documents, 1 * net_total as net_total, 1 * vat_total as vat_total, 1 * gross_total as gross_total, 1 * outstanding as outstanding
         from new_rows where status in ('registered', 'partially_paid') and outstanding > 0) d
       group by company_id, status, type, partner_code, currency, vat_treatment, due_date
      having sum(documents) <> 0 or sum(net_total) <> 0 or sum(vat_total) <> 0 or sum(gross_total) <> 0 or sum(outstanding) <> 0
       order by company_id, status, type, partner_code, currency, vat_treatment, due_date
      on conflict (company_id, status, type, partner_code, currency, vat_treatment, due_date, stripe) do update
         set documents = t.documents + excluded.documents, net_total = t.net_total + excluded.net_total, vat_total = t.vat_total + excluded.vat_total,
             gross_total = t.gross_total + excluded.gross_total, outstanding = t.outstanding + excluded.outstanding;
        return null;
      end $function$;

CREATE OR REPLACE FUNCTION purchase_invoice_open_totals_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      begin
        
      insert into purchase_invoice_open_totals as t (company_id, status, type, partner_code, currency, vat_treatment, due_date, stripe, documents, net_total, vat_total, gross_total, outstanding)
      select company_id, status, type, partner_code, currency, vat_treatment, due_date, (pg_backend_pid() % 16)::smallint, sum(documents), sum(net_total), sum(vat_total), sum(gross_total), sum(outstanding)
        from (select company_id, status, type, partner_code, currency, vat_treatment, due_date,
              1 as documents, 1 * net_total as net_total, 1 * vat_total as vat_total, 1 * gross_total as gross_total, 1 * outstanding as outstanding
         from new_rows where status in ('registered', 'partially_paid') and outstanding > 0 union all select company_id, status, type, partner_code, currency, vat_treatment, due_date,
              -1 as documents, -1 * net_total as net_total, -1 * vat_total as vat_total, -1 * gross_total as gross_total, -1 * outstanding as outstanding
         from old_rows where status in ('registered', 'partially_paid') and outstanding > 0) d
       group by company_id, status, type, partner_code, currency, vat_treatment, due_date
      having sum(documents) <> 0 or sum(net_total) <> 0 or sum(vat_total) <> 0 or sum(gross_total) <> 0 or sum(outstanding) <> 0
       order by company_id, status, type, partner_code, currency, vat_treatment, due_date
      on conflict (company_id, status, type, partner_code, currency, vat_treatment, due_date, stripe) do update
         set documents = t.documents + excluded.documents, net_total = t.net_total + excluded.net_total, vat_total = t.vat_total + excluded.vat_total,
             gross_total = t.gross_total + excluded.gross_total, outstanding = t.outstanding + excluded.outstanding;
        return null;
      end $function$;

CREATE OR REPLACE FUNCTION purchase_invoice_totals_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      begin
        
      insert into purchase_invoice_totals as t (company_id, status, type, partner_code, currency, vat_treatment, month, stripe, documents, net_total, vat_total, gross_total, outstanding)
      select company_id, status, type, partner_code, currency, vat_treatment, month, (pg_backend_pid() % 16)::smallint, sum(documents), sum(net_total), sum(vat_total), sum(gross_total), sum(outstanding)
        from (select company_id, status, type, partner_code, currency, vat_treatment, date_trunc('month', document_date)::date as month,
              -1 as documents, -1 * net_total as net_total, -1 * vat_total as vat_total, -1 * gross_total as gross_total, -1 * outstanding as outstanding
         from old_rows) d
       group by company_id, status, type, partner_code, currency, vat_treatment, month
      having sum(documents) <> 0 or sum(net_total) <> 0 or sum(vat_total) <> 0 or sum(gross_total) <> 0 or sum(outstanding) <> 0
       order by company_id, status, type, partner_code, currency, vat_treatment, month
      on conflict (company_id, status, type, partner_code, currency, vat_treatment, month, stripe) do update
         set documents = t.documents + excluded.documents, net_total = t.net_total + excluded.net_total, vat_total = t.vat_total + excluded.vat_total,
             gross_total = t.gross_total + excluded.gross_total, outstanding = t.outstanding + excluded.outstanding;
        return null;
      end $function$;

CREATE OR REPLACE FUNCTION purchase_invoice_totals_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      begin
        
      insert into purchase_invoice_totals as t (company_id, status, type, partner_code, currency, vat_treatment, month, stripe, documents, net_total, vat_total, gross_total, outstanding)
      select company_id, status, type, partner_code, currency, vat_treatment, month, (pg_backend_pid() % 16)::smallint, sum(documents), sum(net_total), sum(vat_total), sum(gross_total), sum(outstanding)
        from (select company_id, status, type, partner_code, currency, vat_treatment, date_trunc('month', document_date)::date as month,
              1 as documents, 1 * net_total as net_total, 1 * vat_total as vat_total, 1 * gross_total as gross_total, 1 * outstanding as outstanding
         from new_rows) d
       group by company_id, status, type, partner_code, currency, vat_treatment, month
      having sum(documents) <> 0 or sum(net_total) <> 0 or sum(vat_total) <> 0 or sum(gross_total) <> 0 or sum(outstanding) <> 0
       order by company_id, status, type, partner_code, currency, vat_treatment, month
      on conflict (company_id, status, type, partner_code, currency, vat_treatment, month, stripe) do update
         set documents = t.documents + excluded.documents, net_total = t.net_total + excluded.net_total, vat_total = t.vat_total + excluded.vat_total,
             gross_total = t.gross_total + excluded.gross_total, outstanding = t.outstanding + excluded.outstanding;
        return null;
      end $function$;

CREATE OR REPLACE FUNCTION purchase_invoice_totals_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      begin
        
      insert into purchase_invoice_totals as t (company_id, status, type, partner_code, currency, vat_treatment, month, stripe, documents, net_total, vat_total, gross_total, outstanding)
      select company_id, status, type, partner_code, currency, vat_treatment, month, (pg_backend_pid() % 16)::smallint, sum(documents), sum(net_total), sum(vat_total), sum(gross_total), sum(outstanding)
        from (select company_id, status, type, partner_code, currency, vat_treatment, date_trunc('month', document_date)::date as month,
              1 as documents, 1 * net_total as net_total, 1 * vat_total as vat_total, 1 * gross_total as gross_total, 1 * outstanding as outstanding
         from new_rows union all select company_id, status, type, partner_code, currency, vat_treatment, date_trunc('month', document_date)::date as month,
              -1 as documents, -1 * net_total as net_total, -1 * vat_total as vat_total, -1 * gross_total as gross_total, -1 * outstanding as outstanding
         from old_rows) d
       group by company_id, status, type, partner_code, currency, vat_treatment, month
      having sum(documents) <> 0 or sum(net_total) <> 0 or sum(vat_total) <> 0 or sum(gross_total) <> 0 or sum(outstanding) <> 0
       order by company_id, status, type, partner_code, currency, vat_treatment, month
      on conflict (company_id, status, type, partner_code, currency, vat_treatment, month, stripe) do update
         set documents = t.documents + excluded.documents, net_total = t.net_total + excluded.net_total, vat_total = t.vat_total + excluded.vat_total,
             gross_total = t.gross_total + excluded.gross_total, outstanding = t.outstanding + excluded.outstanding;
        return null;
      end $function$;

CREATE OR REPLACE FUNCTION purchase_invoices_accounting_date()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      new.accounting_date := coalesce(new.accounting_date, new.document_date);
      return new;
    end $function$;

CREATE OR REPLACE FUNCTION refuse_change()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      raise exception '% rows cannot be changed or deleted (%)', tg_table_name, tg_op
        using errcode = 'integrity_constraint_violation';
    end $function$;

CREATE OR REPLACE FUNCTION sale_invoice_lines_frozen()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    declare
      parent_status text;
    begin
      select d.status into parent_status from sale_invoices d
       where d.company_id = case when tg_op = 'DELETE' then old.company_id else new.company_id end
         and d.id = case when tg_op = 'DELETE' then old.invoice_id else new.invoice_id end;
      -- A cascade from deleting a draft finds no parent any more.
      if parent_status is not null and parent_status <> 'draft' then
        raise exception 'the lines of an issued or registered document cannot change' using errcode = 'P0001', constraint = 'invoice_frozen';
      end if;
      return case when tg_op = 'DELETE' then old else new end;
    end $function$;

CREATE OR REPLACE FUNCTION sale_invoice_open_totals_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      begin
        
      insert into sale_invoice_open_totals as t (company_id, status, type, partner_code, currency, series_prefix, due_date, stripe, documents, net_total, vat_total, gross_total, outstanding)
      select company_id, status, type, partner_code, currency, series_prefix, due_date, (pg_backend_pid() % 16)::smallint, sum(documents), sum(net_total), sum(vat_total), sum(gross_total), sum(outstanding)
        from (select company_id, status, type, partner_code, currency, series_prefix, due_date,
              -1 as documents, -1 * net_total as net_total, -1 * vat_total as vat_total, -1 * gross_total as gross_total, -1 * outstanding as outstanding
         from old_rows where status in ('issued', 'partially_paid') and outstanding > 0) d
       group by company_id, status, type, partner_code, currency, series_prefix, due_date
      having sum(documents) <> 0 or sum(net_total) <> 0 or sum(vat_total) <> 0 or sum(gross_total) <> 0 or sum(outstanding) <> 0
       order by company_id, status, type, partner_code, currency, series_prefix, due_date
      on conflict (company_id, status, type, partner_code, currency, series_prefix, due_date, stripe) do update
         set documents = t.documents + excluded.documents, net_total = t.net_total + excluded.net_total, vat_total = t.vat_total + excluded.vat_total,
             gross_total = t.gross_total + excluded.gross_total, outstanding = t.outstanding + excluded.outstanding;
        return null;
      end $function$;

CREATE OR REPLACE FUNCTION sale_invoice_open_totals_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      begin
        
      insert into sale_invoice_open_totals as t (company_id, status, type, partner_code, currency, series_prefix, due_date, stripe, documents, net_total, vat_total, gross_total, outstanding)
      select company_id, status, type, partner_code, currency, series_prefix, due_date, (pg_backend_pid() % 16)::smallint, sum(documents), sum(net_total), sum(vat_total), sum(gross_total), sum(outstanding)
        from (select company_id, status, type, partner_code, currency, series_prefix, due_date,
              1 as documents, 1 * net_total as net_total, 1 * vat_total as vat_total, 1 * gross_total as gross_total, 1 * outstanding as outstanding
         from new_rows where status in ('issued', 'partially_paid') and outstanding > 0) d
       group by company_id, status, type, partner_code, currency, series_prefix, due_date
      having sum(documents) <> 0 or sum(net_total) <> 0 or sum(vat_total) <> 0 or sum(gross_total) <> 0 or sum(outstanding) <> 0
       order by company_id, status, type, partner_code, currency, series_prefix, due_date
      on conflict (company_id, status, type, partner_code, currency, series_prefix, due_date, stripe) do update
         set documents = t.documents + excluded.documents, net_total = t.net_total + excluded.net_total, vat_total = t.vat_total + excluded.vat_total,
             gross_total = t.gross_total + excluded.gross_total, outstanding = t.outstanding + excluded.outstanding;
        return null;
      end $function$;

CREATE OR REPLACE FUNCTION sale_invoice_open_totals_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      begin
        
      insert into sale_invoice_open_totals as t (company_id, status, type, partner_code, currency, series_prefix, due_date, stripe, documents, net_total, vat_total, gross_total, outstanding)
      select company_id, status, type, partner_code, currency, series_prefix, due_date, (pg_backend_pid() % 16)::smallint, sum(documents), sum(net_total), sum(vat_total), sum(gross_total), sum(outstanding)
        from (select company_id, status, type, partner_code, currency, series_prefix, due_date,
              1 as documents, 1 * net_total as net_total, 1 * vat_total as vat_total, 1 * gross_total as gross_total, 1 * outstanding as outstanding
         from new_rows where status in ('issued', 'partially_paid') and outstanding > 0 union all select company_id, status, type, partner_code, currency, series_prefix, due_date,
              -1 as documents, -1 * net_total as net_total, -1 * vat_total as vat_total, -1 * gross_total as gross_total, -1 * outstanding as outstanding
         from old_rows where status in ('issued', 'partially_paid') and outstanding > 0) d
       group by company_id, status, type, partner_code, currency, series_prefix, due_date
      having sum(documents) <> 0 or sum(net_total) <> 0 or sum(vat_total) <> 0 or sum(gross_total) <> 0 or sum(outstanding) <> 0
       order by company_id, status, type, partner_code, currency, series_prefix, due_date
      on conflict (company_id, status, type, partner_code, currency, series_prefix, due_date, stripe) do update
         set documents = t.documents + excluded.documents, net_total = t.net_total + excluded.net_total, vat_total = t.vat_total + excluded.vat_total,
             gross_total = t.gross_total + excluded.gross_total, outstanding = t.outstanding + excluded.outstanding;
        return null;
      end $function$;

CREATE OR REPLACE FUNCTION sale_invoice_sends_keep_request()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      if tg_op = 'DELETE' then
        raise exception 'a sale invoice send is never deleted' using errcode = 'P0001';
      end if;
      if (new.company_id, new.id, new.invoice_id, new.recipients, new.cc, new.subject, new.message, new.attach, new.issuer, new.key_id, new.created_at)
           is distinct from
         (old.company_id, old.id, old.invoice_id, old.recipients, old.cc, old.subject, old.message, old.attach, old.issuer, old.key_id, old.created_at) then
        raise exception 'a sale invoice send keeps what was asked' using errcode = 'P0001';
      end if;
      if old.status <> 'queued' and new is distinct from old then
        raise exception 'a sale invoice send that is % does not change', old.status using errcode = 'P0001';
      end if;
      return new;
    end
    $function$;

CREATE OR REPLACE FUNCTION sale_invoice_totals_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      begin
        
      insert into sale_invoice_totals as t (company_id, status, type, partner_code, currency, series_prefix, month, stripe, documents, net_total, vat_total, gross_total, outstanding)
      select company_id, status, type, partner_code, currency, series_prefix, month, (pg_backend_pid() % 16)::smallint, sum(documents), sum(net_total), sum(vat_total), sum(gross_total), sum(outstanding)
        from (select company_id, status, type, partner_code, currency, series_prefix, date_trunc('month', issue_date)::date as month,
              -1 as documents, -1 * net_total as net_total, -1 * vat_total as vat_total, -1 * gross_total as gross_total, -1 * outstanding as outstanding
         from old_rows) d
       group by company_id, status, type, partner_code, currency, series_prefix, month
      having sum(documents) <> 0 or sum(net_total) <> 0 or sum(vat_total) <> 0 or sum(gross_total) <> 0 or sum(outstanding) <> 0
       order by company_id, status, type, partner_code, currency, series_prefix, month
      on conflict (company_id, status, type, partner_code, currency, series_prefix, month, stripe) do update
         set documents = t.documents + excluded.documents, net_total = t.net_total + excluded.net_total, vat_total = t.vat_total + excluded.vat_total,
             gross_total = t.gross_total + excluded.gross_total, outstanding = t.outstanding + excluded.outstanding;
        return null;
      end $function$;

CREATE OR REPLACE FUNCTION sale_invoice_totals_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      begin
        
      insert into sale_invoice_totals as t (company_id, status, type, partner_code, currency, series_prefix, month, stripe, documents, net_total, vat_total, gross_total, outstanding)
      select company_id, status, type, partner_code, currency, series_prefix, month, (pg_backend_pid() % 16)::smallint, sum(documents), sum(net_total), sum(vat_total), sum(gross_total), sum(outstanding)
        from (select company_id, status, type, partner_code, currency, series_prefix, date_trunc('month', issue_date)::date as month,
              1 as documents, 1 * net_total as net_total, 1 * vat_total as vat_total, 1 * gross_total as gross_total, 1 * outstanding as outstanding
         from new_rows) d
       group by company_id, status, type, partner_code, currency, series_prefix, month
      having sum(documents) <> 0 or sum(net_total) <> 0 or sum(vat_total) <> 0 or sum(gross_total) <> 0 or sum(outstanding) <> 0
       order by company_id, status, type, partner_code, currency, series_prefix, month
      on conflict (company_id, status, type, partner_code, currency, series_prefix, month, stripe) do update
         set documents = t.documents + excluded.documents, net_total = t.net_total + excluded.net_total, vat_total = t.vat_total + excluded.vat_total,
             gross_total = t.gross_total + excluded.gross_total, outstanding = t.outstanding + excluded.outstanding;
        return null;
      end $function$;

CREATE OR REPLACE FUNCTION sale_invoice_totals_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      begin
        
      insert into sale_invoice_totals as t (company_id, status, type, partner_code, currency, series_prefix, month, stripe, documents, net_total, vat_total, gross_total, outstanding)
      select company_id, status, type, partner_code, currency, series_prefix, month, (pg_backend_pid() % 16)::smallint, sum(documents), sum(net_total), sum(vat_total), sum(gross_total), sum(outstanding)
        from (select company_id, status, type, partner_code, currency, series_prefix, date_trunc('month', issue_date)::date as month,
              1 as documents, 1 * net_total as net_total, 1 * vat_total as vat_total, 1 * gross_total as gross_total, 1 * outstanding as outstanding
         from new_rows union all select company_id, status, type, partner_code, currency, series_prefix, date_trunc('month', issue_date)::date as month,
              -1 as documents, -1 * net_total as net_total, -1 * vat_total as vat_total, -1 * gross_total as gross_total, -1 * outstanding as outstanding
         from old_rows) d
       group by company_id, status, type, partner_code, currency, series_prefix, month
      having sum(documents) <> 0 or sum(net_total) <> 0 or sum(vat_total) <> 0 or sum(gross_total) <> 0 or sum(outstanding) <> 0
       order by company_id, status, type, partner_code, currency, series_prefix, month
      on conflict (company_id, status, type, partner_code, currency, series_prefix, month, stripe) do update
         set documents = t.documents + excluded.documents, net_total = t.net_total + excluded.net_total, vat_total = t.vat_total + excluded.vat_total,
             gross_total = t.gross_total + excluded.gross_total, outstanding = t.outstanding + excluded.outstanding;
        return null;
      end $function$;

CREATE OR REPLACE FUNCTION stock_balance_matches_layers()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    declare
      k_company uuid;
      k_item text;
      k_warehouse uuid;
      b_quantity numeric;
      b_value numeric;
      b_written_here boolean;
      l_quantity numeric;
      l_value numeric;
    begin
      if tg_op = 'DELETE' then
        k_company := old.company_id; k_item := old.item_code; k_warehouse := old.warehouse_id;
      else
        k_company := new.company_id; k_item := new.item_code; k_warehouse := new.warehouse_id;
      end if;
      select b.quantity, b.value, b.xmin::text = (pg_current_xact_id()::text::numeric % 4294967296)::text
        into b_quantity, b_value, b_written_here
        from stock_balances b where b.company_id = k_company and b.item_code = k_item and b.warehouse_id = k_warehouse;
      if tg_table_name = 'stock_layers' and b_written_here then
        return null;
      end if;
      select s.quantity, s.value into l_quantity, l_value
        from stock_layer_sums s where s.company_id = k_company and s.item_code = k_item and s.warehouse_id = k_warehouse;
      if coalesce(b_quantity, 0) <> coalesce(l_quantity, 0) or coalesce(b_value, 0) <> coalesce(l_value, 0) then
        raise exception 'the stock balance of item % in warehouse % (% units, % EUR) differs from its layers (% units, % EUR)',
            k_item, k_warehouse, coalesce(b_quantity, 0), coalesce(b_value, 0), coalesce(l_quantity, 0), coalesce(l_value, 0)
          using errcode = 'check_violation', constraint = 'stock_balance_matches_layers';
      end if;
      return null;
    end $function$;

CREATE OR REPLACE FUNCTION stock_fifo_parts(p_company_id uuid, p_item_code text, p_warehouse_id uuid, p_date date, p_quantity numeric, p_lot_number text, p_serials text[], p_taken_layers uuid[], p_taken_quantities numeric[], p_taken_values numeric[])
 RETURNS TABLE(layer_id uuid, quantity numeric, unit_cost numeric, value numeric, lot_number text, expiry_date text, serial_number text, available numeric)
 LANGUAGE plpgsql
AS $function$
    #variable_conflict use_column
    declare
      need numeric := p_quantity;
      took numeric := 0;
      q numeric;
      left_quantity numeric;
      left_value numeric;
      layer record;
    begin
      for layer in
        select s.id, s.remaining_quantity, s.remaining_value, s.unit_cost, s.lot_number, s.expiry_date, s.serial_number
          from stock_layers s
         where s.company_id = p_company_id and s.item_code = p_item_code and s.warehouse_id = p_warehouse_id
           and s.remaining_quantity > 0 and s.date <= p_date
           and (p_lot_number is null or s.lot_number = p_lot_number)
           and (p_serials is null or s.serial_number = any(p_serials))
         order by s.date, s.seq
           for update
      loop
        exit when need <= 0; -- a quantity of 0 takes nothing
        left_quantity := layer.remaining_quantity;
        left_value := layer.remaining_value;
        if layer.id = any(p_taken_layers) then
          select left_quantity - sum(t.q), left_value - sum(t.v) into left_quantity, left_value
            from unnest(p_taken_layers, p_taken_quantities, p_taken_values) as t (l, q, v) where t.l = layer.id;
        end if;
        continue when left_quantity <= 0;
        q := least(left_quantity, need);
        layer_id := layer.id; quantity := q; unit_cost := layer.unit_cost;
        value := case when q = left_quantity then left_value else least(round(q * layer.unit_cost, 2), left_value) end;
        lot_number := layer.lot_number; expiry_date := layer.expiry_date::text; serial_number := layer.serial_number;
        available := null;
        return next;
        need := need - q;
        took := took + q;
        -- Here, not only at the top: the loop would otherwise fetch (and lock) one more layer than it takes from.
        exit when need <= 0;
      end loop;
      if need > 0 then
        layer_id := null; quantity := null; unit_cost := null; value := null; lot_number := null; expiry_date := null;
        serial_number := null; available := took;
        return next;
      end if;
    end
    $function$;

CREATE OR REPLACE FUNCTION stock_history_frozen()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      raise exception 'stock movements are history and never change' using errcode = 'P0001', constraint = 'stock_history_frozen';
    end $function$;

CREATE OR REPLACE FUNCTION stock_layer_sums_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      
      insert into stock_layer_sums as t (company_id, item_code, warehouse_id, quantity, value)
      select company_id, item_code, warehouse_id, sum(quantity), sum(value)
        from (select company_id, item_code, warehouse_id, 1 * remaining_quantity as quantity, 1 * remaining_value as value from new_rows) d
       group by company_id, item_code, warehouse_id
       order by company_id, item_code, warehouse_id
      on conflict (company_id, item_code, warehouse_id) do update
         set quantity = t.quantity + excluded.quantity, value = t.value + excluded.value;
      return null;
    end $function$;

CREATE OR REPLACE FUNCTION stock_layer_sums_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      
      insert into stock_layer_sums as t (company_id, item_code, warehouse_id, quantity, value)
      select company_id, item_code, warehouse_id, sum(quantity), sum(value)
        from (select company_id, item_code, warehouse_id, 1 * remaining_quantity as quantity, 1 * remaining_value as value from new_rows union all select company_id, item_code, warehouse_id, -1 * remaining_quantity as quantity, -1 * remaining_value as value from old_rows) d
       group by company_id, item_code, warehouse_id
       order by company_id, item_code, warehouse_id
      on conflict (company_id, item_code, warehouse_id) do update
         set quantity = t.quantity + excluded.quantity, value = t.value + excluded.value;
      return null;
    end $function$;

CREATE OR REPLACE FUNCTION stock_layer_sums_written_by_layers()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      if pg_trigger_depth() < 2 then
        raise exception 'stock_layer_sums is kept by the triggers of stock_layers only' using errcode = 'P0001', constraint = 'stock_layer_sums_written_by_layers';
      end if;
      return case when tg_op = 'DELETE' then old else new end;
    end $function$;

CREATE OR REPLACE FUNCTION stock_layers_frozen()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      if tg_op = 'DELETE' then
        raise exception 'stock layers are history and are never deleted' using errcode = 'P0001', constraint = 'stock_layers_frozen';
      end if;
      if (new.company_id, new.id, new.seq, new.movement_id, new.warehouse_id, new.item_code, new.date, new.quantity, new.unit_cost, new.value,
          new.lot_number, new.expiry_date, new.serial_number, new.origin_layer_id)
         is distinct from
         (old.company_id, old.id, old.seq, old.movement_id, old.warehouse_id, old.item_code, old.date, old.quantity, old.unit_cost, old.value,
          old.lot_number, old.expiry_date, old.serial_number, old.origin_layer_id) then
        raise exception 'a stock layer''s origin (item, warehouse, date, quantity, unit cost, value, lot, expiry, serial) never changes'
          using errcode = 'P0001', constraint = 'stock_layers_frozen';
      end if;
      return new;
    end $function$;

CREATE OR REPLACE FUNCTION stock_level_peak(p_company_id uuid, p_item_code text, p_warehouse_id uuid, p_since date, p_quantity numeric, p_value numeric)
 RETURNS TABLE(quantity numeric, value numeric)
 LANGUAGE sql
 STABLE
AS $function$
      select p_quantity - coalesce(sum(d.quantity), 0) + greatest(0, coalesce(max(d.running_quantity), 0)),
             p_value - coalesce(sum(d.value), 0) + greatest(0, coalesce(max(d.running_value), 0))
        from (select sum(m.quantity) as quantity, sum(m.value) as value,
                     sum(sum(m.quantity)) over (order by m.date) as running_quantity,
                     sum(sum(m.value)) over (order by m.date) as running_value
                from stock_movements m
               where m.company_id = p_company_id and m.item_code = p_item_code and m.warehouse_id = p_warehouse_id and m.date > p_since
               group by m.date) d
    $function$;

CREATE OR REPLACE FUNCTION stock_levels_within_bounds()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    declare
      bad record;
      peak record;
    begin
      -- Per item and warehouse the statement brought stock into: today's level, and (only where movements are dated
      -- after the earliest date brought in: a back-dated receipt) the highest level from that date on.
      select p.company_id, p.item_code, p.warehouse_id, p.since, s.quantity, s.value
        into bad
        from (select company_id, item_code, warehouse_id, min(date) as since from new_layers group by company_id, item_code, warehouse_id) p
        join stock_layer_sums s on s.company_id = p.company_id and s.item_code = p.item_code and s.warehouse_id = p.warehouse_id
       where s.quantity > 999999999999.9999 or s.value > 999999999999999.99
          or case when exists (select 1 from stock_movements m
                                where m.company_id = p.company_id and m.item_code = p.item_code and m.warehouse_id = p.warehouse_id and m.date > p.since)
                  then (select k.quantity > 999999999999.9999 or k.value > 999999999999999.99
                          from stock_level_peak(p.company_id, p.item_code, p.warehouse_id, p.since, s.quantity, s.value) k)
                  else false end
       limit 1;
      if found then
        select k.quantity, k.value into peak from stock_level_peak(bad.company_id, bad.item_code, bad.warehouse_id, bad.since, bad.quantity, bad.value) k;
        raise exception 'the stock of item % in warehouse % would reach % units and % EUR on or after %, beyond 999999999999.9999 units or 999999999999999.99 EUR',
            bad.item_code, bad.warehouse_id, peak.quantity, peak.value, bad.since
          using errcode = 'check_violation', constraint = 'stock_level_within_bounds',
                detail = json_build_object('itemCode', bad.item_code, 'warehouseId', bad.warehouse_id, 'quantity', peak.quantity::text, 'value', peak.value::text)::text;
      end if;
      return null;
    end $function$;

CREATE OR REPLACE FUNCTION stock_operation_checks()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      perform pg_advisory_xact_lock_shared(7301, hashtext(new.company_id::text));
      if ledger_month_locked(new.company_id, new.date) then
        raise exception 'period % of company % is locked: no stock moves in it', to_char(new.date, 'YYYY-MM'), new.company_id
          using errcode = 'check_violation', constraint = 'ledger_period_locked';
      end if;
      return new;
    end $function$;

CREATE OR REPLACE FUNCTION stock_take_fifo(p_company_id uuid, p_operation_id uuid, p_kind text, p_date date, p_warehouse_id uuid, p_source_type text, p_source_id uuid, p_key_id uuid, l_line_nos integer[], l_movement_ids uuid[], l_items text[], l_warehouses uuid[], l_quantities numeric[], l_lots text[])
 RETURNS TABLE(line_no integer, layer_id uuid, quantity numeric, unit_cost numeric, value numeric, lot_number text, expiry_date text, serial_number text, available numeric, created_at timestamp with time zone)
 LANGUAGE plpgsql
AS $function$
    #variable_conflict use_column
    declare
      i int;
      part record;
      p_layer uuid[] := '{}';
      p_movement uuid[] := '{}';
      p_quantity numeric[] := '{}';
      p_cost numeric[] := '{}';
      p_value numeric[] := '{}';
      m_value numeric[] := '{}';
      m_total numeric;
      op_created timestamptz;
      short_item text;
      short_warehouse uuid;
    begin
      for i in 1 .. coalesce(array_length(l_items, 1), 0) loop
        m_total := 0;
        for part in
          select * from stock_fifo_parts(p_company_id, l_items[i], l_warehouses[i], p_date, l_quantities[i], l_lots[i], null, p_layer, p_quantity, p_value)
        loop
          line_no := l_line_nos[i]; layer_id := part.layer_id; quantity := part.quantity; unit_cost := part.unit_cost;
          value := part.value; lot_number := part.lot_number; expiry_date := part.expiry_date;
          serial_number := part.serial_number; available := part.available; created_at := null;
          return next;
          -- The line is short: `available` says what there is; nothing is written.
          if part.layer_id is null then
            return;
          end if;
          p_layer := p_layer || part.layer_id;
          p_movement := p_movement || l_movement_ids[i];
          p_quantity := p_quantity || part.quantity;
          p_cost := p_cost || part.unit_cost;
          p_value := p_value || part.value;
          m_total := m_total + part.value;
        end loop;
        m_value := m_value || m_total;
      end loop;

      -- Every layer taken, in one statement (its triggers, the layers' sums among them, run once per call).
      update stock_layers s set remaining_quantity = s.remaining_quantity - t.quantity, remaining_value = s.remaining_value - t.value
        from (select l as id, sum(q) as quantity, sum(v) as value from unnest(p_layer, p_quantity, p_value) as u (l, q, v) group by l) t
       where s.company_id = p_company_id and s.id = t.id;
      insert into stock_operations (company_id, id, kind, date, warehouse_id, source_type, source_id, created_by_key_id)
      values (p_company_id, p_operation_id, p_kind, p_date, p_warehouse_id, p_source_type, p_source_id, p_key_id)
      returning stock_operations.created_at into op_created;
      insert into stock_movements (company_id, id, operation_id, line_no, direction, date, warehouse_id, item_code, quantity, value)
      select p_company_id, m.id, p_operation_id, m.line_no, 'out', p_date, m.warehouse_id, m.item_code, -m.quantity, -m.value
        from unnest(l_movement_ids, l_line_nos, l_warehouses, l_items, l_quantities, m_value) as m (id, line_no, warehouse_id, item_code, quantity, value);
      insert into stock_consumptions (company_id, movement_id, layer_id, quantity, unit_cost, value)
      select p_company_id, c.movement_id, c.layer_id, c.quantity, c.unit_cost, c.value
        from unnest(p_movement, p_layer, p_quantity, p_cost, p_value) as c (movement_id, layer_id, quantity, unit_cost, value);
      -- The balances move by one delta per item and warehouse, in key order (as OperationWriter writes them), each
      -- only if it holds the quantity taken. One that does not (its layers held more: the balance and its layers
      -- disagree, which stock_balance_matches_layers refuses at commit) moves nothing, and its first line comes back
      -- short with the balance's quantity as `available`, like a line short of layers.
      with d as (
        select m.item_code, m.warehouse_id, sum(m.quantity) as quantity, sum(m.value) as value
          from unnest(l_items, l_warehouses, l_quantities, m_value) as m (item_code, warehouse_id, quantity, value)
         group by 1, 2 order by 1, 2
      ), moved as (
        update stock_balances b set quantity = b.quantity - d.quantity, value = b.value - d.value
          from d
         where b.company_id = p_company_id and b.item_code = d.item_code and b.warehouse_id = d.warehouse_id and b.quantity >= d.quantity
        returning b.item_code, b.warehouse_id
      )
      select d.item_code, d.warehouse_id into short_item, short_warehouse
        from d where not exists (select 1 from moved where moved.item_code = d.item_code and moved.warehouse_id = d.warehouse_id)
       order by 1, 2 limit 1;
      if found then
        line_no := (select min(x.line_no) from unnest(l_line_nos, l_items, l_warehouses) as x (line_no, item_code, warehouse_id)
                     where x.item_code = short_item and x.warehouse_id = short_warehouse);
        layer_id := null; quantity := null; unit_cost := null; value := null; lot_number := null; expiry_date := null;
        serial_number := null; created_at := null;
        available := coalesce((select b.quantity from stock_balances b
                                where b.company_id = p_company_id and b.item_code = short_item and b.warehouse_id = short_warehouse), 0);
        return next;
        return;
      end if;

      line_no := null; layer_id := null; quantity := null; unit_cost := null; value := null; lot_number := null;
      expiry_date := null; serial_number := null; available := null; created_at := op_created;
      return next;
    end
    $function$;

CREATE OR REPLACE FUNCTION vat_declared_purchase_invoices_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      perform vat_declared_store(c.company_id, '{}'::uuid[], c.ids, not c.fresh)
         from (select company_id, fresh, array_agg(id order by id) as ids from (select company_id, id, true as fresh from new_rows where status <> 'draft' and not migrated) x group by company_id, fresh order by company_id, fresh) c;
      return null;
    end $function$;

CREATE OR REPLACE FUNCTION vat_declared_purchase_invoices_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      perform vat_declared_store(c.company_id, '{}'::uuid[], c.ids, not c.fresh)
         from (select company_id, fresh, array_agg(id order by id) as ids from (select n.company_id, n.id, o.status = 'draft' as fresh from new_rows n join old_rows o on o.company_id = n.company_id and o.id = n.id
          where n.status <> 'draft' and not n.migrated and (o.status = 'draft' or (n.status = 'annulled' and o.status <> 'annulled'))) x group by company_id, fresh order by company_id, fresh) c;
      return null;
    end $function$;

CREATE OR REPLACE FUNCTION vat_declared_sale_invoices_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      perform vat_declared_store(c.company_id, c.ids, '{}'::uuid[], not c.fresh)
         from (select company_id, fresh, array_agg(id order by id) as ids from (select company_id, id, true as fresh from new_rows where status <> 'draft' and not migrated) x group by company_id, fresh order by company_id, fresh) c;
      return null;
    end $function$;

CREATE OR REPLACE FUNCTION vat_declared_sale_invoices_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      perform vat_declared_store(c.company_id, c.ids, '{}'::uuid[], not c.fresh)
         from (select company_id, fresh, array_agg(id order by id) as ids from (select n.company_id, n.id, o.status = 'draft' as fresh from new_rows n join old_rows o on o.company_id = n.company_id and o.id = n.id
          where n.status <> 'draft' and not n.migrated and (o.status = 'draft' or (n.status = 'annulled' and o.status <> 'annulled'))) x group by company_id, fresh order by company_id, fresh) c;
      return null;
    end $function$;

CREATE OR REPLACE FUNCTION vat_declared_store(p_company uuid, p_sales uuid[], p_purchases uuid[], p_restore boolean DEFAULT true)
 RETURNS void
 LANGUAGE plpgsql
 SET jit TO 'off'
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
    declare
      a_payable text := coalesce((select r.account_code from posting_rules r where r.company_id = p_company and r.rule = 'sales.vatPayable'), '4492');
      a_receivable text := coalesce((select r.account_code from posting_rules r where r.company_id = p_company and r.rule = 'purchases.vatReceivable'), '2441');
      a_nonded text := coalesce((select r.account_code from posting_rules r where r.company_id = p_company and r.rule = 'purchases.vatNonDeductible'), '63081');
      a_rc_input text := coalesce((select r.account_code from posting_rules r where r.company_id = p_company and r.rule = 'purchases.reverseChargeVatInput'), '2441');
      a_rc_output text := coalesce((select r.account_code from posting_rules r where r.company_id = p_company and r.rule = 'purchases.reverseChargeVatOutput'), '4492');
      a_stock text := coalesce((select r.account_code from posting_rules r where r.company_id = p_company and r.rule = 'inventory.stock'), '2040');
      v_special_sales uuid[];
      v_special_purchases uuid[];
    begin
      perform set_config('vat.declared_writer', 'store', true);
      -- The documents by their keys throughout (a join with the lists, not = any(): a long list would be compared with
      -- every row). A document stored again (p_restore: annulled, or the migration's pass): what its rows added to the
      -- month's sums is taken out first, and its rows deleted; a document leaving draft has none.
      if p_restore then
      insert into vat_declared_sums as t (company_id, month, side, classifier, rate_pct, stripe, documents, base, vat, ded)
      select p_company, date_trunc('month', v.decl_date)::date, v.side, v.classifier, v.rate_pct, (pg_backend_pid() % 16)::smallint,
             -count(*) filter (where v.sign <> 0), -sum(v.sign * v.base), -sum(v.sign * v.vat), -sum(v.sign * coalesce(v.ded, 0))
        from unnest(p_sales || p_purchases) u(id) join vat_declared_rows v on v.company_id = p_company and v.document_id = u.id
       group by 2, 3, 4, 5
       order by 2, 3, 4, 5
      on conflict (company_id, month, side, classifier, rate_pct, stripe) do update
         set documents = t.documents + excluded.documents, base = t.base + excluded.base, vat = t.vat + excluded.vat, ded = t.ded + excluded.ded;
      insert into vat_declared_account_sums as t (company_id, month, account_code, stripe, declared, posted, differing)
      select p_company, date_trunc('month', v.decl_date)::date, v.account_code, (pg_backend_pid() % 16)::smallint,
             -sum(v.declared), -sum(v.posted), -count(*) filter (where v.declared <> v.posted)
        from unnest(p_sales || p_purchases) u(id) join vat_declared_accounts v on v.company_id = p_company and v.document_id = u.id
       group by 2, 3
       order by 2, 3
      on conflict (company_id, month, account_code, stripe) do update
         set declared = t.declared + excluded.declared, posted = t.posted + excluded.posted, differing = t.differing + excluded.differing;
      delete from vat_declared_rows v using unnest(p_sales || p_purchases) u(id) where v.company_id = p_company and v.document_id = u.id;
      delete from vat_declared_accounts v using unnest(p_sales || p_purchases) u(id) where v.company_id = p_company and v.document_id = u.id;
      end if;

      -- The documents whose EUR amounts need shares (another currency; a purchase with non-deductible lines).
      select array_agg(s.id) into v_special_sales
        from unnest(p_sales) u(id) join sale_invoices s on s.company_id = p_company and s.id = u.id
       where s.status <> 'draft' and not s.migrated and coalesce(s.rate, 1) <> 1;
      select array_agg(p.id) into v_special_purchases
        from unnest(p_purchases) u(id) join purchase_invoices p on p.company_id = p_company and p.id = u.id
       where p.status <> 'draft' and not p.migrated
         and (coalesce(p.rate, 1) <> 1 or (p.vat_treatment in ('standard', 'reverse_charge') and exists (
               select 1 from purchase_invoice_lines l where l.company_id = p.company_id and l.invoice_id = p.id and not l.vat_deductible)));

      -- Their rows, shared as posting shared them (one statement, run only when there are such documents).
      if v_special_sales is not null or v_special_purchases is not null then
      insert into vat_declared_rows (company_id, side, document_id, ord, type, annulled, sign, decl_date, doc_no, partner_code, treatment,
                                     journal_transaction_id, classifier, rate_pct, base, vat, ded, nonded)
      with sdocs as materialized (
        select 'sale'::text as side, s.id, s.type, s.status, s.issue_date as decl_date, s.number as doc_no, s.partner_code, s.rate,
               s.gross_total_base as base_total, s.journal_transaction_id, s.vat_breakdown, 'standard'::text as treatment
          from unnest(coalesce(v_special_sales, '{}')) u(id) join sale_invoices s on s.company_id = p_company and s.id = u.id
        union all
        select 'purchase'::text, p.id, p.type, p.status, p.accounting_date, p.document_number, p.partner_code, p.rate,
               p.gross_total_base, p.journal_transaction_id, p.vat_breakdown, p.vat_treatment
          from unnest(coalesce(v_special_purchases, '{}')) u(id) join purchase_invoices p on p.company_id = p_company and p.id = u.id
      ),
      groups as (
        select d.side, d.id, g.ord, g.v ->> 'vatClassifier' as classifier, (g.v ->> 'vatRatePercent')::numeric as rate_pct,
               (g.v ->> 'taxableAmount')::numeric as taxable, (g.v ->> 'vatAmount')::numeric as vat
          from sdocs d cross join lateral jsonb_array_elements(d.vat_breakdown) with ordinality g(v, ord)
      ),
      -- Purchases with a non-deductible line: each rate's VAT shared between its lines by net, as posting shares it. A
      -- non-deductible line on an asset account (a fixed asset's cost; not received into stock) capitalises its
      -- share: it is posted to that account, not to purchases.vatNonDeductible.
      plines as (
        select d.id, l.line_no, l.vat_classifier as classifier, l.vat_rate_percent as rate_pct, l.net_amount, l.vat_deductible,
               (not l.vat_deductible and l.warehouse_code is null and la.code is not null) as capitalised,
               bool_or(not l.vat_deductible) over (partition by d.id) as mixed
          from sdocs d join purchase_invoice_lines l on l.company_id = p_company and l.invoice_id = d.id
          left join ledger_accounts la on la.company_id = p_company and la.code = l.expense_account_code and la.type = 'asset'
            and la.code is distinct from a_stock
         where d.side = 'purchase' and d.treatment in ('standard', 'reverse_charge')
      ),
      line_input as (
        select l.id, l.rate_pct::text as grp, l.line_no as ord, l.net_amount as w, r.vat as t
          from plines l
          join (select id, rate_pct, sum(vat) as vat from groups where side = 'purchase' group by id, rate_pct) r on r.id = l.id and r.rate_pct = l.rate_pct
         where l.mixed
      ),
      
  line_shares_a as (
    select id, grp, ord, w, t, sum(w) over p as sw, min(ord) over p as first_ord
      from line_input window p as (partition by id, grp)
  ),
  line_shares_b as (
    select id, grp, ord, t,
           case when sw = 0 then (case when ord = first_ord then t else 0 end) else t * w / sw end as exact
      from line_shares_a
  ),
  line_shares_c as (
    select id, grp, ord, t, exact, floor(exact * 100) / 100 as fl from line_shares_b
  ),
  line_shares_d as (
    select id, grp, ord, exact, fl, round((t - sum(fl) over (partition by id, grp)) * 100) as left_cents,
           row_number() over (partition by id, grp order by exact - fl desc, ord) as rk
      from line_shares_c
  ),
  line_shares as (
    select id, grp, ord, fl + case when rk <= left_cents then 0.01 else 0 end as share from line_shares_d
  ),
      split as (
        select s.id, l.classifier, l.rate_pct,
               coalesce(sum(s.share) filter (where l.vat_deductible), 0) as ded,
               coalesce(sum(s.share) filter (where not l.vat_deductible and not l.capitalised), 0) as nonded,
               coalesce(sum(s.share) filter (where l.capitalised), 0) as cap
          from line_shares s join plines l on l.id = s.id and l.line_no = s.ord
         group by s.id, l.classifier, l.rate_pct
      ),
      -- Amounts of each group in the document's currency.
      gdoc as (
        select g.side, g.id, g.ord, g.classifier, g.rate_pct, g.taxable, g.vat,
               case when g.side = 'sale' then null
                    when d.treatment not in ('standard', 'reverse_charge') then 0
                    else coalesce(s.ded, case when l.id is null then g.vat else 0 end) end as ded,
               case when g.side = 'sale' then null
                    when d.treatment not in ('standard', 'reverse_charge') then 0
                    else coalesce(s.nonded, 0) end as nonded,
               coalesce(s.cap, 0) as cap
          from groups g join sdocs d on d.side = g.side and d.id = g.id
          left join split s on s.id = g.id and s.classifier = g.classifier and s.rate_pct = g.rate_pct
          left join (select distinct id from plines where mixed) l on l.id = g.id
      ),
      -- A document in another currency: its EUR totals as posted (its journal transaction), the taxable value the rest.
      fx as (
        select d.side, d.id, d.treatment, d.rate, d.base_total, t.vat, t.ded, t.nonded,
               case when t.vat = 0 then 0 when d.side = 'sale' then coalesce(j.vat_payable, round(t.vat / d.rate, 2))
                    when d.treatment = 'reverse_charge' then coalesce(j.reverse_output, round(t.vat / d.rate, 2))
                    when d.treatment = 'standard' then (case when t.cap = 0 then null else round(t.vat / d.rate, 2) end) else 0 end as t_vat,
               case when t.ded = 0 or d.side = 'sale' then 0
                    else coalesce(case when d.treatment = 'reverse_charge' then j.reverse_input else j.vat_receivable end, round(t.ded / d.rate, 2)) end as t_ded,
               case when t.nonded = 0 or d.side = 'sale' then 0 else coalesce(j.nonded, round(t.nonded / d.rate, 2)) end as t_nonded
          from sdocs d
          join (select id, sum(vat) as vat, coalesce(sum(ded), 0) as ded, coalesce(sum(nonded), 0) as nonded, sum(cap) as cap from gdoc group by id) t on t.id = d.id
          left join lateral (
            select abs(sum(e.credit - e.debit) filter (where e.account_code = a_payable)) as vat_payable,
                   abs(sum(e.debit - e.credit) filter (where e.account_code = a_receivable)) as vat_receivable,
                   abs(sum(e.debit - e.credit) filter (where e.account_code = a_nonded)) as nonded,
                   abs(sum(e.debit - e.credit) filter (where e.account_code = a_rc_input)) as reverse_input,
                   abs(sum(e.credit - e.debit) filter (where e.account_code = a_rc_output)) as reverse_output
              from journal_entries e
             where e.company_id = p_company and e.transaction_id = d.journal_transaction_id
          ) j on true
         where d.rate <> 1
      ),
      fx_targets as (
        select side, id, treatment, base_total, coalesce(t_vat, t_ded + t_nonded) as t_vat, t_ded, t_nonded from fx
      ),
      fx_input as (
        select g.id, k.kind as grp, g.ord,
               case k.kind when 'taxable' then g.taxable when 'vat' then g.vat when 'ded' then g.ded else g.nonded end as w,
               case k.kind when 'taxable' then f.base_total - case when f.side = 'sale' or f.treatment = 'standard' then f.t_vat else 0 end
                           when 'vat' then f.t_vat when 'ded' then f.t_ded else f.t_nonded end as t
          from gdoc g join fx_targets f on f.side = g.side and f.id = g.id
          cross join (values ('taxable'), ('vat'), ('ded'), ('nonded')) k(kind)
         where g.side = 'purchase' or k.kind in ('taxable', 'vat')
      ),
      
  fx_shares_a as (
    select id, grp, ord, w, t, sum(w) over p as sw, min(ord) over p as first_ord
      from fx_input window p as (partition by id, grp)
  ),
  fx_shares_b as (
    select id, grp, ord, t,
           case when sw = 0 then (case when ord = first_ord then t else 0 end) else t * w / sw end as exact
      from fx_shares_a
  ),
  fx_shares_c as (
    select id, grp, ord, t, exact, floor(exact * 100) / 100 as fl from fx_shares_b
  ),
  fx_shares_d as (
    select id, grp, ord, exact, fl, round((t - sum(fl) over (partition by id, grp)) * 100) as left_cents,
           row_number() over (partition by id, grp order by exact - fl desc, ord) as rk
      from fx_shares_c
  ),
  fx_shares as (
    select id, grp, ord, fl + case when rk <= left_cents then 0.01 else 0 end as share from fx_shares_d
  ),
      work as (
      select g.side, g.id, g.ord::int as ord, g.classifier, g.rate_pct,
             coalesce(t.share, g.taxable) as base, coalesce(v.share, g.vat) as vat,
             case when g.side = 'sale' then null else coalesce(dd.share, g.ded) end as ded,
             case when g.side = 'sale' then null else coalesce(nd.share, g.nonded) end as nonded
        from gdoc g
        left join fx_shares t on t.id = g.id and t.grp = 'taxable' and t.ord = g.ord
        left join fx_shares v on v.id = g.id and v.grp = 'vat' and v.ord = g.ord
        left join fx_shares dd on dd.id = g.id and dd.grp = 'ded' and dd.ord = g.ord
        left join fx_shares nd on nd.id = g.id and nd.grp = 'nonded' and nd.ord = g.ord
      )
      select p_company, w.side, w.id, w.ord, d.type, d.status = 'annulled', case when d.status = 'annulled' then 0 when d.type = 'credit_note' then -1 else 1 end, d.decl_date, d.doc_no, d.partner_code, d.treatment,
             d.journal_transaction_id, w.classifier, w.rate_pct, w.base, w.vat, w.ded, w.nonded
        from work w join sdocs d on d.side = w.side and d.id = w.id;
      end if;

      -- Every document's plain rows (and an import's VAT paid to customs, ord 0), stored; then, with the rows stored
      -- above, the month's sums, and the pairs of declared and posted amounts per VAT account. One statement.
      with d as materialized (
        select 'sale'::text as side, s.id, s.type, s.status, s.issue_date as decl_date, s.number as doc_no, s.partner_code, 'standard'::text as treatment,
               s.journal_transaction_id, s.annulment_transaction_id, s.vat_breakdown, s.id = any(coalesce(v_special_sales, '{}')) as special,
               null::numeric as customs_vat
          from unnest(p_sales) u(id) join sale_invoices s on s.company_id = p_company and s.id = u.id
         where s.status <> 'draft' and not s.migrated
        union all
        select 'purchase', p.id, p.type, p.status, p.accounting_date, p.document_number, p.partner_code, p.vat_treatment, p.journal_transaction_id, null,
               p.vat_breakdown, p.id = any(coalesce(v_special_purchases, '{}')), p.customs_vat
          from unnest(p_purchases) u(id) join purchase_invoices p on p.company_id = p_company and p.id = u.id
         where p.status <> 'draft' and not p.migrated
      ),
      -- A plain document (in EUR; a purchase without non-deductible lines) is its stored breakdown: its VAT is
      -- deducted in full (a standard or reverse-charge purchase) or not at all (import, exempt).
      plain as (
        select d.side, d.id, g.ord::int as ord, g.v ->> 'vatClassifier' as classifier, (g.v ->> 'vatRatePercent')::numeric as rate_pct,
               (g.v ->> 'taxableAmount')::numeric as base, (g.v ->> 'vatAmount')::numeric as vat,
               case when d.side = 'sale' then null when d.treatment in ('standard', 'reverse_charge') then (g.v ->> 'vatAmount')::numeric else 0 end as ded,
               case when d.side = 'sale' then null else 0 end as nonded
          from d cross join lateral jsonb_array_elements(d.vat_breakdown) with ordinality g(v, ord)
         where not d.special
        union all
        select side, id, 0, 'customs', 0, 0, customs_vat, customs_vat, 0 from d where customs_vat > 0
      ),
      fresh as (
        select w.side, w.id, w.ord, w.classifier, w.rate_pct, w.base::numeric(17,2) as base, w.vat::numeric(17,2) as vat,
               w.ded::numeric(17,2) as ded, w.nonded::numeric(17,2) as nonded,
               d.type, d.status, d.decl_date, d.doc_no, d.partner_code, d.treatment, d.journal_transaction_id, case when d.status = 'annulled' then 0 when d.type = 'credit_note' then -1 else 1 end as sign
          from plain w join d on d.side = w.side and d.id = w.id
      ),
      stored as (
        insert into vat_declared_rows (company_id, side, document_id, ord, type, annulled, sign, decl_date, doc_no, partner_code, treatment,
                                       journal_transaction_id, classifier, rate_pct, base, vat, ded, nonded)
        select p_company, side, id, ord, type, status = 'annulled', sign, decl_date, doc_no, partner_code, treatment,
               journal_transaction_id, classifier, rate_pct, base, vat, ded, nonded
          from fresh
      ),
      -- All the documents' rows: the plain ones of this statement, the shared ones stored before it.
      signed as (
        select side, id, ord, classifier, rate_pct, base, vat, ded, nonded, decl_date, treatment, sign from fresh
        union all
        select v.side, v.document_id, v.ord, v.classifier, v.rate_pct, v.base, v.vat, v.ded, v.nonded, v.decl_date, v.treatment, v.sign
          from d join vat_declared_rows v on v.company_id = p_company and v.document_id = d.id
         where d.special
      ),
      -- The month's sums per classifier and rate (FR0600 reads them, not every row), in one of 16 stripes by server
      -- process, as ledger_balances: concurrent postings rarely wait on one another's row.
      row_sums as (
        insert into vat_declared_sums as t (company_id, month, side, classifier, rate_pct, stripe, documents, base, vat, ded)
        select p_company, date_trunc('month', decl_date)::date, side, classifier, rate_pct, (pg_backend_pid() % 16)::smallint,
               count(*) filter (where sign <> 0), sum(sign * base), sum(sign * vat), sum(sign * coalesce(ded, 0))
          from signed
         group by 2, 3, 4, 5
         order by 2, 3, 4, 5
        on conflict (company_id, month, side, classifier, rate_pct, stripe) do update
           set documents = t.documents + excluded.documents, base = t.base + excluded.base, vat = t.vat + excluded.vat, ded = t.ded + excluded.ded
      ),
      -- Per document and VAT account: what it declares there as a debit (its sign applied) and what its journal
      -- transaction posted there (with an annulled invoice's reversal: together they post nothing).
      declared as (
        select w.id, k.account, sum(w.sign * k.amount) as amount
          from signed w
          cross join lateral (values
            (a_payable, case when w.side = 'sale' then -w.vat end),
            (a_receivable, case when w.side = 'purchase' and (w.treatment = 'standard' or w.classifier = 'customs') then w.ded end),
            (a_nonded, case when w.side = 'purchase' and w.treatment in ('standard', 'reverse_charge') then w.nonded end),
            (a_rc_input, case when w.side = 'purchase' and w.treatment = 'reverse_charge' then w.ded end),
            (a_rc_output, case when w.side = 'purchase' and w.treatment = 'reverse_charge' then -w.vat end)
          ) k(account, amount)
         where k.amount is not null
         group by 1, 2
      ),
      -- Each transaction's lines by its key (offset 0 keeps the look-up per transaction: a planner that misjudges the
      -- company's lines would otherwise join every VAT line of the company with every document).
      posted as (
        select t.id, e.account_code as account, sum(e.debit - e.credit) as amount
          from (select id, journal_transaction_id as tx from d union all select id, annulment_transaction_id from d where annulment_transaction_id is not null) t
          cross join lateral (
            select e.account_code, e.debit, e.credit from journal_entries e
             where e.company_id = p_company and e.transaction_id = t.tx
               and e.account_code in (a_payable, a_receivable, a_nonded, a_rc_input, a_rc_output)
            offset 0
          ) e
         group by 1, 2
      ),
      pairs as (
        select d.side, d.id, d.decl_date, d.journal_transaction_id, x.account, coalesce(x.declared, 0) as declared, coalesce(x.posted, 0) as posted
          from d join (select coalesce(dc.id, po.id) as id, coalesce(dc.account, po.account) as account, dc.amount as declared, po.amount as posted
                         from declared dc full join posted po on po.id = dc.id and po.account = dc.account) x on x.id = d.id
      ),
      stored_pairs as (
        insert into vat_declared_accounts (company_id, side, document_id, decl_date, journal_transaction_id, account_code, declared, posted)
        select p_company, side, id, decl_date, journal_transaction_id, account, declared, posted from pairs
      )
      insert into vat_declared_account_sums as t (company_id, month, account_code, stripe, declared, posted, differing)
      select p_company, date_trunc('month', decl_date)::date, account, (pg_backend_pid() % 16)::smallint,
             sum(declared), sum(posted), count(*) filter (where declared <> posted)
        from pairs
       group by 2, 3
       order by 2, 3
      on conflict (company_id, month, account_code, stripe) do update
         set declared = t.declared + excluded.declared, posted = t.posted + excluded.posted, differing = t.differing + excluded.differing;

      perform set_config('vat.declared_writer', '', true);
    end $function$;

CREATE OR REPLACE FUNCTION vat_declared_written_by_store()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      if current_setting('vat.declared_writer', true) is distinct from 'store' then
        raise exception '% is kept by the documents'' triggers only (%)', tg_table_name, tg_op
          using errcode = 'integrity_constraint_violation', constraint = 'vat_declared_written_by_store';
      end if;
      return null;
    end $function$;

CREATE OR REPLACE FUNCTION webhook_event_object_id(data jsonb)
 RETURNS uuid
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE STRICT
AS $function$
        select case when v ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then v::uuid end
          from (select coalesce(data ->> 'id', data ->> 'reversedId', data ->> 'saleInvoiceId', data ->> 'purchaseInvoiceId') as v) s
      $function$;
