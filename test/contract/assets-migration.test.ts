// The fixed-assets migrations (20261124000201, 20261124000202) on a database that already has data: rolled back on a
// migrated copy, books written (a company, its chart, journal transactions of the document types that existed),
// migrated forward again; the data stays, and the new tables and the new document type work on it.
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import { createDb, type Db } from "../../src/db/connection.js";
import { withTransaction } from "../../src/db/transaction.js";
import { bootstrapAccount } from "../../src/domain/accounts.js";
import { post } from "../../src/ledger/posting.js";
import { migrationSource } from "../../src/db/migrations/index.js";
import { createTestDatabase } from "../support/harness.js";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ connectionString: database.connectionString, poolMax: 2 });
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

const tableExists = async (name: string) => (await db.raw("select to_regclass(?) as t", [name])).rows[0].t !== null;

test("rolled back, books written, migrated forward: the books stay and the assets tables work on them", async () => {
  // Back to before the assets migrations (and those after them, e.g. inventory), one migration at a time.
  while ((await db.migrate.currentVersion({ migrationSource })) >= "20261124000201") await db.migrate.down({ migrationSource });
  expect(await tableExists("fixed_assets")).toBe(false);

  const account = await bootstrapAccount(db, "before assets");
  const [company] = await db("companies").insert({ account_id: account.accountId, name: "Senoji UAB", code: "OLD", country_code: "LT", base_currency: "EUR", invoice_currency: "EUR" }).returning("id");
  await db("ledger_accounts").insert(
    [
      ["1230", "asset"],
      ["1237", "asset"],
      ["4430", "liability"],
      ["6206", "expense"],
    ].map(([code, type]) => ({ company_id: company.id, code, name: code, type })),
  );
  const bought = await withTransaction(db, (trx) =>
    post(trx, { companyId: company.id, date: "2026-01-20", documentType: "manual", entries: [{ accountCode: "1230", debit: "3600.00" }, { accountCode: "4430", credit: "3600.00" }] }),
  );
  await withTransaction(db, (trx) =>
    post(trx, { companyId: company.id, date: "2026-01-31", documentType: "depreciation", entries: [{ accountCode: "6206", debit: "10.00" }, { accountCode: "1237", credit: "10.00" }] }),
  );

  await db.migrate.latest({ migrationSource });
  expect(await db("journal_transactions").where({ company_id: company.id }).orderBy("date").pluck("document_type")).toEqual(["manual", "depreciation"]);
  await db("asset_groups").insert({ company_id: company.id, code: "VANS", name: "Furgonai", asset_account_code: "1230", depreciation_account_code: "1237", expense_account_code: "6206", default_useful_life_months: 36 });
  const [asset] = await db("fixed_assets")
    .insert({ company_id: company.id, code: "V-1", name: "Van", group_code: "VANS", acquisition_date: "2026-01-20", put_into_use_date: "2026-01-20", depreciation_start_date: "2026-02-01", acquisition_cost: "3600.00", useful_life_months: 36, source_transaction_id: bought.id })
    .returning("*");
  expect(asset).toMatchObject({ status: "active", accumulated_depreciation: "0.00", source_transaction_id: bought.id });
  const disposal = await withTransaction(db, (trx) =>
    post(trx, { companyId: company.id, date: "2026-02-10", documentType: "asset_disposal", entries: [{ accountCode: "6206", debit: "3600.00" }, { accountCode: "1230", credit: "3600.00" }] }),
  );
  expect(disposal.documentType).toBe("asset_disposal");
  expect((await db.raw("select reloptions from pg_class where relname = 'fixed_assets'")).rows[0].reloptions).toEqual(["fillfactor=50"]);
});
