import type { Knex } from "knex";

// Files kept with a purchase document (issue 25, `purchases/invoices/import-ubl`): the supplier's e-invoice as it was
// received, and each file it embeds (cac:AdditionalDocumentReference, BT-125: usually the invoice's PDF). The bytes
// are stored as received; they go only with their draft (a registered document is never deleted). Their size is bounded by the import's own limit; the check here keeps any other writer to the same bound.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table purchase_invoice_attachments (
      company_id uuid not null references companies(id),
      id uuid not null default gen_random_uuid(),
      invoice_id uuid not null,
      kind text not null check (kind in ('einvoice', 'embedded')),
      file_name text not null check (length(file_name) between 1 and 255),
      content_type text not null check (length(content_type) between 1 and 255),
      description text check (length(description) <= 1000),
      content bytea not null check (octet_length(content) between 1 and 10485760),
      size_bytes integer not null generated always as (octet_length(content)) stored,
      sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
      created_at timestamptz not null default now(),
      primary key (company_id, id),
      foreign key (company_id, invoice_id) references purchase_invoices(company_id, id) on delete cascade
    );
    create index purchase_invoice_attachments_invoice_idx on purchase_invoice_attachments (company_id, invoice_id, created_at, id);
    create index purchase_invoice_attachments_created_idx on purchase_invoice_attachments (company_id, created_at desc, id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop table purchase_invoice_attachments");
}
