import type { Knex } from "knex";

// PVM42 (issue 24, item 3): goods acquired from a VAT payer of another EU state for triangular trade, FR0600 box 22
// ("Iš ES įsigytos prekės trikampei prekybai"; the box → classifier of Odoo l10n_lt account.tax-lt.csv, which
// tracks VMI's classifier). The company is the intermediary of a triangular trade (EU VAT directive 2006/112/EC
// Art. 141 and 197; the article of PVM įstatymas transposing them is not verified here): its acquisition is not taxed and the last
// buyer accounts for the VAT of its supply, so the intermediary self-assesses nothing. A classifier of its own kind,
// `triangular`, at 0%: carried by reverse-charge purchases only (an acquisition from another EU state), never by a
// sale.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table vat_classifiers drop constraint vat_classifiers_kind_check,
      add constraint vat_classifiers_kind_check check (kind in ('standard', 'reduced', 'zero', 'exempt', 'outside_scope', 'reverse_charge', 'triangular'));
    insert into vat_classifiers (country_code, code, kind, rate, valid_from, valid_to, name, description, source, default_for_rate) values
      ('LT', 'PVM42', 'triangular', 0, '2025-01-01', null,
       'Prekių įsigijimas trikampei prekybai / Goods acquired for triangular trade',
       'Goods acquired from a VAT payer of another EU member state by the intermediary of a triangular trade and supplied on to a buyer in a third member state, who accounts for the VAT: no VAT is calculated on the acquisition (FR0600 box 22).',
       'Directive 2006/112/EC Art. 141, 197 (triangular simplification); VMI VAT classifier; FR0600 box 22 as in Odoo l10n_lt account.tax-lt.csv', false);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    delete from vat_classifiers where country_code = 'LT' and code = 'PVM42';
    alter table vat_classifiers drop constraint vat_classifiers_kind_check,
      add constraint vat_classifiers_kind_check check (kind in ('standard', 'reduced', 'zero', 'exempt', 'outside_scope', 'reverse_charge'));
  `);
}
