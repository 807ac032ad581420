import type { Knex } from "knex";

// A SAF-T general ledger file (issue 27) writes, on the line of a document's journal transaction that names its
// partner, the tax information the document declared (vat_declared_rows, stored when it posted): the file reads the
// rows of each page of its journal by their transactions.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create index vat_declared_rows_transaction_idx on vat_declared_rows (company_id, journal_transaction_id) where journal_transaction_id is not null;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop index vat_declared_rows_transaction_idx");
}
