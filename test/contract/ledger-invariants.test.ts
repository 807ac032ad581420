// Invariants of the ledger under random and concurrent postings: the books balance, every account holds exactly
// the accepted lines, list totals agree with the entries, a locked month never changes, and concurrent postings
// neither fail nor break numbering. Sums are taken by Postgres (numeric) and compared with decimal.js. Every call goes
// through the SDK; each company is the shared world (test/support/world.ts) with the lt-standard chart.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { Decimal } from "decimal.js";
import fc from "fast-check";
import { startHarness, type Harness } from "../support/harness.js";
import { settle } from "../support/expect.js";
import { world as sharedWorld, type World } from "../support/world.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const ACCOUNTS = ["2710", "2410", "4430", "5000", "6000"];
const LOCKED_MONTHS = ["2026-02", "2026-05"];

/** A new company with the lt-standard chart. */
const world = (): Promise<World> => sharedWorld(h);

const money = (cents: bigint) => new Decimal(cents.toString()).dividedBy(100).toFixed(2);

interface Line {
  accountCode: string;
  debit?: string;
  credit?: string;
}

/** A balanced posting of 2 to 4 lines: 1-2 debits, and credits (1-2) splitting their sum. */
const postingArb = fc
  .record({
    month: fc.integer({ min: 1, max: 6 }),
    day: fc.integer({ min: 1, max: 28 }),
    debits: fc.array(fc.record({ account: fc.constantFrom(...ACCOUNTS), cents: fc.bigInt({ min: 1n, max: 99_999_999_99n }) }), { minLength: 1, maxLength: 2 }),
    creditAccounts: fc.array(fc.constantFrom(...ACCOUNTS), { minLength: 1, maxLength: 2 }),
    split: fc.integer({ min: 1, max: 999 }),
  })
  .map(({ month, day, debits, creditAccounts, split }) => {
    const total = debits.reduce((s, d) => s + d.cents, 0n);
    const first = creditAccounts.length === 2 && total >= 2n ? (total * BigInt(split)) / 1000n || 1n : total;
    const credits = first === total ? [total] : [first, total - first];
    const lines: Line[] = [
      ...debits.map((d) => ({ accountCode: d.account, debit: money(d.cents) })),
      ...credits.map((c, i) => ({ accountCode: creditAccounts[i], credit: money(c) })),
    ];
    return { date: `2026-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`, entries: lines };
  });

/** Debit and credit sums per account, and in total, as Postgres computes them. */
async function dbSums(companyId: string) {
  const { rows } = await h.db.raw<{ rows: { account_code: string; debit: string; credit: string }[] }>(
    "select account_code, sum(debit)::text as debit, sum(credit)::text as credit from journal_entries where company_id = ? group by account_code",
    [companyId],
  );
  const [total] = (
    await h.db.raw("select coalesce(sum(debit), 0)::text as debit, coalesce(sum(credit), 0)::text as credit from journal_entries where company_id = ?", [
      companyId,
    ])
  ).rows;
  return { perAccount: new Map(rows.map((r) => [r.account_code, { debit: new Decimal(r.debit), credit: new Decimal(r.credit) }])), total };
}

/** What the list's totals must say for one account: the totals of the transactions with a line on it. */
async function dbTransactionTotalsFor(companyId: string, account: string) {
  const { rows } = await h.db.raw(
    `select coalesce(sum(e.debit), 0)::text as debit, coalesce(sum(e.credit), 0)::text as credit
       from journal_entries e
      where e.company_id = ? and e.transaction_id in (select transaction_id from journal_entries where company_id = ? and account_code = ?)`,
    [companyId, companyId, account],
  );
  return { debit: new Decimal(rows[0].debit).toFixed(2), credit: new Decimal(rows[0].credit).toFixed(2) };
}

const lockedSnapshot = (companyId: string) =>
  h
    .db("journal_entries")
    .where({ company_id: companyId })
    .whereRaw("to_char(date, 'YYYY-MM') = any(?)", [LOCKED_MONTHS])
    .orderBy(["transaction_id", "line_no"]);

