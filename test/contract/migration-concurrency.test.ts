// migration/books/import run concurrently (issue 13, rule 1): imports of one company are serialized by the
// per-company lock — proven by the lock wait itself, not by a unique index catching the second — and imports of
// different companies do not wait for each other (nothing the import does locks what another company's import needs
// until commit). Races are set up with real locks the test holds, then released.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lockCompanyBooks } from "../../src/migration/books.js";
import { startHarness, type Harness } from "../support/harness.js";
import { waitForLockWaiters } from "../support/db-waits.js";
import { AT_ONCE_MS } from "../support/timing.js";
import { runCli } from "../support/processes.js";
import { agreeingPackage, booksWorld, pkgWith, storedRows } from "../support/books.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 180_000);
afterAll(() => h.close());

/** A call's outcome, for calls awaited after the test let go of a lock. */
const settle = <T>(call: Promise<T>) =>
  call.then(
    (value) => ({ value }),
    (error: unknown) => ({ error: error as { status: number; key: string; fieldErrors?: unknown } }),
  );

describe("rule 1: concurrent imports", () => {
  test("two imports of one company wait on its lock; the second checks after the first committed: 409 naming every row", async () => {
    // Two imports of one company come from two processes (the API takes one large upload per account at a time:
    // migration-uploads.test.ts): here the API and the operator CLI, with the same rows but not the same package
    // (the same package again is migration.package_imported: migration-once.test.ts).
    const w = await booksWorld(h);
    const dir = mkdtempSync(join(tmpdir(), "books-race-"));
    const file = join(dir, "package.json");
    writeFileSync(file, JSON.stringify(pkgWith((p) => p.partners!.push({ code: "333333333", name: "UAB Kitas" }))));
    const holder = await h.db.transaction();
    let outcomes: any[] = [];
    try {
      // The test holds the company's import lock (the same call the import makes first).
      await lockCompanyBooks(holder, w.companyId);
      const api = settle(w.api.migration.books.import(agreeingPackage()));
      type Outcome = { value: unknown } | { error: { status: number; key: string; fieldErrors?: unknown } };
      const cli = runCli(["migrate-books", "--company", w.companyId, "--file", file], { DATABASE_URL: h.connectionString }).then(
        (r): Outcome =>
          r.code === 0
            ? { value: JSON.parse(r.stdout) }
            : { error: { status: 409, key: /\((migration\.[a-z_]+)\)/.exec(r.stderr)?.[1] ?? r.stderr, fieldErrors: undefined } },
      );
      await waitForLockWaiters(h.db, { count: 2, waitEvent: "advisory", queryLike: "%pg_advisory_xact_lock%", what: "both imports on the company's lock" });
      expect((await storedRows(h, w)).saleInvoices).toBe(0);
      await holder.commit();
      outcomes = await Promise.all([api, cli]);
    } finally {
      if (!holder.isCompleted()) await holder.rollback();
      rmSync(dir, { recursive: true, force: true });
    }
    const imported = outcomes.filter((o) => "value" in o);
    const refused = outcomes.flatMap((o) => ("error" in o ? [o.error] : []));
    expect(imported).toHaveLength(1);
    // Checked against the first import's committed rows: the colliding rows are refused (a unique index firing
    // inside an interleaved import would name none). The API's answer names each of them.
    expect(refused.map((e) => [e.status, e.key])).toEqual([[409, "migration.codes_exist"]]);
    const fromApi = outcomes[0];
    if ("error" in fromApi) {
      expect(fromApi.error.fieldErrors).toEqual({
        "openReceivables[0].number": ["invoice SF-7 exists already"],
        "openReceivables[1].number": ["invoice SF-42 exists already"],
        "openReceivables[2].number": ["invoice INV/2026/3 exists already"],
        "openPayables[0].documentNumber": ["partner 222222222's document T-100 exists already"],
        "fixedAssets[0].code": ["asset FA-1 exists already"],
        "fixedAssets[1].code": ["asset FA-2 exists already"],
      });
    }
    expect(await h.db("journal_transactions").where({ company_id: w.companyId, document_type: "migration_opening" }).count({ n: "*" })).toEqual([{ n: "1" }]);
    expect(await h.db("sale_invoices").where({ company_id: w.companyId }).count({ n: "*" })).toEqual([{ n: "3" }]);
  });

  test("an import of another company completes while the first is held inside its transaction", async () => {
    const a = await booksWorld(h);
    const b = await booksWorld(h);
    // A's SF 2026 series exists; the import raises it (rule 8) after its master data, opening balances and journal.
    await a.api.reference.series.create({ documentType: "sale_invoice", prefix: "SF", year: 2026, startAt: 1 });
    const holder = await h.db.transaction();
    let first: any;
    try {
      // Holding that row holds A's import inside its transaction, with everything before it written.
      await holder("number_series").where({ company_id: a.companyId, document_type: "sale_invoice", prefix: "SF", year: 2026 }).forUpdate();
      first = settle(a.api.migration.books.import(agreeingPackage()));
      await waitForLockWaiters(h.db, { queryLike: "%number_series%", what: "company A's import on its series row" });
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<"waited">((resolve) => (timer = setTimeout(() => resolve("waited"), AT_ONCE_MS)));
      const second = await Promise.race([settle(b.api.migration.books.import(agreeingPackage())), waited]);
      clearTimeout(timer);
      expect(second === "waited" ? `waited ${AT_ONCE_MS} ms for company A` : "error" in second ? second.error : "imported").toBe("imported");
      // A is still inside its transaction: waiting on the row, nothing of it visible.
      await waitForLockWaiters(h.db, { queryLike: "%number_series%", timeoutMs: 1000, what: "company A's import, still waiting" });
      expect((await storedRows(h, a)).transactions).toBe(0);
      expect((await storedRows(h, b)).saleInvoices).toBe(3);
    } finally {
      await holder.rollback();
    }
    const done = await first;
    expect("value" in done && done.value.numberSeries.map((s: any) => [s.prefix, s.nextNumber, s.created])).toEqual([["SF", 43, false]]);
    expect([(await storedRows(h, a)).transactions, (await storedRows(h, b)).transactions]).toEqual([4, 4]);
  });
});
