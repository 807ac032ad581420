import type { Knex } from "knex";
import { define } from "../definitions.js";

// Issue 22, item 2: a historical-books package is imported once per company. Each import records the package's
// fingerprint (src/migration/digest.ts: SHA-256 of its canonical content), written in the import's own transaction;
// the database refuses a second import of the same fingerprint unless it names, as `repeat_of`, an earlier import of
// that very fingerprint that no other import repeats yet (the package's `repeatOf`: a chain, so a retried repeat is
// refused too). Rows are never changed or deleted. Imports made before this migration have no row.
export async function up(knex: Knex): Promise<void> {
  // The current text of the functions its triggers execute (src/db/functions; issue 23).
  await define(knex, "migration_imports_immutable");
  await knex.raw(`
    create table migration_imports (
      company_id uuid not null references companies (id),
      id uuid not null default gen_random_uuid(),
      fingerprint text not null check (fingerprint ~ '^[0-9a-f]{64}$'),
      repeat_of uuid,
      cutover_date date not null,
      source text,
      key_id uuid,
      request_id text not null,
      imported_at timestamptz not null default now(),
      primary key (company_id, id),
      unique (company_id, id, fingerprint),
      constraint migration_imports_repeated_once unique (company_id, repeat_of),
      constraint migration_imports_repeat_same_package foreign key (company_id, repeat_of, fingerprint) references migration_imports (company_id, id, fingerprint),
      constraint migration_imports_repeat_not_itself check (repeat_of <> id)
    );
    create unique index migration_imports_once on migration_imports (company_id, fingerprint) where repeat_of is null;

    create trigger migration_imports_immutable before update or delete on migration_imports
      for each row execute function migration_imports_immutable();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop table migration_imports; drop function migration_imports_immutable();");
}