/** A posting, balanced or (one in four) with its first credit off by 0.01..5.00, which must be refused. */
const maybeUnbalancedArb = fc
  .record({ posting: postingArb, skew: fc.oneof(fc.constant(0n), fc.constant(0n), fc.constant(0n), fc.bigInt({ min: 1n, max: 500n })) })
  .map(({ posting, skew }) => {
    if (skew === 0n) return { posting, balanced: true };
    const entries = posting.entries.map((e) => ({ ...e }));
    const first = entries.find((e) => e.credit !== undefined)!;
    first.credit = new Decimal(first.credit!).plus(money(skew)).toFixed(2);
    return { posting: { ...posting, entries }, balanced: false };
  });

describe("random postings", () => {
  test("the books balance, accounts hold exactly the accepted lines, unbalanced postings are refused, list totals agree, locked months never change", async () => {
    let refused = 0;
    let unbalanced = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(maybeUnbalancedArb, { minLength: 1, maxLength: 20 }), async (postings) => {
        // Each run has its own company, so a shrunk counterexample is the whole story.
        const w = await world();
        // Postings in the months about to be locked, so there is something that must not change.
        for (const month of LOCKED_MONTHS) {
          await w.api.ledger.journal.transactions.create({
            date: `${month}-10`,
            entries: [
              { accountCode: "2710", debit: "100.00" },
              { accountCode: "5000", credit: "100.00" },
            ],
          });
          await w.api.ledger.periods.lock({ month });
        }
        const expected = new Map<string, { debit: Decimal; credit: Decimal }>(ACCOUNTS.map((a) => [a, { debit: new Decimal(0), credit: new Decimal(0) }]));
        expected.get("2710")!.debit = new Decimal("200.00");
        expected.get("5000")!.credit = new Decimal("200.00");
        const locked = await lockedSnapshot(w.companyId);
        expect(locked).toHaveLength(4);
        for (const { posting: p, balanced } of postings) {
          const res = await settle(w.api.ledger.journal.transactions.create(p));
          if (LOCKED_MONTHS.includes(p.date.slice(0, 7))) {
            expect({ status: res.status, key: res.error?.key }).toEqual({ status: 409, key: "period.locked" });
            refused++;
            continue;
          }
          if (!balanced) {
            expect({ status: res.status, key: res.error?.key }).toEqual({ status: 422, key: "journal.unbalanced" });
            unbalanced++;
            continue;
          }
          if (!res.data) throw res.error;
          expect(new Decimal(res.data.total).equals(p.entries.reduce((s, e) => s.plus(e.debit ?? 0), new Decimal(0)))).toBe(true);
          for (const e of p.entries) {
            const sums = expected.get(e.accountCode)!;
            if (e.debit) sums.debit = sums.debit.plus(e.debit);
            else sums.credit = sums.credit.plus(e.credit!);
          }
        }

        const { perAccount, total } = await dbSums(w.companyId);
        expect(new Decimal(total.debit).toFixed(2)).toBe(new Decimal(total.credit).toFixed(2));
        for (const account of ACCOUNTS) {
          const got = perAccount.get(account) ?? { debit: new Decimal(0), credit: new Decimal(0) };
          const want = expected.get(account)!;
          expect({ account, debit: got.debit.toFixed(2), credit: got.credit.toFixed(2) }).toEqual({
            account,
            debit: want.debit.toFixed(2),
            credit: want.credit.toFixed(2),
          });
          const listed = await w.api.ledger.journal.transactions.list({
            filter: [{ field: "account", op: "eq", value: account }],
            totals: ["debit", "credit"],
            pageSize: 1,
          });
          expect(listed.totals).toEqual(await dbTransactionTotalsFor(w.companyId, account));
        }
        expect(await lockedSnapshot(w.companyId)).toEqual(locked);
      }),
      { numRuns: 12 },
    );
    // The generator reached the locked months (6 months, 2 locked: about a third of the postings) and produced
    // unbalanced postings in open months.
    expect(refused).toBeGreaterThan(0);
    expect(unbalanced).toBeGreaterThan(0);
  });
});

