import type { Knex } from "knex";

// VAT classifiers (issue 8): the tax authority's PVM… codes that i.SAF's TaxCode (isaf_1_2.xsd, ISAFTaxCodeType
// "PVM([0-9])*") and the FR0600 declaration aggregate by, with the rate each carries and the days it does. Global
// reference data shipped with the API, like vat_rates; a later change is a new migration that closes a row
// (valid_to) and adds the new one. An item or invoice line carries its classifier, so a supply whose 9% rate was
// split on 2026-01-01 (into 12%, 5% or 21%) is identified by the classifier, not guessed from the number.
//
// Sources: the VAT classifier approved by VMI order No. VA-49 of 2015-07-21 (i.SAF technical specification) with
// its later amendments, the codes' meanings as VMI lists them (PVM1-PVM3: supplies at the rates of PVM įstatymas
// Art. 19; PVM5: exempt supplies, Art. 20-33 and 112; PVM12: export of goods, Art. 41; PVM13: intra-Community
// supplies, Art. 49; PVM14: other zero-rated transactions, Art. 42-48, 51-53; PVM15: supplies outside Lithuania with
// a right to deduct, Art. 58(1)(2); PVM16: intra-Community acquisitions; PVM20/PVM21: services bought from non-EU
// and EU suppliers, VAT calculated by the buyer, Art. 95(2); PVM25: domestic reverse charge, Art. 96), and the
// law of 2025 abolishing the 9% rate from 2026-01-01 (XV-287). PVM58 for the 12% rate of 2026 follows Odoo's l10n_lt
// tax template (account.tax-lt.csv), which tracks VMI's classifier.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table vat_classifiers (
      country_code text not null check (country_code ~ '^[A-Z]{2}$'),
      code text not null check (code ~ '^PVM[0-9]{1,3}$'),
      kind text not null check (kind in ('standard', 'reduced', 'zero', 'exempt', 'outside_scope', 'reverse_charge')),
      rate numeric(5, 2) not null check (rate between 0 and 100),
      valid_from date not null,
      valid_to date check (valid_to >= valid_from),
      name text not null,
      description text not null,
      source text not null,
      -- Whether a bare rate names this classifier (a catalog item sent with a rate and no classifier): only the
      -- classifiers of ordinary domestic supplies, one per rate and day.
      default_for_rate boolean not null default false,
      -- The classifiers that took over a period that ended, when the law split it (PVM2's 9% supplies went to PVM58
      -- at 12%, PVM3 at 5% and PVM1 at 21% on 2026-01-01): a line cannot be moved from the number alone.
      replaced_by text[] not null default '{}',
      primary key (country_code, code, valid_from)
    );

    insert into vat_classifiers (country_code, code, kind, rate, valid_from, valid_to, name, description, source, default_for_rate) values
      ('LT', 'PVM1', 'standard', 21, '2025-01-01', null,
       'Standartinis tarifas / Standard rate',
       'Goods and services supplied in Lithuania at the standard rate; from 2026-01-01 also heating and hot water for residential premises and firewood (previously 9%).',
       'PVM įstatymas Art. 19(1); VMI VAT classifier (order VA-49)', true),
      ('LT', 'PVM2', 'reduced', 9, '2025-01-01', '2025-12-31',
       'Lengvatinis 9 % tarifas / Reduced rate 9%',
       'Heating and hot water for residential premises, firewood, books and non-periodical information publications, passenger and luggage transport on regular routes, tourist accommodation, admission to art and cultural institutions and events. The 9% rate ended on 2025-12-31: a supply whose tax point is on or before that day keeps 9%, whatever the invoice date.',
       'PVM įstatymas Art. 19 (as in force until 2025-12-31); law XV-287; VMI VAT classifier', true),
      ('LT', 'PVM3', 'reduced', 5, '2025-01-01', '2025-12-31',
       'Lengvatinis 5 % tarifas / Reduced rate 5%',
       'Medicines and medical aids (compensated or prescribed), technical aids for disabled persons, periodicals (newspapers and magazines, printed and electronic), food for special medical purposes.',
       'PVM įstatymas Art. 19; VMI VAT classifier', true),
      ('LT', 'PVM3', 'reduced', 5, '2026-01-01', null,
       'Lengvatinis 5 % tarifas / Reduced rate 5%',
       'Medicines and medical aids (compensated or prescribed), technical aids for disabled persons, periodicals (newspapers and magazines, printed and electronic), food for special medical purposes, and from 2026-01-01 books and non-periodical information publications, printed and electronic (previously 9%).',
       'PVM įstatymas Art. 19 (as amended by law XV-287 from 2026-01-01); VMI VAT classifier', true),
      ('LT', 'PVM58', 'reduced', 12, '2026-01-01', null,
       'Lengvatinis 12 % tarifas / Reduced rate 12%',
       'Tourist accommodation, passenger and luggage transport on regular routes, admission to art and cultural institutions and events (previously 9%).',
       'PVM įstatymas Art. 19 (as amended by law XV-287 from 2026-01-01); classifier code as in Odoo l10n_lt account.tax-lt.csv', true),
      ('LT', 'PVM5', 'exempt', 0, '2025-01-01', null,
       'Neapmokestinama PVM / Exempt',
       'Supplies exempt from VAT without a right to deduct input VAT (health care, education, financial and insurance services, rent of residential premises, etc.).',
       'PVM įstatymas Art. 20-33 and 112; VMI VAT classifier', false),
      ('LT', 'PVM12', 'zero', 0, '2025-01-01', null,
       'Prekių eksportas / Export of goods',
       'Export of goods outside the EU, 0% with a right to deduct.',
       'PVM įstatymas Art. 41; VMI VAT classifier', false),
      ('LT', 'PVM13', 'zero', 0, '2025-01-01', null,
       'Tiekimas ES PVM mokėtojams / Intra-Community supply of goods',
       'Goods supplied to VAT payers of other EU member states, 0% with a right to deduct.',
       'PVM įstatymas Art. 49(1), (2), (4); VMI VAT classifier', false),
      ('LT', 'PVM14', 'zero', 0, '2025-01-01', null,
       'Kiti 0 % sandoriai / Other zero-rated transactions',
       'Other transactions at 0%: international transport and services linked with export, supplies for ships and aircraft, diplomatic supplies and the like.',
       'PVM įstatymas Art. 42-48, 49(2) and (3), 51-53; VMI VAT classifier', false),
      ('LT', 'PVM15', 'outside_scope', 0, '2025-01-01', null,
       'Patiekta už Lietuvos ribų / Supplied outside Lithuania',
       'Goods and services whose place of supply is outside Lithuania (not a Lithuanian VAT object), with a right to deduct input VAT.',
       'PVM įstatymas Art. 58(1)(2); VMI VAT classifier', false),
      ('LT', 'PVM16', 'reverse_charge', 21, '2025-01-01', null,
       'Prekių įsigijimas iš ES / Intra-Community acquisition of goods',
       'Goods acquired from other EU member states, VAT calculated by the buyer (output and input VAT).',
       'PVM įstatymas Art. 11 and 122; VMI VAT classifier', false),
      ('LT', 'PVM20', 'reverse_charge', 21, '2025-01-01', null,
       'Paslaugos iš ne ES / Services bought from outside the EU',
       'Services bought from suppliers outside the EU (other than EU VAT payers), VAT calculated by the buyer.',
       'PVM įstatymas Art. 95(2); VMI VAT classifier', false),
      ('LT', 'PVM21', 'reverse_charge', 21, '2025-01-01', null,
       'Paslaugos iš ES PVM mokėtojų / Services bought from EU VAT payers',
       'Services bought from VAT payers of other EU member states, VAT calculated by the buyer.',
       'PVM įstatymas Art. 95(2); VMI VAT classifier', false),
      ('LT', 'PVM25', 'reverse_charge', 21, '2025-01-01', null,
       'Atvirkštinis apmokestinimas šalyje / Domestic reverse charge',
       'Supplies on which the Lithuanian buyer calculates and pays the VAT (timber, scrap metal, construction work between VAT payers and the like).',
       'PVM įstatymas Art. 96; VMI VAT classifier', false);

    update vat_classifiers set replaced_by = '{PVM58,PVM3,PVM1}' where country_code = 'LT' and code = 'PVM2';

    -- The 5% descriptions name periodicals and food for special medical purposes as well (issue 8).
    update vat_rates set description = 'Certain medicines and medical aids (compensated or prescribed), technical aids for disabled persons, periodicals (printed and electronic), food for special medical purposes.'
     where country_code = 'LT' and rate = 5 and valid_from = '2025-01-01';
    update vat_rates set description = 'Certain medicines and medical aids, technical aids for disabled persons, periodicals (printed and electronic), food for special medical purposes; printed and electronic books and non-periodical information publications (previously 9%).'
     where country_code = 'LT' and rate = 5 and valid_from = '2026-01-01';

    -- Catalog items carry their classifier. Existing items get the one their rate names (none for 0%, which
    -- several classifiers share, and none for a rate no classifier carries).
    alter table catalog_items add column vat_classifier text check (vat_classifier ~ '^PVM[0-9]{1,3}$');
    update catalog_items i set vat_classifier = c.code
      from companies co, (select distinct on (country_code, rate) country_code, rate, code from vat_classifiers where default_for_rate order by country_code, rate, valid_from desc) c
     where co.id = i.company_id and c.country_code = co.country_code and c.rate = i.vat_rate_percent;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table catalog_items drop column vat_classifier;
    drop table vat_classifiers;
  `);
}
