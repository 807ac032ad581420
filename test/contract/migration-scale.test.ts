// migration/books at the sizes the contract allows (issue 13): a trial balance of thousands of accounts is one
// opening-balance transaction with a line per account, and a chart may nest as deep as it has accounts. Both pass
// validate and import alike, and the database holds what the answer says.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { startHarness, type Harness } from "../support/harness.js";
import { expectApiError } from "../support/expect.js";
import { booksWorld, storedRows, type BooksPackage } from "../support/books.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 180_000);
afterAll(() => h.close());

const code = (i: number) => `M${String(i).padStart(5, "0")}`;

describe("rule 3: an opening balance of 2,500 rows", () => {
  test("validate and import answer the same figures; the transaction holds 2,501 lines (the balancing line last)", async () => {
    const w = await booksWorld(h);
    // 2,499 accounts with a debit of 1.00 each, one credit of 2,400.00: 99.00 short, posted to 3010 as a credit.
    const p: BooksPackage = {
      cutoverDate: "2026-07-01",
      accounts: Array.from({ length: 2500 }, (_, i) => ({ code: code(i), name: `Sąskaita ${i}`, type: "asset" as const })),
      openingBalances: {
        balancingAccountCode: "3010",
        entries: Array.from({ length: 2500 }, (_, i) => (i < 2499 ? { accountCode: code(i), debit: "1.00" } : { accountCode: code(i), credit: "2400.00" })),
      },
    };
    const figures = { date: "2026-07-01", entries: 2501, debitTotal: "2499.00", creditTotal: "2499.00", balancingAmount: "-99.00" };
    const checked = await w.api.migration.books.validate(p);
    expect([checked.accounts, checked.openingBalances]).toEqual([
      { created: 2500, existing: 0 },
      { ...figures, journalTransactionId: null },
    ]);
    const imported = await w.api.migration.books.import(p);
    const id = imported.openingBalances!.journalTransactionId!;
    expect(imported).toEqual({ ...checked, dryRun: false, openingBalances: { ...figures, journalTransactionId: id } });
    const lines = await h
      .db("journal_entries")
      .where({ company_id: w.companyId, transaction_id: id })
      .first(h.db.raw("count(*)::int as n, max(line_no) as last, sum(debit)::text as debit, sum(credit)::text as credit"));
    expect(lines).toEqual({ n: 2501, last: 2501, debit: "2499.00", credit: "2499.00" });
    expect(await h.db("journal_entries").where({ company_id: w.companyId, transaction_id: id, line_no: 2501 }).first("account_code", "credit")).toEqual({
      account_code: "3010",
      credit: "99.00",
    });
    // Read back through the API, every line within the contract.
    const viaApi = await w.api.ledger.journal.transactions.get({ id });
    expect([viaApi.entries.length, viaApi.entries[2500].lineNo, viaApi.total]).toEqual([2501, 2501, "2499.00"]);
  });

  test("the database takes a transaction of up to 20,001 lines (20,000 rows and the balancing line), not one more", async () => {
    const w = await booksWorld(h);
    const lineAllowed = async (lineNo: number) => {
      const trx = await h.db.transaction();
      try {
        const [{ id }] = await trx("journal_transactions")
          .insert({ company_id: w.companyId, date: "2026-07-01", document_type: "manual", total: "1.00", account_codes: ["2710", "3010"] })
          .returning("id");
        await trx("journal_entries").insert([
          { company_id: w.companyId, transaction_id: id, line_no: 1, date: "2026-07-01", account_code: "2710", debit: "1.00" },
          { company_id: w.companyId, transaction_id: id, line_no: lineNo, date: "2026-07-01", account_code: "3010", credit: "1.00" },
        ]);
        return true;
      } catch (error) {
        if ((error as { constraint?: string }).constraint === "journal_entries_line_no_check") return false;
        throw error;
      } finally {
        await trx.rollback();
      }
    };
    expect([await lineAllowed(20_001), await lineAllowed(20_002)]).toEqual([true, false]);
  });
});

describe("rule 2: accounts nested as deep as the chart is long", () => {
  test("a child-first chain of 20,000 accounts under 24 is created parents first; its deepest account takes postings", async () => {
    const w = await booksWorld(h);
    const depth = 20_000;
    // code(i)'s parent is code(i + 1); the last one's is the template's group account 24.
    const p: BooksPackage = {
      cutoverDate: "2026-07-01",
      accounts: Array.from({ length: depth }, (_, i) => ({
        code: code(i),
        name: `Lygis ${i}`,
        type: "asset" as const,
        parentCode: i + 1 < depth ? code(i + 1) : "24",
      })),
      openingBalances: {
        entries: [
          { accountCode: code(0), debit: "5.00" },
          { accountCode: "3010", credit: "5.00" },
        ],
      },
    };
    expect((await w.api.migration.books.validate(p)).accounts).toEqual({ created: depth, existing: 0 });
    const imported = await w.api.migration.books.import(p);
    expect([imported.accounts, imported.openingBalances?.debitTotal]).toEqual([{ created: depth, existing: 0 }, "5.00"]);
    const rows = await h
      .db("ledger_accounts")
      .where({ company_id: w.companyId })
      .where("code", "like", "M%")
      .select("code", "parent_code", "is_postable", "statement_line");
    const byCode = new Map(rows.map((r) => [r.code, r]));
    expect(rows.length).toBe(depth);
    expect([byCode.get(code(0)), byCode.get(code(depth - 1))]).toEqual([
      { code: code(0), parent_code: code(1), is_postable: true, statement_line: "B.II" },
      { code: code(depth - 1), parent_code: "24", is_postable: false, statement_line: "B.II" },
    ]);
    expect(rows.filter((r) => r.is_postable).map((r) => r.code)).toEqual([code(0)]);
  }, 180_000);

  test("parents that form a cycle: 422 naming the account that closes each cycle; nothing stored", async () => {
    const w = await booksWorld(h);
    const p: BooksPackage = {
      cutoverDate: "2026-07-01",
      accounts: [
        { code: "A1", name: "A1", type: "asset", parentCode: "A2" },
        { code: "A2", name: "A2", type: "asset", parentCode: "A3" },
        { code: "A3", name: "A3", type: "asset", parentCode: "A1" },
        { code: "B1", name: "B1", type: "asset", parentCode: "B1" },
        { code: "C1", name: "C1", type: "asset", parentCode: "A1" },
      ],
    };
    const before = await storedRows(h, w);
    for (const call of [w.api.migration.books.validate, w.api.migration.books.import]) {
      const e = await expectApiError(call(p), 422, "unprocessable", "migration.rows_rejected");
      expect(e.fieldErrors).toEqual({
        "accounts[2].parentCode": ["the parents form a cycle: A1 → A2 → A3 → A1"],
        "accounts[3].parentCode": ["the parents form a cycle: B1 → B1"],
      });
    }
    expect(await storedRows(h, w)).toEqual(before);
  });
});
