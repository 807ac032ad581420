// The fixed-assets migrations (20261124000201, 20261124000202; 20261127000300 in the second test) on a database that
// already has data: a database as an older release left it (test/fixtures), books written there with the posting
// function of that time, migrated forward with today's code; the data stays, and the new tables and the new document
// type work on it.
import { afterEach, expect, test } from "@jest/globals";
import { createDb, type Db } from "../../src/db/connection.js";
import { migrate } from "../../src/db/migrate.js";
import { withTransaction } from "../../src/db/transaction.js";
import { bootstrapAccount } from "../../src/account/accounts.js";
import { post } from "../../src/ledger/posting.js";
import { migrationSource } from "../../src/db/migrations/index.js";
import { postMonth } from "../../src/assets/depreciation.js";
import { reverseDepreciation } from "../../src/assets/reversal.js";
import { restoreFixture, type Fixture, type RestoredDatabase } from "../support/fixtures.js";

let database: RestoredDatabase | undefined;
let db: Db;
/** The database of an older release, and a handle on it (the test's `db`). */
async function olderRelease(fixture: Fixture): Promise<void> {
  database = await restoreFixture(fixture);
  db = createDb({ connectionString: database.connectionString, poolMax: 2 });
}
afterEach(async () => {
  await db?.destroy();
  await database?.drop();
  database = undefined;
});

const tableExists = async (name: string) => (await db.raw("select to_regclass(?) as t", [name])).rows[0].t !== null;

test("a database of the release before them, books written, migrated forward: the books stay and the assets tables work on them", async () => {
  // A database of the release before the assets migrations (05401b5's migrations up to 20261124000151).
  await olderRelease("20261124000151");
  expect(await db("knex_migrations").orderBy("name", "desc").first("name")).toEqual({ name: "20261124000151_invoice_open_totals" });
  expect(await tableExists("fixed_assets")).toBe(false);

  const account = await bootstrapAccount(db, "before assets");
  const [company] = await db("companies")
    .insert({ account_id: account.accountId, name: "Senoji UAB", code: "OLD", country_code: "LT", base_currency: "EUR", invoice_currency: "EUR" })
    .returning("id");
  await db("ledger_accounts").insert(
    [
      ["1230", "asset"],
      ["1237", "asset"],
      ["4430", "liability"],
      ["6206", "expense"],
    ].map(([code, type]) => ({ company_id: company.id, code, name: code, type })),
  );
  const bought = await withTransaction(db, (trx) =>
    post(trx, {
      companyId: company.id,
      date: "2026-01-20",
      documentType: "manual",
      entries: [
        { accountCode: "1230", debit: "3600.00" },
        { accountCode: "4430", credit: "3600.00" },
      ],
    }),
  );
  await withTransaction(db, (trx) =>
    post(trx, {
      companyId: company.id,
      date: "2026-01-31",
      documentType: "depreciation",
      entries: [
        { accountCode: "6206", debit: "10.00" },
        { accountCode: "1237", credit: "10.00" },
      ],
    }),
  );

  await migrate(database!.connectionString);
  expect(await db("journal_transactions").where({ company_id: company.id }).orderBy("date").pluck("document_type")).toEqual(["manual", "depreciation"]);
  await db("asset_groups").insert({
    company_id: company.id,
    code: "VANS",
    name: "Furgonai",
    asset_account_code: "1230",
    depreciation_account_code: "1237",
    expense_account_code: "6206",
    default_useful_life_months: 36,
  });
  const [asset] = await db("fixed_assets")
    .insert({
      company_id: company.id,
      code: "V-1",
      name: "Van",
      group_code: "VANS",
      acquisition_date: "2026-01-20",
      put_into_use_date: "2026-01-20",
      depreciation_start_date: "2026-02-01",
      acquisition_cost: "3600.00",
      useful_life_months: 36,
      source_transaction_id: bought.id,
    })
    .returning("*");
  expect(asset).toMatchObject({ status: "active", accumulated_depreciation: "0.00", source_transaction_id: bought.id });
  const disposal = await withTransaction(db, (trx) =>
    post(trx, {
      companyId: company.id,
      date: "2026-02-10",
      documentType: "asset_disposal",
      entries: [
        { accountCode: "6206", debit: "3600.00" },
        { accountCode: "1230", credit: "3600.00" },
      ],
    }),
  );
  expect(disposal.documentType).toBe("asset_disposal");
  expect((await db.raw("select reloptions from pg_class where relname = 'fixed_assets'")).rows[0].reloptions).toEqual(["fillfactor=50"]);
});

