// ledger/periods: the list of months (default range, filters, sort), lock by month or through a date, unlock of
// the latest locked month only, the effect of locks on postings, and a lock racing an in-flight posting.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import pg from "pg";
import { startHarness, type Harness } from "../support/harness.js";
import { expectApiError, invalid, settle } from "../support/expect.js";
import type { RequestBody } from "../../sdk/typescript/src/index.js";
import { world, type World } from "../support/world.js";
import { ISO_INSTANT as ISO } from "../support/patterns.js";
import { waitForLockWaiters } from "../support/db-waits.js";

let h: Harness;
// The tables of cases are built when the file loads; the database's current year must agree (it decides the range).
const year = new Date().getFullYear();
beforeAll(async () => {
  h = await startHarness();
  const dbYear = Number((await h.db.raw("select extract(year from current_date)::int as y")).rows[0].y);
  if (dbYear !== year) throw new Error(`the database's year ${dbYear} differs from ${year}: rerun after midnight`);
});
afterAll(() => h.close());

const periodsWorld = () => world(h);

const posting = (date: string, amount = "10.00") => ({
  date,
  entries: [
    { accountCode: "2710", debit: amount },
    { accountCode: "3010", credit: amount },
  ],
});
const lockedInDb = async (companyId: string) =>
  (await h.db("ledger_period_locks").where({ company_id: companyId }).orderBy("month").select(h.db.raw("to_char(month, 'YYYY-MM') as m"))).map(
    (r: { m: string }) => r.m,
  );
const monthsOf = (res: { rows: { month: string }[] }) => res.rows.map((r) => r.month);

/** Every month from `from` to `to` (YYYY-MM), both included. */
function monthRange(from: string, to: string): string[] {
  const out: string[] = [];
  let [y, m] = from.split("-").map(Number);
  const [ty, tm] = to.split("-").map(Number);
  while (y < ty || (y === ty && m <= tm)) {
    out.push(`${y}-${String(m).padStart(2, "0")}`);
    if (++m === 13) [y, m] = [y + 1, 1];
  }
  return out;
}

describe("list", () => {
  test("a new company: January to December of the current year, all open", async () => {
    const w = await periodsWorld();
    const res = await w.api.ledger.periods.list({ pageSize: 100 });
    expect(res.total).toBe(12);
    expect(res.rows).toEqual(monthRange(`${year}-01`, `${year}-12`).map((month) => ({ month, state: "open", lockedAt: null, lockedByKeyId: null })));
  });

  test("the range widens to the earliest posting or lock and the latest posting", async () => {
    const w = await periodsWorld();
    await w.api.ledger.journal.transactions.create(posting(`${year - 1}-10-05`));
    await w.api.ledger.periods.lock({ month: `${year - 2}-03` });
    await w.api.ledger.journal.transactions.create(posting(`${year + 1}-02-28`));
    const res = await w.api.ledger.periods.list({ pageSize: 500 });
    const expected = monthRange(`${year - 2}-03`, `${year + 1}-02`);
    expect({ months: monthsOf(res), total: res.total }).toEqual({ months: expected, total: expected.length });
    expect(res.rows.filter((r) => r.state === "locked").map((r) => r.month)).toEqual(await lockedInDb(w.companyId));
  });

  test.each<{ name: string; body: RequestBody<"ledger_periods_list">; expected: () => string[] }>([
    { name: "state locked", body: { filter: [{ field: "state", op: "eq", value: "locked" }] }, expected: () => [`${year}-02`, `${year}-05`] },
    {
      name: "state open, month desc",
      body: { filter: [{ field: "state", op: "eq", value: "open" }], sort: [{ field: "month", dir: "desc" }], pageSize: 3 },
      expected: () => [`${year}-12`, `${year}-11`, `${year}-10`],
    },
    { name: "sort month desc", body: { sort: [{ field: "month", dir: "desc" }], pageSize: 2 }, expected: () => [`${year}-12`, `${year}-11`] },
    {
      name: "month range",
      body: {
        filter: [
          { field: "month", op: "gte", value: `${year}-04` },
          { field: "month", op: "lte", value: `${year}-06` },
        ],
      },
      expected: () => [`${year}-04`, `${year}-05`, `${year}-06`],
    },
  ])("$name", async ({ body, expected }) => {
    const w = await periodsWorld();
    await w.api.ledger.periods.lock({ month: `${year}-02` });
    await w.api.ledger.periods.lock({ month: `${year}-05` });
    const res = await w.api.ledger.periods.list(body);
    expect(monthsOf(res)).toEqual(expected());
    for (const row of res.rows) {
      const isLocked = (await lockedInDb(w.companyId)).includes(row.month);
      expect(row).toEqual(
        isLocked
          ? { month: row.month, state: "locked", lockedAt: expect.stringMatching(ISO), lockedByKeyId: w.keyId }
          : { month: row.month, state: "open", lockedAt: null, lockedByKeyId: null },
      );
    }
  });
});

