// A historical-books package is imported once (issue 22, item 2). A package of only journal history, or of stock
// rows without serial numbers, collides with nothing in the service, so before the fix it imported again with 200
// and doubled the books. Now the same package again — however it is spelled — is 409 migration.package_imported
// naming the earlier import, through the API (validate and import) and the operator CLI alike; a retry with the same
// Idempotency-Key still replays the first 200; `repeatOf` imports a package once more on purpose; the database
// holds the rule too (migration_imports).
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startHarness, type Harness } from "../support/harness.js";
import { expectApiError } from "../support/expect.js";
import { runCli } from "../support/processes.js";
import { booksWorld, storedRows, type BooksPackage, type BooksWorld } from "../support/books.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 180_000);
afterAll(() => h.close());

const history = (): BooksPackage => ({
  cutoverDate: "2026-07-01",
  source: "Rivilė 2.0",
  journal: [
    {
      date: "2026-06-10",
      description: "Pardavimas",
      reference: "SF-42",
      entries: [
        { accountCode: "2410", debit: "610.00" },
        { accountCode: "5000", credit: "610.00" },
      ],
    },
    {
      date: "2026-06-15",
      entries: [
        { accountCode: "2720", debit: "50.00" },
        { accountCode: "2710", credit: "30.00" },
        { accountCode: "2710", credit: "20.00" },
      ],
    },
  ],
});
const stock = (): BooksPackage => ({
  cutoverDate: "2026-07-01",
  stock: [
    { itemCode: "PIENAS", quantity: "4", unitCost: "50", warehouseCode: "FILIAL", lotNumber: "L-1", expiryDate: "2026-08-01" },
    { itemCode: "PIENAS", quantity: "2.5", unitCost: "48.20", lotNumber: "L-2" },
  ],
});

const imports = (w: BooksWorld) =>
  h.db("migration_imports").where({ company_id: w.companyId }).orderBy("imported_at").select("id", "repeat_of", "source", "cutover_date", "fingerprint");

/** Sends a JSON text as is (its whitespace and property order are what the case is about). */
const postText = (w: BooksWorld, op: "validate" | "import", text: string, idempotencyKey?: string) =>
  h.post(`/v1/migration/books/${op}`, undefined, { key: w.apiKey, companyId: w.companyId, rawBody: text, idempotencyKey });

/** The package's JSON with every object's properties in reverse order, indented. */
const reversedKeys = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(reversedKeys)
    : value && typeof value === "object"
      ? Object.fromEntries(
          Object.entries(value)
            .reverse()
            .map(([k, v]) => [k, reversedKeys(v)]),
        )
      : value;

describe("the same package again", () => {
  test.each([
    ["journal history only", history, (p: BooksPackage) => JSON.stringify(p)],
    ["journal history, its properties reordered and indented", history, (p: BooksPackage) => JSON.stringify(reversedKeys(p), null, 2)],
    [
      "journal history, its rows and lines in another order, another source, amounts spelled otherwise",
      history,
      (p: BooksPackage) => {
        const q = structuredClone(p);
        q.source = "Rivilė 2.0 (second try)";
        q.journal!.reverse();
        q.journal![0].entries.reverse();
        q.journal![1].entries[0].debit = "610";
        return JSON.stringify(q);
      },
    ],
    ["stock rows without serial numbers", stock, (p: BooksPackage) => JSON.stringify(p)],
    [
      "stock rows, quantities spelled otherwise",
      stock,
      (p: BooksPackage) => {
        const q = structuredClone(p);
        q.stock![1].quantity = "2.50";
        q.stock![0].unitCost = "50.00";
        return JSON.stringify(q);
      },
    ],
  ])("%s: 409 migration.package_imported naming the earlier import, from validate and import; nothing stored again", async (_name, make, again) => {
    const w = await booksWorld(h);
    const first = await w.api.migration.books.import(make());
    expect(first.dryRun).toBe(false);
    const [record] = await imports(w);
    const after = await storedRows(h, w);
    const layers = await h.db("stock_layers").where({ company_id: w.companyId }).count({ n: "*" });
    for (const op of ["validate", "import"] as const) {
      const res = await postText(w, op, again(make()));
      expect([res.status, res.body.error?.key]).toEqual([409, "migration.package_imported"]);
      const importedAt = await h.db("migration_imports").where({ company_id: w.companyId, id: record.id }).first(h.db.raw("imported_at"));
      expect(res.body.error.params).toEqual({ importId: record.id, importedAt: importedAt.imported_at.toISOString(), imports: 1 });
      expect(res.body.error.message).toContain(record.id);
    }
    expect(await storedRows(h, w)).toEqual(after);
    expect(await h.db("stock_layers").where({ company_id: w.companyId }).count({ n: "*" })).toEqual(layers);
    expect((await imports(w)).length).toBe(1);
  });

  test("a package that differs in one row is another package: history for the same cut-over date imports", async () => {
    const w = await booksWorld(h);
    await w.api.migration.books.import(history());
    const more = history();
    more.journal![1].entries = [
      { accountCode: "2720", debit: "5.00" },
      { accountCode: "2710", credit: "5.00" },
    ];
    const result = await w.api.migration.books.import(more);
    expect(result.journal).toEqual({ transactions: 2, entries: 4 });
    expect(await h.db("journal_transactions").where({ company_id: w.companyId, document_type: "migration" }).count({ n: "*" })).toEqual([{ n: "4" }]);
    expect((await imports(w)).map((i) => i.repeat_of)).toEqual([null, null]);
  });

  test("a retry with the same Idempotency-Key replays the first 200; with another key it is 409", async () => {
    const w = await booksWorld(h);
    const text = JSON.stringify(history());
    const first = await postText(w, "import", text, "books-retry-1");
    expect(first.status).toBe(200);
    const replay = await postText(w, "import", text, "books-retry-1");
    expect([replay.status, replay.headers.get("x-idempotent-replay"), replay.body]).toEqual([200, "true", first.body]);
    const other = await postText(w, "import", text, "books-retry-2");
    expect([other.status, other.body.error.key]).toEqual([409, "migration.package_imported"]);
    expect(await h.db("journal_transactions").where({ company_id: w.companyId }).count({ n: "*" })).toEqual([{ n: "2" }]);
    expect((await imports(w)).length).toBe(1);
  });
});

