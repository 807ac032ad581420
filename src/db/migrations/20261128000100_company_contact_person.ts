import type { Knex } from "knex";

// The person the tax authority contacts about a company's books (issue 27): a SAF-T file's header names a contact
// (first and last name, telephone, e-mail). Null until the company sets one (account/companies/update).
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table companies add column contact_person jsonb
      check (contact_person is null or (jsonb_typeof(contact_person) = 'object' and jsonb_typeof(contact_person -> 'firstName') = 'string'
                                         and jsonb_typeof(contact_person -> 'lastName') = 'string'));
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table companies drop column contact_person");
}
