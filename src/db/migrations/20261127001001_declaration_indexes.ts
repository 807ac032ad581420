import type { Knex } from "knex";

// The path the Lithuanian declarations read a month by (issue 24, src/declarations/lt/documents.ts): the declared
// documents of a company in date order, so that i.SAF's keyset batches (date, id) start where the last one ended
// instead of sorting the rest of the month again. Purchases are declared by their document date until they carry an
// accounting date; the index follows that column then.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create index sale_invoices_declared_idx on sale_invoices (company_id, issue_date, id) where status <> 'draft' and not migrated;
    create index purchase_invoices_declared_idx on purchase_invoices (company_id, document_date, id) where status <> 'draft' and not migrated;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop index purchase_invoices_declared_idx;
    drop index sale_invoices_declared_idx;
  `);
}
