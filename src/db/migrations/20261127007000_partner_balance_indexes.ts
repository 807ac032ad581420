import type { Knex } from "knex";

// The paths partners/statement and partners/balances read one partner by (issue 26, src/ledger/reports/partners.ts):
// the partner's lines of a range (journal_entries' other indexes lead with the account or the date alone, so one
// customer's statement would read every receivable line of the range), and its balances per month (ledger_balances'
// key leads with the account). Both partial: only lines and balances that name a partner. The balances' index holds
// no debit or credit, so the trigger's in-place additions to a key stay HOT updates.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create index journal_entries_partner_date_idx on journal_entries (company_id, partner_code, date) where partner_code is not null;
    create index ledger_balances_partner_idx on ledger_balances (company_id, partner_code, month) where partner_code is not null;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop index ledger_balances_partner_idx;
    drop index journal_entries_partner_date_idx;
  `);
}
