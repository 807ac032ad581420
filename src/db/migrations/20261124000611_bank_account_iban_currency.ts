import type { Knex } from "knex";

// Bank: a bank account is unique per company, IBAN and currency, no longer per IBAN. Lithuanian banks (Swedbank, SEB,
// Luminor) give a multi-currency account one IBAN and export its EUR and USD statements in one camt.053 file; each
// currency is a bank account of its own (one currency, one ledger account). The new constraint is narrower than the
// old one, so rows that satisfied the old one satisfy it: adding it only builds its index. It leads with company_id
// and then iban, so it still serves the look-up of a company's accounts by IBAN.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table bank_accounts
      drop constraint bank_accounts_iban_key,
      add constraint bank_accounts_iban_currency_key unique (company_id, iban, currency);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table bank_accounts
      drop constraint bank_accounts_iban_currency_key,
      add constraint bank_accounts_iban_key unique (company_id, iban);
  `);
}
