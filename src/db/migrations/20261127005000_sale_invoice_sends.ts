import type { Knex } from "knex";
import { define } from "../definitions.js";

// Sending a sales document by e-mail (issue 25, `sales/invoices/send`): each request is one row, queued in the
// request's transaction with its worker job, then marked sent or failed by the worker (src/jobs/send-sale-invoice.ts).
// What was asked (recipients, subject, message, attachments) never changes after the request; only the outcome
// columns move, forward only: queued -> sent | failed.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table sale_invoice_sends (
      company_id uuid not null references companies(id),
      id uuid not null default gen_random_uuid(),
      invoice_id uuid not null,
      recipients text[] not null check (cardinality(recipients) between 1 and 10),
      cc text[] not null default '{}' check (cardinality(cc) <= 10),
      subject text not null check (length(subject) between 1 and 998),
      message text check (length(message) <= 10000),
      attach text[] not null check (attach <@ array['pdf', 'ubl']::text[]),
      status text not null default 'queued' check (status in ('queued', 'sent', 'failed')),
      attempts integer not null default 0 check (attempts >= 0),
      last_error text,
      sent_at timestamptz,
      failed_at timestamptz,
      key_id uuid,
      created_at timestamptz not null default now(),
      primary key (company_id, id),
      foreign key (company_id, invoice_id) references sale_invoices(company_id, id),
      check ((status = 'sent') = (sent_at is not null)),
      check ((status = 'failed') = (failed_at is not null))
    );
    create index sale_invoice_sends_invoice_idx on sale_invoice_sends (company_id, invoice_id, created_at desc);
    create index sale_invoice_sends_created_idx on sale_invoice_sends (company_id, created_at desc, id);
  `);
  await define(knex, "sale_invoice_sends_keep_request");
  await knex.raw(`
    create trigger sale_invoice_sends_keep_request before update or delete on sale_invoice_sends
      for each row execute function sale_invoice_sends_keep_request();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop table sale_invoice_sends");
}