describe("lock", () => {
  test("by month: returns the locked month and stores it", async () => {
    const w = await periodsWorld();
    const res = await w.api.ledger.periods.lock({ month: `${year}-03` });
    expect(res).toEqual({ locked: [{ month: `${year}-03`, state: "locked", lockedAt: expect.stringMatching(ISO), lockedByKeyId: w.keyId }] });
    const [row] = await h.db("ledger_period_locks").where({ company_id: w.companyId });
    expect(row).toMatchObject({ locked_by_key_id: w.keyId });
    expect(new Date(row.locked_at).toISOString()).toBe(res.locked[0].lockedAt);
    expect(await lockedInDb(w.companyId)).toEqual([`${year}-03`]);
  });

  test("a month locked already is not repeated", async () => {
    const w = await periodsWorld();
    await w.api.ledger.periods.lock({ month: `${year}-03` });
    const before = await h.db("ledger_period_locks").where({ company_id: w.companyId });
    expect(await w.api.ledger.periods.lock({ month: `${year}-03` })).toEqual({ locked: [] });
    expect(await h.db("ledger_period_locks").where({ company_id: w.companyId })).toEqual(before);
  });

  test.each([
    {
      name: "from the first posting through the date's month",
      postings: [`${year}-02-10`, `${year}-03-01`],
      locks: [],
      through: `${year}-04-15`,
      locked: [`${year}-02`, `${year}-03`, `${year}-04`],
    },
    {
      name: "months locked already are skipped",
      postings: [`${year}-02-10`],
      locks: [`${year}-03`],
      through: `${year}-04-30`,
      locked: [`${year}-02`, `${year}-04`],
    },
    {
      name: "from the first lock when it is earlier than any posting",
      postings: [`${year}-01-10`],
      locks: [`${year - 1}-11`],
      through: `${year}-01-01`,
      locked: [`${year - 1}-12`, `${year}-01`],
    },
    {
      name: "across a year end",
      postings: [`${year - 1}-11-30`],
      locks: [],
      through: `${year}-02-01`,
      locked: [`${year - 1}-11`, `${year - 1}-12`, `${year}-01`, `${year}-02`],
    },
    { name: "no postings or locks: just the date's month", postings: [], locks: [], through: `${year}-06-30`, locked: [`${year}-06`] },
    { name: "everything locked already: nothing", postings: [`${year}-05-05`], locks: [`${year}-05`], through: `${year}-05-31`, locked: [] },
  ])("through: $name", async ({ postings, locks, through, locked }) => {
    const w = await periodsWorld();
    for (const date of postings) await w.api.ledger.journal.transactions.create(posting(date));
    for (const month of locks) await w.api.ledger.periods.lock({ month });
    const res = await w.api.ledger.periods.lock({ through });
    expect(res.locked.map((p: { month: string }) => p.month)).toEqual(locked);
    for (const p of res.locked) expect(p).toMatchObject({ state: "locked", lockedByKeyId: w.keyId });
    expect(await lockedInDb(w.companyId)).toEqual([...new Set([...locks, ...locked])].sort());
  });

  test.each([
    { name: "both month and through", body: { month: `${year}-01`, through: `${year}-01-31` } },
    { name: "neither month nor through", body: {} },
    { name: "month 13", body: { month: `${year}-13` } },
    { name: "month without leading zero", body: { month: `${year}-1` } },
    { name: "through not a date", body: { through: `${year}-02-30` } },
    { name: "unknown property", body: { month: `${year}-01`, year } },
  ])("$name -> 400, nothing locked", async ({ body }) => {
    const w = await periodsWorld();
    await expectApiError(w.api.ledger.periods.lock(invalid(body)), 400, "validation");
    expect(await lockedInDb(w.companyId)).toEqual([]);
  });
});

