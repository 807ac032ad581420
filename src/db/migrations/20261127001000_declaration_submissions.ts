import type { Knex } from "knex";

// Declarations filed with the tax authority (issue 24): an immutable snapshot of what was filed, its files, and an
// append-only history of its status. Nothing here is ever updated or deleted (refuse_change, migration
// 20261122000003): `declarations/submissions/mark` adds a status row, and the database holds the status machine:
//   declaration_submissions           one filing: declaration, period (and i.SAF data type), version, snapshot, sha256,
//                                     the key that made it. Versions of one declaration and period count 1, 2, 3
//                                     without gaps (a foreign key from each version > 1 to the one before it); a
//                                     version > 1 is a correction (tikslinimas).
//   declaration_submission_files      the files filed (FFData, i.SAF parts) with their SHA-256
//   declaration_submission_statuses   created -> submitted (with the portal's registration number and date) ->
//                                     accepted | rejected; each row names the one before it by (seq - 1, status), and
//                                     a check allows only those steps, so a status can neither be skipped nor changed.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table declaration_submissions (
      company_id uuid not null references companies (id),
      id uuid not null default gen_random_uuid(),
      declaration text not null check (declaration in ('lt.fr0600', 'lt.isaf', 'lt.fr0564')),
      period text not null check (period ~ '^(20[0-9]{2}|2100)-(0[1-9]|1[0-2])$'),
      -- i.SAF's F/S/P; '' for the others (so that it can be part of the keys below).
      data_type text not null default '' check ((declaration = 'lt.isaf') = (data_type in ('F', 'S', 'P')) and data_type in ('', 'F', 'S', 'P')),
      version integer not null check (version between 1 and 10000),
      previous_version integer generated always as (nullif(version - 1, 0)) stored,
      snapshot jsonb not null check (jsonb_typeof(snapshot) = 'object'),
      sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
      created_by_key_id uuid,
      created_at timestamptz not null default now(),
      primary key (company_id, id),
      constraint declaration_submissions_version_key unique (company_id, declaration, period, data_type, version),
      constraint declaration_submissions_previous_fkey foreign key (company_id, declaration, period, data_type, previous_version)
        references declaration_submissions (company_id, declaration, period, data_type, version)
    );
    create index declaration_submissions_list_idx on declaration_submissions (company_id, created_at desc, id);

    create table declaration_submission_files (
      company_id uuid not null,
      submission_id uuid not null,
      part_number integer not null check (part_number between 1 and 10000),
      file_name text not null check (length(file_name) between 1 and 255),
      content_type text not null check (content_type in ('application/xml')),
      content bytea not null,
      sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
      primary key (company_id, submission_id, part_number),
      constraint declaration_submission_files_submission_fkey foreign key (company_id, submission_id)
        references declaration_submissions (company_id, id)
    );

    create table declaration_submission_statuses (
      company_id uuid not null,
      submission_id uuid not null,
      seq integer not null check (seq between 1 and 10),
      status text not null check (status in ('created', 'submitted', 'accepted', 'rejected')),
      previous_seq integer generated always as (nullif(seq - 1, 0)) stored,
      previous_status text,
      registration_number text check (length(registration_number) between 1 and 64),
      submitted_on date,
      key_id uuid,
      created_at timestamptz not null default now(),
      primary key (company_id, submission_id, seq),
      constraint declaration_submission_statuses_step check (
        case when seq = 1 then status = 'created' and previous_status is null
             else (previous_status, status) in (('created', 'submitted'), ('submitted', 'accepted'), ('submitted', 'rejected')) end
      ),
      constraint declaration_submission_statuses_submitted check (
        (status = 'submitted') = (registration_number is not null) and (status = 'submitted') = (submitted_on is not null)
      ),
      constraint declaration_submission_statuses_status_key unique (company_id, submission_id, seq, status),
      constraint declaration_submission_statuses_submission_fkey foreign key (company_id, submission_id)
        references declaration_submissions (company_id, id),
      constraint declaration_submission_statuses_previous_fkey foreign key (company_id, submission_id, previous_seq, previous_status)
        references declaration_submission_statuses (company_id, submission_id, seq, status)
    );

    create trigger declaration_submissions_immutable before update or delete on declaration_submissions
      for each row execute function refuse_change();
    create trigger declaration_submissions_no_truncate before truncate on declaration_submissions
      for each statement execute function refuse_change();
    create trigger declaration_submission_files_immutable before update or delete on declaration_submission_files
      for each row execute function refuse_change();
    create trigger declaration_submission_files_no_truncate before truncate on declaration_submission_files
      for each statement execute function refuse_change();
    create trigger declaration_submission_statuses_append_only before update or delete on declaration_submission_statuses
      for each row execute function refuse_change();
    create trigger declaration_submission_statuses_no_truncate before truncate on declaration_submission_statuses
      for each statement execute function refuse_change();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table declaration_submission_statuses;
    drop table declaration_submission_files;
    drop table declaration_submissions;
  `);
}
