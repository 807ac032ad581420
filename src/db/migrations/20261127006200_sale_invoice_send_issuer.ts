import type { Knex } from "knex";
import { define } from "../definitions.js";

// The issuer a send's PDF names ("Sąskaitą išrašė / Issued by", issue 25): asked with the send (`issuer`), kept with
// what was asked (the keep-request trigger covers it), rendered by the worker; null: the company's `invoiceIssuer`.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table sale_invoice_sends add column issuer jsonb check (jsonb_typeof(issuer) = 'object')`);
  await define(knex, "sale_invoice_sends_keep_request");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table sale_invoice_sends drop column issuer");
}