describe("unlock", () => {
  async function threeLocked() {
    const w = await periodsWorld();
    await w.api.ledger.journal.transactions.create(posting(`${year}-01-15`));
    await w.api.ledger.periods.lock({ through: `${year}-03-31` });
    return w;
  }

  test("the latest locked month unlocks, then the one before it", async () => {
    const w = await periodsWorld();
    await w.api.ledger.journal.transactions.create(posting(`${year}-01-15`));
    await w.api.ledger.periods.lock({ through: `${year}-03-31` });
    expect(await lockedInDb(w.companyId)).toEqual([`${year}-01`, `${year}-02`, `${year}-03`]);
    const res = await w.api.ledger.periods.unlock({ month: `${year}-03` });
    expect(res).toMatchObject({ month: `${year}-03`, state: "open", lockedAt: null, lockedByKeyId: null });
    expect(await lockedInDb(w.companyId)).toEqual([`${year}-01`, `${year}-02`]);
    await w.api.ledger.periods.unlock({ month: `${year}-02` });
    expect(await lockedInDb(w.companyId)).toEqual([`${year}-01`]);
  });

  test.each([
    {
      name: "an earlier locked month",
      month: () => `${year}-02`,
      key: "period.not_latest_locked",
      params: () => ({ month: `${year}-02`, latestLocked: `${year}-03` }),
    },
    { name: "an open month after the latest lock", month: () => `${year}-04`, key: "period.not_locked", params: () => ({ month: `${year}-04` }) },
    { name: "an open month before the first lock", month: () => `${year - 1}-12`, key: "period.not_locked", params: () => ({ month: `${year - 1}-12` }) },
  ])("$name -> 409 $key, nothing unlocked", async ({ month, key, params }) => {
    const w = await periodsWorld();
    await w.api.ledger.periods.lock({ month: `${year}-01` });
    await w.api.ledger.periods.lock({ month: `${year}-02` });
    await w.api.ledger.periods.lock({ month: `${year}-03` });
    const error = await expectApiError(w.api.ledger.periods.unlock({ month: month() }), 409, "conflict", key);
    expect(error.params).toEqual(params());
    expect(await lockedInDb(w.companyId)).toEqual([`${year}-01`, `${year}-02`, `${year}-03`]);
  });

  test("a company with no locks -> 409 period.not_locked", async () => {
    const w = await periodsWorld();
    await expectApiError(w.api.ledger.periods.unlock({ month: `${year}-01` }), 409, "conflict", "period.not_locked");
  });

  test("missing month -> 400", async () => {
    const w = await threeLocked();
    await expectApiError(w.api.ledger.periods.unlock(invalid({})), 400, "validation");
    expect(await lockedInDb(w.companyId)).toHaveLength(3);
  });
});

