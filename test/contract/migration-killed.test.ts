// Rule 1 with a process killed in the middle (issue 13): an import runs in a server process of its own, which is
// killed (SIGKILL, no shutdown) while the import is writing; the database is then exactly as before (the open
// transaction is rolled back, the per-company lock is gone), and the same package imports afterwards.
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import { startHarness, type Harness } from "../support/harness.js";
import { startServerProcess } from "../support/processes.js";
import { booksWorld, type BooksPackage } from "../support/books.js";
import { until } from "../support/timing.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 180_000);
afterAll(() => h.close());

/** A package big enough to be caught writing: 20,000 balanced two-line transactions of June 2026. */
const bigPackage = (): BooksPackage => ({
  cutoverDate: "2026-07-01",
  source: "killed",
  partners: Array.from({ length: 2000 }, (_, i) => ({ code: `K${i}`, name: `Partneris ${i}` })),
  openingBalances: {
    entries: [
      { accountCode: "2710", debit: "100.00" },
      { accountCode: "3010", credit: "100.00" },
    ],
    date: "2026-06-01",
  },
  journal: Array.from({ length: 20_000 }, (_, i) => ({
    date: `2026-06-${String(1 + (i % 28)).padStart(2, "0")}`,
    entries: [
      { accountCode: "2720", debit: "1.00" },
      { accountCode: "2710", credit: "1.00" },
    ],
  })),
});

test("an import killed mid-way leaves the database as it was; the next import succeeds", async () => {
  const w = await booksWorld(h);
  const count = async (table: string) => Number((await h.db(table).where({ company_id: w.companyId }).count({ n: "*" }))[0].n);
  const tables = ["partners", "journal_transactions", "journal_entries", "audit_log", "webhook_events"];
  const snapshot = async () => Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await count(t)])));
  const before = await snapshot();
  let importPid: number | undefined;
  let lastSeen = "";

  const server = await startServerProcess({ DATABASE_URL: h.connectionString });
  try {
    const body = JSON.stringify(bigPackage());
    const request = fetch(`${server.url}/v1/migration/books/import`, {
      method: "POST",
      headers: { authorization: `Bearer ${w.apiKey}`, "x-company-id": w.companyId, "content-type": "application/json" },
      body,
    }).catch((e: unknown) => e);
    // Writing: a backend of that server is inserting the history inside the import's transaction.
    await until(
      "the import to be writing the journal",
      async () => {
        const rows = (
          await h.db.raw<{ rows: { pid: number }[] }>(
            "select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend' and state = 'active' and query ilike 'insert into journal_%' and pid <> pg_backend_pid()",
          )
        ).rows;
        importPid = rows[0]?.pid;
        return importPid !== undefined;
      },
      { timeoutMs: 120_000, intervalMs: 20 },
    );
    await server.kill9();
    // The client sees the connection die (fetch failed), never an answer.
    expect(String(await request)).toMatch(/fetch failed/);
  } finally {
    await server.kill9();
  }
  // The orphaned backend finishes its statement, finds its client gone and rolls back; then its locks are released.
  await until(
    "the killed import's backend to end",
    async () => {
      const rows = (
        await h.db.raw<{ rows: { state: string; age: string; query: string }[] }>(
          "select state, (now() - xact_start)::text as age, query from pg_stat_activity where pid = ?",
          [importPid!],
        )
      ).rows;
      lastSeen = rows[0] ? `${rows[0].state}, in its transaction for ${rows[0].age}: ${rows[0].query.slice(0, 120)}` : "";
      return rows.length === 0;
    },
    { timeoutMs: 120_000, detail: () => lastSeen },
  );
  expect(await snapshot()).toEqual(before);
  // No advisory lock of this database is left (other test files' databases have their own).
  const advisory = await h.db.raw(
    "select count(*)::int as n from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())",
  );
  expect(advisory.rows[0].n).toBe(0);

  const result = await w.api.migration.books.import(bigPackage());
  expect([result.partners.created, result.journal.transactions]).toEqual([2000, 20_000]);
  expect(await count("journal_transactions")).toBe(before.journal_transactions + 20_001);
}, 600_000);