// Migration 20261127000300 (issue 22: reversible months, months in several transactions) on a database holding
// months posted the way they were before it: each run's journal transaction moves to the runs' transactions, every
// run and line becomes run 1, and the new code goes on from there; undone, the runs get their transaction back;
// undone after a reversal, it refuses (it would lose the reversed run).
test("20261127000300: months posted before it go on after it, and come back when it is undone", async () => {
  const MIGRATION = "20261127000300_depreciation_reversal";
  const applied = async () => (await db("knex_migrations").where({ name: MIGRATION })).length === 1;
  const backTo300 = async () => {
    while (await applied()) await db.migrate.down({ migrationSource });
  };
  // A database of release 05401b5, the last before migration 20261127000300.
  await olderRelease("05401b5");
  expect(await applied()).toBe(false);
  expect(await tableExists("asset_depreciation_run_transactions")).toBe(false);

  const account = await bootstrapAccount(db, "before reversals");
  const [company] = await db("companies")
    .insert({ account_id: account.accountId, name: "Nusidėvėjimas UAB", code: "DEPR", country_code: "LT", base_currency: "EUR", invoice_currency: "EUR" })
    .returning("id");
  await db("ledger_accounts").insert(
    ["1230:asset", "1237:asset", "6206:expense"].map((a) => ({ company_id: company.id, code: a.split(":")[0], name: a, type: a.split(":")[1] })),
  );
  await db("asset_groups").insert({
    company_id: company.id,
    code: "VANS",
    name: "Furgonai",
    asset_account_code: "1230",
    depreciation_account_code: "1237",
    expense_account_code: "6206",
    default_useful_life_months: 12,
  });
  const [asset] = await db("fixed_assets")
    .insert({
      company_id: company.id,
      code: "V-1",
      name: "Van",
      group_code: "VANS",
      acquisition_date: "2026-01-20",
      put_into_use_date: "2026-01-20",
      depreciation_start_date: "2026-02-01",
      acquisition_cost: "1200.00",
      useful_life_months: 12,
    })
    .returning("id");
  // February as the run posted it before the migration: the run with its transaction, the line, the card moved.
  const february = await withTransaction(db, async (trx) => {
    const tx = await post(trx, {
      companyId: company.id,
      date: "2026-02-28",
      documentType: "depreciation",
      source: { type: "asset_depreciation_run", id: "2026-02" },
      entries: [
        { accountCode: "6206", debit: "100.00" },
        { accountCode: "1237", credit: "100.00" },
      ],
    });
    await trx("asset_depreciation_runs").insert({
      company_id: company.id,
      month: "2026-02-01",
      journal_transaction_id: tx.id,
      asset_count: 1,
      total: "100.00",
    });
    await trx("asset_depreciation_lines").insert({
      company_id: company.id,
      asset_id: asset.id,
      month: "2026-02-01",
      group_code: "VANS",
      expense_account_code: "6206",
      depreciation_account_code: "1237",
      amount: "100.00",
      accumulated_after: "100.00",
      depreciated_months_after: 1,
    });
    await trx("fixed_assets")
      .where({ id: asset.id })
      .update({ accumulated_depreciation: "100.00", depreciated_months: 1, last_depreciated_month: "2026-02-01" });
    return tx;
  });

  await migrate(database!.connectionString);
  expect(await db("asset_depreciation_runs").where({ company_id: company.id }).select("month", "run_no", "reversed_at")).toEqual([
    { month: "2026-02-01", run_no: 1, reversed_at: null },
  ]);
  expect(
    await db("asset_depreciation_run_transactions")
      .where({ company_id: company.id })
      .select("month", "run_no", "part", "journal_transaction_id", "reversal_transaction_id"),
  ).toEqual([{ month: "2026-02-01", run_no: 1, part: 1, journal_transaction_id: february.id, reversal_transaction_id: null }]);
  expect(await db("asset_depreciation_lines").where({ company_id: company.id }).pluck("run_no")).toEqual([1]);
  const march = await withTransaction(db, (trx) => postMonth(trx, company.id, account.keyId, "2026-03"));
  expect(march).toMatchObject({ assetCount: 1, total: "100.00", journalTransactionIds: [expect.any(String)] });

  // Undone with no month reversed: each run has its one transaction again.
  await backTo300();
  expect(await db("asset_depreciation_runs").where({ company_id: company.id }).orderBy("month").select("month", "journal_transaction_id")).toEqual([
    { month: "2026-02-01", journal_transaction_id: february.id },
    { month: "2026-03-01", journal_transaction_id: march.journalTransactionId },
  ]);

  // Forward again, March reversed: undoing the migration now would lose that, and is refused.
  await migrate(database!.connectionString);
  await withTransaction(db, (trx) => reverseDepreciation(trx, company.id, account.keyId, "2026-03"));
  await expect(backTo300()).rejects.toThrow(/cannot be undone/);
  expect(await applied()).toBe(true);
  expect(await db("fixed_assets").where({ id: asset.id }).first("accumulated_depreciation", "depreciated_months")).toEqual({
    accumulated_depreciation: "100.00",
    depreciated_months: 1,
  });
  await migrate(database!.connectionString);
});