describe("locks and postings", () => {
  test("posting into a locked month fails; after unlocking it works again", async () => {
    const w = await periodsWorld();
    await w.api.ledger.periods.lock({ month: `${year}-07` });
    await expectApiError(w.api.ledger.journal.transactions.create(posting(`${year}-07-31`)), 409, "conflict", "period.locked");
    expect(await h.db("journal_transactions").where({ company_id: w.companyId })).toHaveLength(0);
    await w.api.ledger.journal.transactions.create(posting(`${year}-08-01`));
    await w.api.ledger.periods.unlock({ month: `${year}-07` });
    await w.api.ledger.journal.transactions.create(posting(`${year}-07-31`));
    expect(await h.db("journal_transactions").where({ company_id: w.companyId, date: `${year}-07-31` })).toHaveLength(1);
  });

  /** Waits until `n` sessions of this database wait on a lock of the given kind (relation, row or advisory). */
  const waitForWaiters = (kind: "relation" | "transactionid" | "advisory", n: number) =>
    waitForLockWaiters(h.db, { count: n, waitEvent: kind, what: `sessions waiting on a ${kind} lock` });

  async function holdTable(table: string) {
    const client = new pg.Client({ connectionString: h.connectionString });
    await client.connect();
    await client.query("begin");
    await client.query(`lock table ${table} in access exclusive mode`);
    return {
      release: async () => {
        await client.query("commit");
        await client.end();
      },
    };
  }

  /** Holds an account row FOR UPDATE: a posting on it stops at its lines' foreign-key check, after its header. */
  async function holdAccount(companyId: string, code: string) {
    const client = new pg.Client({ connectionString: h.connectionString });
    await client.connect();
    await client.query("begin");
    await client.query("select 1 from ledger_accounts where company_id = $1 and code = $2 for update", [companyId, code]);
    return {
      release: async () => {
        await client.query("commit");
        await client.end();
      },
    };
  }

  test("a lock taken while a posting is writing its lines waits for it: the posting commits first", async () => {
    const w = await periodsWorld();
    const month = `${year}-09`;
    const blocker = await holdAccount(w.companyId, "3010");
    let postingDone = false;
    let lockDone = false;
    let released = false;
    try {
      const postingRes = settle(w.api.ledger.journal.transactions.create(posting(`${month}-15`))).finally(() => (postingDone = true));
      await waitForWaiters("transactionid", 1); // the posting holds its header and waits to check its lines' accounts
      const lockRes = settle(w.api.ledger.periods.lock({ month })).finally(() => (lockDone = true));
      await waitForWaiters("advisory", 1); // the lock waits for the posting's share of the period lock
      await new Promise((r) => setTimeout(r, 200));
      expect({ postingDone, lockDone }).toEqual({ postingDone: false, lockDone: false });
      await blocker.release();
      released = true;
      const [p, l] = await Promise.all([postingRes, lockRes]);
      expect({ posting: p.status, lock: l.status, locked: l.data?.locked.map((x) => x.month) }).toEqual({
        posting: 200,
        lock: 200,
        locked: [month],
      });
      // The posting is there, whole, and was posted before the month was locked.
      const header = await h.db("journal_transactions").where({ company_id: w.companyId, id: p.data!.id }).first();
      const lockRow = await h.db("ledger_period_locks").where({ company_id: w.companyId }).first();
      expect(header).toBeDefined();
      expect(new Date(header.created_at).getTime()).toBeLessThanOrEqual(new Date(lockRow.locked_at).getTime());
      expect(await h.db("journal_entries").where({ company_id: w.companyId, transaction_id: p.data!.id })).toHaveLength(2);
      // From now on the month refuses postings.
      await expectApiError(w.api.ledger.journal.transactions.create(posting(`${month}-16`)), 409, "conflict", "period.locked");
      expect(await h.db("journal_transactions").where({ company_id: w.companyId })).toHaveLength(1);
    } finally {
      if (!released) await blocker.release();
    }
  });

  test("a lock that commits after a posting's checks but before its header: the posting is refused", async () => {
    const w = await periodsWorld();
    const month = `${year}-10`;
    const blocker = await holdTable("journal_transactions");
    let released = false;
    try {
      // The posting passes its own checks (the month is open), then waits to insert its header.
      const postingRes = expectApiError(w.api.ledger.journal.transactions.create(posting(`${month}-15`)), 409, "conflict", "period.locked");
      await waitForWaiters("relation", 1);
      expect(await w.api.ledger.periods.lock({ month })).toMatchObject({ locked: [{ month }] });
      await blocker.release();
      released = true;
      await postingRes;
      expect(await h.db("journal_transactions").where({ company_id: w.companyId })).toHaveLength(0);
      expect(await h.db("journal_entries").where({ company_id: w.companyId })).toHaveLength(0);
      expect(await lockedInDb(w.companyId)).toEqual([month]);
    } finally {
      if (!released) await blocker.release();
    }
  });

  test("postings and locks racing many times: never a posting that committed into a month already locked", async () => {
    const w = await periodsWorld();
    // The order of the commits, where the server records it (the embedded one of `npm test` does; a server without
    // track_commit_timestamp leaves only the other checks).
    const commitTimes = (await h.db.raw("select current_setting('track_commit_timestamp') = 'on' as on")).rows[0].on as boolean;
    if (!process.env.TEST_PGBOUNCER_URL && !process.env.DATABASE_URL) expect(commitTimes).toBe(true);
    for (let i = 1; i <= 6; i++) {
      const month = `${year + 1}-${String(i).padStart(2, "0")}`;
      const [p] = await Promise.all([settle(w.api.ledger.journal.transactions.create(posting(`${month}-10`))), w.api.ledger.periods.lock({ month })]);
      expect([200, 409]).toContain(p.status);
      if (p.status === 409) expect(p.error?.key).toBe("period.locked");
      const rows = await h.db("journal_transactions").where({ company_id: w.companyId, date: `${month}-10` });
      expect(rows).toHaveLength(p.status === 200 ? 1 : 0);
      if (p.status === 200 && commitTimes) {
        // A posting that won the race committed before the lock did. (Not its transaction's start time against the
        // lock's: a lock transaction that began first may still take the company's lock after the posting.)
        const { rows: order } = await h.db.raw(
          `select pg_xact_commit_timestamp(t.xmin) < pg_xact_commit_timestamp(l.xmin) as posting_first
             from journal_transactions t, ledger_period_locks l
            where t.company_id = ? and t.id = ? and l.company_id = t.company_id and l.month = ?::date`,
          [w.companyId, rows[0].id, `${month}-01`],
        );
        expect(order).toEqual([{ posting_first: true }]);
      }
    }
  });
});