describe("repeatOf: the same package once more, on purpose", () => {
  test("naming the latest import imports it again; a retry of that repeat, or naming an older import, is 409 naming the latest; naming no import of it is 422", async () => {
    const w = await booksWorld(h);
    await w.api.migration.books.import(history());
    const [original] = await imports(w);
    // An id that is no import of this package (another package's import): 422 on repeatOf, nothing stored.
    await w.api.migration.books.import(stock());
    const stockImport = (await imports(w)).find((i) => i.id !== original.id)!;
    const before = await storedRows(h, w);
    const wrong = await expectApiError(
      w.api.migration.books.validate({ ...history(), repeatOf: stockImport.id }),
      422,
      "unprocessable",
      "migration.rows_rejected",
    );
    expect(wrong.fieldErrors).toEqual({ repeatOf: [`names no import of this package into the company (its latest import is ${original.id})`] });
    expect(await storedRows(h, w)).toEqual(before);

    const repeated = await w.api.migration.books.import({ ...history(), repeatOf: original.id });
    expect(repeated.journal).toEqual({ transactions: 2, entries: 5 });
    const repeat = (await imports(w)).find((i) => i.repeat_of === original.id)!;
    expect(repeat).toMatchObject({ fingerprint: original.fingerprint, source: "Rivilė 2.0" });
    const after = await storedRows(h, w);
    for (const p of [{ ...history(), repeatOf: original.id }, history()]) {
      const e = await expectApiError(w.api.migration.books.import(p), 409, "conflict", "migration.package_imported");
      expect(e.params).toMatchObject({ importId: repeat.id, imports: 2 });
    }
    expect(await storedRows(h, w)).toEqual(after);
    expect(await h.db("journal_transactions").where({ company_id: w.companyId, document_type: "migration" }).count({ n: "*" })).toEqual([{ n: "4" }]);
  });
});

describe("the rule in the database", () => {
  test("a second row of a fingerprint, a repeat of another package's import, a second repeat of one import, a change: refused", async () => {
    const w = await booksWorld(h);
    await w.api.migration.books.import(history());
    const [original] = await imports(w);
    const row = (extra: Record<string, unknown>) => ({
      company_id: w.companyId,
      fingerprint: original.fingerprint,
      cutover_date: "2026-07-01",
      request_id: "test",
      ...extra,
    });
    const refusal = (q: Promise<unknown>) =>
      q.then(
        () => "stored",
        (e: { constraint?: string; message: string }) => e.constraint ?? e.message,
      );
    expect(await refusal(h.db("migration_imports").insert(row({})))).toBe("migration_imports_once");
    expect(await refusal(h.db("migration_imports").insert(row({ fingerprint: "0".repeat(64), repeat_of: original.id })))).toBe(
      "migration_imports_repeat_same_package",
    );
    await h.db("migration_imports").insert(row({ repeat_of: original.id }));
    expect(await refusal(h.db("migration_imports").insert(row({ repeat_of: original.id })))).toBe("migration_imports_repeated_once");
    expect(await refusal(h.db("migration_imports").where({ company_id: w.companyId }).update({ source: "x" }))).toMatch(/never changed or deleted/);
    expect(await refusal(h.db("migration_imports").where({ company_id: w.companyId }).delete())).toMatch(/never changed or deleted/);
  });
});

describe("the operator CLI", () => {
  test("migrate-books refuses a package imported before (through the API or the CLI) with 409 migration.package_imported", async () => {
    const w = await booksWorld(h);
    const dir = mkdtempSync(join(tmpdir(), "books-once-"));
    try {
      const file = join(dir, "package.json");
      writeFileSync(file, JSON.stringify(stock(), null, 2));
      const env = { DATABASE_URL: h.connectionString };
      const first = await runCli(["migrate-books", "--company", w.companyId, "--file", file], env);
      expect([first.code, first.code ? first.stderr : ""]).toEqual([0, ""]);
      const [record] = await imports(w);
      const again = await runCli(["migrate-books", "--company", w.companyId, "--file", file], env);
      expect([again.code, again.stdout, again.stderr.includes("(migration.package_imported)"), again.stderr.includes(record.id)]).toEqual([1, "", true, true]);
      await expectApiError(w.api.migration.books.import(stock()), 409, "conflict", "migration.package_imported");
      expect(await h.db("stock_layers").where({ company_id: w.companyId }).count({ n: "*" })).toEqual([{ n: "2" }]);
      expect(await h.db("migration_imports").where({ company_id: w.companyId }).select("key_id", "request_id")).toEqual([{ key_id: null, request_id: "cli" }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
