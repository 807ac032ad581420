import type { Knex } from "knex";

// The documents a buyer reads (issue 25): the language of each partner's documents (lt, en, or lt-en as until now)
// and who issues the company's invoices (name and position, printed as "Sąskaitą išrašė / Issued by").
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table partners add column document_language text not null default 'lt-en' check (document_language in ('lt', 'en', 'lt-en'));
    alter table companies add column invoice_issuer jsonb
      check (invoice_issuer is null or (jsonb_typeof(invoice_issuer) = 'object' and jsonb_typeof(invoice_issuer -> 'name') = 'string'));
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table companies drop column invoice_issuer;
    alter table partners drop column document_language;
  `);
}
