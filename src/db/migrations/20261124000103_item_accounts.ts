import type { Knex } from "knex";

// Catalog items name the accounts their document lines post to (issue 10: a sales line's revenue account comes
// from the line, else from the item, else from the `sales.revenue` posting rule; purchases alike with
// `purchases.expense`). Null for every existing item: they keep posting through the rules.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table catalog_items
      add column revenue_account_code text,
      add column expense_account_code text,
      add constraint catalog_items_revenue_account_fkey foreign key (company_id, revenue_account_code) references ledger_accounts (company_id, code),
      add constraint catalog_items_expense_account_fkey foreign key (company_id, expense_account_code) references ledger_accounts (company_id, code);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table catalog_items drop column revenue_account_code, drop column expense_account_code");
}
