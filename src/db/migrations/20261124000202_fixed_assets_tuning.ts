import type { Knex } from "knex";

// The monthly depreciation run updates every active card of a company in one statement (50,000 in the benchmark).
// With the default fillfactor of 100 every updated row moves to another page and every index of the card gets a
// new entry; with room left on each page the update is HOT (none of the indexed columns changes), which the
// benchmark measures at about a third of the time. Pages written from now on keep the room; a table that already
// holds many cards gets it on its next rewrite (VACUUM FULL or CLUSTER), which a migration does not force.
// The lines are written and read by month: their key leads with it, and the separate month index goes.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table fixed_assets set (fillfactor = 50);
    alter table asset_depreciation_lines drop constraint asset_depreciation_lines_pkey;
    alter table asset_depreciation_lines add constraint asset_depreciation_lines_pkey primary key (company_id, month, asset_id);
    drop index asset_depreciation_lines_month_idx;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    create index asset_depreciation_lines_month_idx on asset_depreciation_lines (company_id, month);
    alter table asset_depreciation_lines drop constraint asset_depreciation_lines_pkey;
    alter table asset_depreciation_lines add constraint asset_depreciation_lines_pkey primary key (company_id, asset_id, month);
    alter table fixed_assets reset (fillfactor);
  `);
}
