import type { Knex } from "knex";

// SAF-T files (issue 27): what was asked (a range and a data type), where the worker stands, and the parts it wrote,
// kept until `expires_at` (SAFT_KEEP_HOURS after it finished) and then pruned by the worker (prune_saft_files).
// A part is written once; a file restarted by the worker (a worker killed mid-file) deletes its parts and writes
// them again, the same bytes for the same books.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table saft_files (
      company_id uuid not null references companies (id),
      id uuid not null default gen_random_uuid(),
      data_type text not null check (data_type in ('F', 'GL', 'SI', 'PI', 'PA', 'MG', 'AS')),
      date_from date not null,
      date_to date not null,
      status text not null default 'queued' check (status in ('queued', 'running', 'ready', 'failed')),
      rows_total bigint check (rows_total >= 0),
      rows_written bigint not null default 0 check (rows_written >= 0),
      error jsonb check (error is null or jsonb_typeof(error) = 'object'),
      requested_by_key_id uuid references api_keys (id),
      created_at timestamptz not null default now(),
      started_at timestamptz,
      finished_at timestamptz,
      expires_at timestamptz,
      primary key (company_id, id),
      check (date_from <= date_to),
      check ((status = 'failed') = (error is not null)),
      check ((status in ('ready', 'failed')) = (finished_at is not null))
    );
    create index saft_files_expires_idx on saft_files (expires_at) where expires_at is not null;

    create table saft_file_parts (
      company_id uuid not null,
      file_id uuid not null,
      part_number integer not null check (part_number between 1 and 10000),
      file_name text not null check (length(file_name) between 1 and 255),
      content bytea not null,
      bytes bigint not null check (bytes = octet_length(content)),
      sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
      primary key (company_id, file_id, part_number),
      foreign key (company_id, file_id) references saft_files (company_id, id) on delete cascade
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop table saft_file_parts; drop table saft_files");
}