// Issue 22, item 12: a lock through a date covered only the months from the company's first posting or lock on, so
// postings dated before them (2020-05 under a quarter locked through 2026-06-30) were accepted. Every month up to the
// date is locked now, with or without a row of its own, for every writer and in the database itself.
describe("a lock through a date covers every month up to it", () => {
  /** A company with the chart, a warehouse and a stocked item, a posting on 2026-02-10, locked through 2026-06-30. */
  async function lockedThroughJune() {
    const w = await periodsWorld();
    await w.api.inventory.warehouses.create({ code: "CENTR", name: "Centrinis" });
    await w.api.catalog.items.create({ code: "PREKE", name: "Prekė", type: "product", unit: "vnt.", vatRatePercent: "21" });
    await w.api.ledger.journal.transactions.create(posting("2026-02-10"));
    await w.api.ledger.periods.lock({ through: "2026-06-30" });
    return w;
  }
  const stored = async (companyId: string) => ({
    journal: (await h.db("journal_transactions").where({ company_id: companyId }).select(h.db.raw("to_char(date, 'YYYY-MM-DD') as d")))
      .map((r: { d: string }) => r.d)
      .sort(),
    stockOperations: Number((await h.db("stock_operations").where({ company_id: companyId }).count({ n: "*" }))[0].n),
  });

  const writers: { name: string; send: (w: World, date: string) => Promise<unknown>; key: string }[] = [
    { name: "a journal posting", send: (w, date) => w.api.ledger.journal.transactions.create(posting(date)), key: "period.locked" },
    {
      name: "a stock receipt (posting nothing)",
      send: (w, date) => w.api.inventory.stock.receive({ warehouseCode: "CENTR", date, lines: [{ itemCode: "PREKE", quantity: "1", unitCost: "0" }] }),
      key: "period.locked",
    },
    {
      name: "a books import's opening balances",
      send: (w, date) =>
        w.api.migration.books.import({
          cutoverDate: "2026-07-01",
          openingBalances: {
            date,
            entries: [
              { accountCode: "2710", debit: "1.00" },
              { accountCode: "3010", credit: "1.00" },
            ],
          },
        }),
      key: "migration.period_locked",
    },
  ];
  test.each(writers)("$name dated before the first posting (2020-05-15, 2026-01-31) is 409 $key; after the lock's month it goes in", async ({ send, key }) => {
    const w = await lockedThroughJune();
    const before = await stored(w.companyId);
    for (const date of ["2020-05-15", "2026-01-31", "2026-06-30"]) {
      const error = await expectApiError(send(w, date), 409, "conflict", key);
      expect(error.params).toEqual(key === "period.locked" ? { month: date.slice(0, 7) } : { months: [date.slice(0, 7)] });
    }
    expect(await stored(w.companyId)).toEqual(before);
    await send(w, "2026-07-01");
  });

  test("the database refuses a journal header or a stock operation dated in a month no row names, before the locked-through month", async () => {
    const w = await lockedThroughJune();
    const warehouse = await h.db("warehouses").where({ company_id: w.companyId }).first("id");
    const attempts = [
      (trx: typeof h.db) =>
        trx("journal_transactions").insert({
          company_id: w.companyId,
          date: "2020-05-15",
          document_type: "manual",
          total: "1.00",
          account_codes: ["2710", "3010"],
        }),
      (trx: typeof h.db) => trx("stock_operations").insert({ company_id: w.companyId, kind: "receipt", date: "2020-05-15", warehouse_id: warehouse.id }),
    ];
    for (const attempt of attempts) {
      const error = await h.db
        .transaction((trx) => attempt(trx))
        .then(
          () => null,
          (e: { constraint?: string }) => e,
        );
      expect(error?.constraint).toBe("ledger_period_locked");
    }
    expect(await h.db("ledger_period_locks").where({ company_id: w.companyId }).whereRaw("month < '2026-02-01'")).toEqual([]);
    expect(await stored(w.companyId)).toEqual({ journal: ["2026-02-10"], stockOperations: 0 });
  });

  test("unlocking walks back one month at a time, past the months rows name; the months before stay locked", async () => {
    const w = await periodsWorld();
    await w.api.ledger.journal.transactions.create(posting("2026-01-15"));
    await w.api.ledger.periods.lock({ through: "2026-03-31" });
    for (const month of ["2026-03", "2026-02", "2026-01", "2025-12"]) {
      await expectApiError(w.api.ledger.journal.transactions.create(posting(`${month}-10`)), 409, "conflict", "period.locked");
      expect(await w.api.ledger.periods.unlock({ month })).toMatchObject({ month, state: "open" });
      expect(await w.api.ledger.journal.transactions.create(posting(`${month}-10`))).toMatchObject({ date: `${month}-10` });
    }
    expect(await lockedInDb(w.companyId)).toEqual([]);
    expect(await h.db("ledger_locked_through").where({ company_id: w.companyId }).select(h.db.raw("to_char(month, 'YYYY-MM') as m"))).toEqual([
      { m: "2025-11" },
    ]);
    await expectApiError(w.api.ledger.journal.transactions.create(posting("2025-11-30")), 409, "conflict", "period.locked");
    const error = await expectApiError(w.api.ledger.periods.unlock({ month: "2025-10" }), 409, "conflict", "period.not_latest_locked");
    expect(error.params).toEqual({ month: "2025-10", latestLocked: "2025-11" });
    // A month lock after the locked-through month is the latest; a lock of a month covered already adds nothing.
    expect(await w.api.ledger.periods.lock({ month: "2019-01" })).toEqual({ locked: [] });
    await w.api.ledger.periods.lock({ month: "2026-05" });
    await expectApiError(w.api.ledger.periods.unlock({ month: "2025-11" }), 409, "conflict", "period.not_latest_locked");
  });

  test("the list shows the months before the first posting as locked by the lock through the date", async () => {
    const w = await periodsWorld();
    const lock = await w.api.ledger.periods.lock({ through: `${year}-03-31` });
    expect(lock.locked.map((p: { month: string }) => p.month)).toEqual([`${year}-03`]);
    const res = await w.api.ledger.periods.list({ pageSize: 100 });
    const lockedAt = lock.locked[0].lockedAt;
    expect(res.rows.slice(0, 4)).toEqual([
      { month: `${year}-01`, state: "locked", lockedAt, lockedByKeyId: w.keyId },
      { month: `${year}-02`, state: "locked", lockedAt, lockedByKeyId: w.keyId },
      { month: `${year}-03`, state: "locked", lockedAt, lockedByKeyId: w.keyId },
      { month: `${year}-04`, state: "open", lockedAt: null, lockedByKeyId: null },
    ]);
    expect(await lockedInDb(w.companyId)).toEqual([`${year}-03`]);
  });
});
