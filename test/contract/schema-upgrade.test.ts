// Existing databases migrate forward with no change of behaviour (issue 23): a database as release 05401b5 left it
// (the last before the repeatable definitions; test/fixtures) migrated with today's code has the same schema as one
// created fresh — tables, constraints, indexes, triggers and every function's text — and the same reference rows.
// And the definitions are applied again only when their text changes.
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import { createDb, type Db } from "../../src/db/connection.js";
import { loadDefinitions, pendingDefinitions } from "../../src/db/definitions.js";
import { migrate, pendingMigrations } from "../../src/db/migrate.js";
import { dumpSchema } from "../../src/db/schema-dump.js";
import { createTestDatabase } from "../support/harness.js";
import { restoreFixture, type RestoredDatabase } from "../support/fixtures.js";

let fresh: Awaited<ReturnType<typeof createTestDatabase>>;
let old: RestoredDatabase;
let freshDb: Db;
let oldDb: Db;
beforeAll(async () => {
  fresh = await createTestDatabase();
  old = await restoreFixture("05401b5");
  freshDb = createDb({ connectionString: fresh.connectionString, poolMax: 2 });
  oldDb = createDb({ connectionString: old.connectionString, poolMax: 2 });
});
afterAll(async () => {
  await freshDb.destroy();
  await oldDb.destroy();
  await fresh.drop();
  await old.drop();
});

const referenceRows = (db: Db) =>
  Promise.all([
    db("vat_rates").orderBy(["country_code", "rate", "valid_from"]).select("*"),
    db("vat_classifiers").orderBy(["country_code", "code", "valid_from"]).select("*"),
    db("knex_migrations").orderBy("name").pluck("name"),
  ]);

test("a database of release 05401b5, migrated forward, has the schema and reference rows of a fresh one", async () => {
  // The fixture is what it says: 05401b5's migrations, none of the later ones, its functions of that time.
  expect((await oldDb("knex_migrations").pluck("name")).length).toBe(39);
  expect(await pendingMigrations(oldDb)).toContain("definition:stock_take_fifo");
  const before = await dumpSchema(oldDb);
  await migrate(old.connectionString);
  expect(await pendingMigrations(oldDb)).toEqual([]);
  const upgraded = await dumpSchema(oldDb);
  expect(upgraded).not.toEqual(before);
  expect(upgraded).toEqual(await dumpSchema(freshDb));
  expect(await referenceRows(oldDb)).toEqual(await referenceRows(freshDb));
});

test("definitions are applied when their text changes, and only then", async () => {
  const applied = async () =>
    new Map(
      (await freshDb("schema_definitions").select("name", "applied_at")).map((r: { name: string; applied_at: Date }) => [r.name, r.applied_at.getTime()]),
    );
  const first = await applied();
  expect([...first.keys()].sort()).toEqual(loadDefinitions().map((d) => d.name));
  // Nothing changed: nothing is applied again.
  await migrate(fresh.connectionString);
  expect(await applied()).toEqual(first);
  // A recorded checksum that differs (an edited file) or a function dropped behind its back: applied again.
  await freshDb("schema_definitions")
    .where({ name: "refuse_change" })
    .update({ checksum: "0".repeat(64) });
  await freshDb.raw("drop function stock_level_peak(uuid, text, uuid, date, numeric, numeric)");
  expect((await pendingDefinitions(freshDb)).sort()).toEqual(["refuse_change", "stock_level_peak"]);
  await migrate(fresh.connectionString);
  const after = await applied();
  expect(
    [...after]
      .filter(([name, at]) => at !== first.get(name))
      .map(([name]) => name)
      .sort(),
  ).toEqual(["refuse_change", "stock_level_peak"]);
  expect(await pendingDefinitions(freshDb)).toEqual([]);
  expect((await freshDb.raw("select to_regprocedure('stock_level_peak(uuid, text, uuid, date, numeric, numeric)') as f")).rows[0].f).not.toBeNull();
});