describe("concurrent postings", () => {
  test("20 at once to the same accounts all succeed and the books stay consistent", async () => {
    const w = await world();
    const amounts = Array.from({ length: 20 }, (_, i) => new Decimal(i + 1).times("10.01").toFixed(2));
    const results = await Promise.all(
      amounts.map((amount, i) =>
        settle(
          w.api.ledger.journal.transactions.create({
            date: "2026-07-15",
            reference: `C-${i}`,
            entries: [
              { accountCode: "2710", debit: amount },
              { accountCode: "2410", credit: amount },
              { accountCode: "6000", debit: "1.00" },
              { accountCode: "5000", credit: "1.00" },
            ],
          }),
        ),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(results.map((r) => r.data?.id)).size).toBe(20);
    const rows = await h.db("journal_transactions").where({ company_id: w.companyId });
    expect(rows).toHaveLength(20);
    const { perAccount, total } = await dbSums(w.companyId);
    const sum = amounts.reduce((s, a) => s.plus(a), new Decimal(0));
    expect(new Decimal(total.debit).toFixed(2)).toBe(sum.plus(20).toFixed(2));
    expect(new Decimal(total.credit).toFixed(2)).toBe(sum.plus(20).toFixed(2));
    expect(perAccount.get("2710")!.debit.toFixed(2)).toBe(sum.toFixed(2));
    expect(perAccount.get("2410")!.credit.toFixed(2)).toBe(sum.toFixed(2));
    expect(perAccount.get("6000")!.debit.toFixed(2)).toBe("20.00");
    const listed = await w.api.ledger.journal.transactions.list({ totals: ["debit", "credit"] });
    expect(listed).toMatchObject({ total: 20, totals: { debit: sum.plus(20).toFixed(2), credit: sum.plus(20).toFixed(2) } });
  });

  test("20 at once with a journal series get 20 distinct consecutive numbers", async () => {
    const w = await sharedWorld(h, { series: [{ documentType: "journal", prefix: "BZ", year: 2026, startAt: 100 }] });
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        settle(
          w.api.ledger.journal.transactions.create({
            date: "2026-08-01",
            entries: [
              { accountCode: "2710", debit: "5.00" },
              { accountCode: "3010", credit: "5.00" },
            ],
          }),
        ),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const numbers = results.map((r) => String(r.data?.number));
    expect([...numbers].sort((a, b) => Number(a.slice(3)) - Number(b.slice(3)))).toEqual(Array.from({ length: 20 }, (_, i) => `BZ-${100 + i}`));
    const stored = await h.db("journal_transactions").where({ company_id: w.companyId }).pluck("number");
    expect(stored.sort()).toEqual([...numbers].sort());
    expect(await h.db("number_series").where({ company_id: w.companyId, prefix: "BZ" }).first()).toMatchObject({ next_number: "120" });
  });

  test("10 concurrent reversals of one transaction: exactly one wins, the rest are 409", async () => {
    const w = await world();
    const tx = await w.api.ledger.journal.transactions.create({
      date: "2026-09-01",
      entries: [
        { accountCode: "2710", debit: "5.00" },
        { accountCode: "3010", credit: "5.00" },
      ],
    });
    const results = await Promise.all(Array.from({ length: 10 }, () => settle(w.api.ledger.journal.transactions.reverse({ id: tx.id }))));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(409)]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.error?.key).toBe("journal.already_reversed");
    expect(await h.db("journal_transactions").where({ company_id: w.companyId, reverses_id: tx.id })).toHaveLength(1);
    const { total } = await dbSums(w.companyId);
    expect(new Decimal(total.debit).toFixed(2)).toBe("10.00");
  });
});
