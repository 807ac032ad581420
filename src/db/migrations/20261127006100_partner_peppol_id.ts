import type { Knex } from "knex";

// A partner's own Peppol participant identifier (issue 25), `scheme:id` as Peppol writes it (e.g. `0200:304000004`):
// the buyer's electronic address (BT-49) of the e-invoices exported to it, in place of the one derived from its
// company or VAT code. The scheme is one of Peppol's EAS codes (checked by the partners module against the code list);
// the database keeps the shape.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table partners add column peppol_id text check (peppol_id ~ '^[0-9]{4}:[A-Za-z0-9][A-Za-z0-9._:+/-]{0,99}$')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table partners drop column peppol_id");
}
