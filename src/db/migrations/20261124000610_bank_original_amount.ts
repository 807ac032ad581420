import type { Knex } from "knex";

// Bank: a foreign payment's instructed amount (camt.053 AmtDtls/InstdAmt, or bank/transactions/import's
// originalAmount) kept on the transaction as information, since a transaction is now always in its bank account's
// currency. Nullable columns without a default: adding them rewrites nothing on a table with data.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table bank_transactions
      add column original_amount numeric(18, 4) check (original_amount <> 0),
      add column original_currency text check (original_currency ~ '^[A-Z]{3}$'),
      add constraint bank_transactions_original check ((original_amount is null) = (original_currency is null));
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`alter table bank_transactions drop constraint bank_transactions_original, drop column original_amount, drop column original_currency;`);
}
