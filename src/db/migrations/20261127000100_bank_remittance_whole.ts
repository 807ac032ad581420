import type { Knex } from "knex";

// Bank (issue 22): a transaction's remittance information is stored whole, never cut. A camt.053 entry's texts (each
// Max140Text, as many as the bank writes; a batch kept as one transaction holds every detail's) may together exceed
// the 1,000 characters the column held; they were cut to fit. The bound becomes 10,000 (MAX_REMITTANCE in
// src/bank/transactions.ts, the contract's maxLength); a longer one is refused by the import, naming the entry.
// Widening a check: every stored row already satisfies it.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table bank_transactions
      drop constraint bank_transactions_remittance_information_check,
      add constraint bank_transactions_remittance_information_check check (length(remittance_information) <= 10000);
  `);
}

// Back to 1,000: rows stored with a longer text since are left as they are (not valid), new ones are held to it.
export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table bank_transactions
      drop constraint bank_transactions_remittance_information_check,
      add constraint bank_transactions_remittance_information_check check (length(remittance_information) <= 1000) not valid;
  `);
}
