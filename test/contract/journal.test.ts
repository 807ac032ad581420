// ledger/journal/transactions: create (every posting rule as a case), get, list (filters and totals) and reverse;
// and the immutability the database enforces on posted transactions whatever code runs against it.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { Decimal } from "decimal.js";
import pg from "pg";
import { startHarness, type Harness } from "../support/harness.js";
import { expectApiError, invalid, settle } from "../support/expect.js";
import type { RequestBody } from "../../sdk/typescript/src/index.js";
import { world, type World } from "../support/world.js";
import { bankTransaction, bankWorld, issuedSale, registeredPurchase } from "../support/bank.js";
import { UUID, ISO_INSTANT as ISO } from "../support/patterns.js";
import { waitForLockWaiters } from "../support/db-waits.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

type Filter = NonNullable<RequestBody<"ledger_journal_transactions_list">["filter"]>;

/** A tenant with the lt-standard chart, a partner PARTNER1, and optionally a `journal` series BZ for 2026. */
const journalWorld = ({ series = false } = {}) =>
  world(h, {
    partners: [{ name: "Pirkėjas UAB", code: "PARTNER1" }],
    series: series ? [{ documentType: "journal", prefix: "BZ", year: 2026 }] : [],
  });

const pair = (debitAccount: string, creditAccount: string, amount: string) => [
  { accountCode: debitAccount, debit: amount },
  { accountCode: creditAccount, credit: amount },
];

const headers = (companyId: string) => h.db("journal_transactions").where({ company_id: companyId }).orderBy("created_at");
const entriesOf = (companyId: string, transactionId: string) =>
  h.db("journal_entries").where({ company_id: companyId, transaction_id: transactionId }).orderBy("line_no");
const countOf = async (companyId: string) => ({
  transactions: Number((await h.db("journal_transactions").where({ company_id: companyId }).count<{ count: string }[]>("* as count"))[0].count),
  entries: Number((await h.db("journal_entries").where({ company_id: companyId }).count<{ count: string }[]>("* as count"))[0].count),
});

describe("create", () => {
  test("returns the transaction with its number, lines and total, and stores header and entries", async () => {
    const w = await journalWorld({ series: true });
    const input = {
      date: "2026-03-15",
      description: "Kapitalo įnešimas",
      reference: "SUT-1",
      entries: [
        { accountCode: "2710", debit: "2500.5", description: "Bankas" },
        { accountCode: "3010", credit: "2000" },
        { accountCode: "2410", credit: "500.50", partnerCode: "PARTNER1" },
      ],
    };
    const res = await w.api.ledger.journal.transactions.create(input);
    expect(res).toEqual({
      id: expect.stringMatching(UUID),
      number: "BZ-1",
      date: "2026-03-15",
      description: "Kapitalo įnešimas",
      reference: "SUT-1",
      documentType: "manual",
      source: null,
      reversesId: null,
      reversedById: null,
      total: "2500.50",
      entries: [
        {
          lineNo: 1,
          accountCode: "2710",
          debit: "2500.50",
          credit: null,
          partnerCode: null,
          currency: null,
          currencyAmount: null,
          rate: null,
          description: "Bankas",
        },
        {
          lineNo: 2,
          accountCode: "3010",
          debit: null,
          credit: "2000.00",
          partnerCode: null,
          currency: null,
          currencyAmount: null,
          rate: null,
          description: null,
        },
        {
          lineNo: 3,
          accountCode: "2410",
          debit: null,
          credit: "500.50",
          partnerCode: "PARTNER1",
          currency: null,
          currencyAmount: null,
          rate: null,
          description: null,
        },
      ],
      createdByKeyId: w.keyId,
      createdAt: expect.stringMatching(ISO),
    });
    const [header] = await headers(w.companyId);
    expect(header).toMatchObject({
      id: res.id,
      number: "BZ-1",
      document_type: "manual",
      total: "2500.50",
      reference: "SUT-1",
      created_by_key_id: w.keyId,
    });
    expect(header.account_codes.sort()).toEqual(["2410", "2710", "3010"]);
    expect(header.partner_codes).toEqual(["PARTNER1"]);
    const entries = await entriesOf(w.companyId, res.id);
    expect(entries.map((e) => [e.line_no, e.account_code, e.debit, e.credit, e.partner_code])).toEqual([
      [1, "2710", "2500.50", "0.00", null],
      [2, "3010", "0.00", "2000.00", null],
      [3, "2410", "0.00", "500.50", "PARTNER1"],
    ]);
  });

  test("numbers come from the journal series of the date's year, consecutively; null without a series", async () => {
    const w = await journalWorld({ series: true });
    const first = await w.api.ledger.journal.transactions.create({ date: "2026-01-02", entries: pair("2710", "3010", "1.00") });
    const second = await w.api.ledger.journal.transactions.create({ date: "2026-12-31", entries: pair("2710", "3010", "1.00") });
    const otherYear = await w.api.ledger.journal.transactions.create({ date: "2025-12-31", entries: pair("2710", "3010", "1.00") });
    expect([first.number, second.number, otherYear.number]).toEqual(["BZ-1", "BZ-2", null]);
    expect((await headers(w.companyId)).map((r) => r.number)).toEqual(["BZ-1", "BZ-2", null]);
    expect(await h.db("number_series").where({ company_id: w.companyId, document_type: "journal", year: 2026 }).first()).toMatchObject({ next_number: "3" });
  });

  test("a company without a journal series gets null numbers", async () => {
    const w = await journalWorld();
    const res = await w.api.ledger.journal.transactions.create({ date: "2026-04-01", entries: pair("2710", "3010", "3.00") });
    expect(res).toMatchObject({ number: null });
    expect((await headers(w.companyId))[0].number).toBeNull();
  });

  test("a line in another currency converts at its rate: 110.00 USD at 1.1 = 100.00 EUR", async () => {
    const w = await journalWorld();
    const res = await w.api.ledger.journal.transactions.create({
      date: "2026-05-05",
      entries: [
        { accountCode: "2710", debit: "100.00", currency: "USD", currencyAmount: "110.00", rate: "1.1" },
        { accountCode: "5000", credit: "100.00" },
      ],
    });
    expect(res.entries[0]).toMatchObject({ debit: "100.00", currency: "USD", currencyAmount: "110.00", rate: "1.1" });
    expect(new Decimal(res.entries[0].rate!).equals("1.1")).toBe(true);
    const [row] = await entriesOf(w.companyId, res.id);
    expect(row).toMatchObject({ currency: "USD", currency_amount: "110.00", debit: "100.00" });
    expect(new Decimal(row.rate).equals("1.1")).toBe(true);
  });

  test("with an Idempotency-Key: posted once, the retry replays it", async () => {
    const w = await journalWorld({ series: true });
    const create = () =>
      w.api.ledger.journal.transactions.create.withResponse(
        { date: "2026-03-09", entries: pair("2710", "3010", "4.00") },
        { idempotencyKey: "journal-create-1" },
      );
    const first = await create();
    const retry = await create();
    expect(retry.response.headers.get("x-idempotent-replay")).toBe("true");
    expect(retry.data).toEqual(first.data);
    expect(await countOf(w.companyId)).toEqual({ transactions: 1, entries: 2 });
  });

  test("500 lines are accepted", async () => {
    const w = await journalWorld();
    const entries = Array.from({ length: 500 }, (_, i) => (i % 2 === 0 ? { accountCode: "2710", debit: "1.01" } : { accountCode: "3010", credit: "1.01" }));
    const res = await w.api.ledger.journal.transactions.create({ date: "2026-06-01", entries });
    expect(res.entries).toHaveLength(500);
    expect(res.entries[499].lineNo).toBe(500);
    expect(res.total).toBe("252.50");
    expect(await countOf(w.companyId)).toEqual({ transactions: 1, entries: 500 });
  });

  // Each case posts into a fresh company with the chart, partner PARTNER1 and 2025-06 locked; nothing may be stored.
  const lines501 = Array.from({ length: 501 }, (_, i) =>
    i === 0 ? { accountCode: "2710", debit: "250.00" } : { accountCode: "3010", credit: i <= 250 ? "1.00" : "0.00" },
  );
  test.each([
    { name: "one line", entries: [{ accountCode: "2710", debit: "1.00" }], status: 400, code: "validation", fields: { entries: expect.any(Array) } },
    { name: "no lines", entries: [], status: 400, code: "validation", fields: { entries: expect.any(Array) } },
    {
      name: "both debit and credit",
      entries: [
        { accountCode: "2710", debit: "1.00", credit: "1.00" },
        { accountCode: "3010", credit: "1.00" },
      ],
      status: 400,
      code: "validation",
      fields: { "entries[0]": expect.any(Array) },
    },
    {
      name: "neither debit nor credit",
      entries: [{ accountCode: "2710", debit: "1.00" }, { accountCode: "3010" }],
      status: 400,
      code: "validation",
      fields: { "entries[1]": expect.any(Array) },
    },
    {
      name: "a zero debit",
      entries: [
        { accountCode: "2710", debit: "0.00" },
        { accountCode: "3010", credit: "0" },
      ],
      status: 400,
      code: "validation",
      fields: { "entries[0].debit": expect.any(Array), "entries[1].credit": expect.any(Array) },
    },
    {
      name: "a negative amount",
      entries: [
        { accountCode: "2710", debit: "-1.00" },
        { accountCode: "3010", credit: "1.00" },
      ],
      status: 400,
      code: "validation",
      fields: { "entries[0].debit": expect.any(Array) },
    },
    {
      name: "three decimals",
      entries: [
        { accountCode: "2710", debit: "1.001" },
        { accountCode: "3010", credit: "1.001" },
      ],
      status: 400,
      code: "validation",
      fields: { "entries[0].debit": expect.any(Array), "entries[1].credit": expect.any(Array) },
    },
    {
      name: "an amount given as a number",
      entries: [
        { accountCode: "2710", debit: 1 },
        { accountCode: "3010", credit: "1.00" },
      ],
      status: 400,
      code: "validation",
      fields: { "entries[0].debit": expect.any(Array) },
    },
    {
      name: "currency without rate",
      entries: [
        { accountCode: "2710", debit: "1.00", currency: "USD", currencyAmount: "1.10" },
        { accountCode: "3010", credit: "1.00" },
      ],
      status: 400,
      code: "validation",
      fields: { "entries[0]": expect.any(Array) },
    },
    {
      name: "rate without currency",
      entries: [
        { accountCode: "2710", debit: "1.00" },
        { accountCode: "3010", credit: "1.00", rate: "1.1" },
      ],
      status: 400,
      code: "validation",
      fields: { "entries[1]": expect.any(Array) },
    },
    { name: "501 lines", entries: lines501, status: 400, code: "validation", fields: { entries: expect.any(Array) } },
    {
      name: "an unknown property on a line",
      entries: [
        { accountCode: "2710", debit: "1.00", amount: "1" },
        { accountCode: "3010", credit: "1.00" },
      ],
      status: 400,
      code: "validation",
      fields: { "entries[0].amount": expect.any(Array) },
    },
    {
      name: "an unknown account",
      entries: [
        { accountCode: "2710", debit: "1.00" },
        { accountCode: "9999", credit: "1.00" },
      ],
      status: 422,
      code: "unprocessable",
      key: "journal.lines_rejected",
      fields: { "entries[1].accountCode": ["account 9999 does not exist"] },
    },
    {
      name: "a header account",
      entries: [
        { accountCode: "27", debit: "1.00" },
        { accountCode: "3010", credit: "1.00" },
      ],
      status: 422,
      code: "unprocessable",
      key: "journal.lines_rejected",
      fields: { "entries[0].accountCode": ["account 27 is not postable"] },
    },
    {
      name: "an unknown partner",
      entries: [
        { accountCode: "2410", debit: "1.00", partnerCode: "NOBODY" },
        { accountCode: "5000", credit: "1.00" },
      ],
      status: 422,
      code: "unprocessable",
      key: "journal.lines_rejected",
      fields: { "entries[0].partnerCode": ["partner NOBODY does not exist"] },
    },
    {
      name: "a conversion that does not match",
      entries: [
        { accountCode: "2710", debit: "100.01", currency: "USD", currencyAmount: "110.00", rate: "1.1" },
        { accountCode: "5000", credit: "100.01" },
      ],
      status: 422,
      code: "unprocessable",
      key: "journal.lines_rejected",
      fields: { "entries[0]": expect.any(Array) },
    },
  ])("$name -> $status, nothing stored", async ({ entries, status, code, key, fields }) => {
    const w = await journalWorld();
    // The 400 cases send what the contract forbids.
    const error = await expectApiError(w.api.ledger.journal.transactions.create(invalid({ date: "2026-03-01", entries })), status, code, key);
    expect(error.fieldErrors).toEqual(fields);
    expect(await countOf(w.companyId)).toEqual({ transactions: 0, entries: 0 });
  });

  test("unbalanced lines -> 422 journal.unbalanced with both sums, nothing stored", async () => {
    const w = await journalWorld();
    const error = await expectApiError(
      w.api.ledger.journal.transactions.create({
        date: "2026-03-01",
        entries: [
          { accountCode: "2710", debit: "10.00" },
          { accountCode: "3010", credit: "9.99" },
          { accountCode: "3010", credit: "0.02" },
        ],
      }),
      422,
      "unprocessable",
      "journal.unbalanced",
    );
    expect(error.params).toEqual({ debit: "10.00", credit: "10.01" });
    expect(await countOf(w.companyId)).toEqual({ transactions: 0, entries: 0 });
  });

  test("a date in a locked month -> 409 period.locked; the month next to it is open", async () => {
    const w = await journalWorld();
    await w.api.ledger.periods.lock({ month: "2025-06" });
    const error = await expectApiError(
      w.api.ledger.journal.transactions.create({ date: "2025-06-30", entries: pair("2710", "3010", "5.00") }),
      409,
      "conflict",
      "period.locked",
    );
    expect(error.params).toEqual({ month: "2025-06" });
    expect(await countOf(w.companyId)).toEqual({ transactions: 0, entries: 0 });
    await w.api.ledger.journal.transactions.create({ date: "2025-07-01", entries: pair("2710", "3010", "5.00") });
    expect(await countOf(w.companyId)).toEqual({ transactions: 1, entries: 2 });
  });

  test.each([
    { name: "missing date", body: { entries: pair("2710", "3010", "1.00") }, field: "date" },
    { name: "impossible date", body: { date: "2026-02-30", entries: pair("2710", "3010", "1.00") }, field: "date" },
    {
      name: "reference of 129 characters",
      body: { date: "2026-02-01", reference: "r".repeat(129), entries: pair("2710", "3010", "1.00") },
      field: "reference",
    },
    { name: "unknown property", body: { date: "2026-02-01", number: "X-1", entries: pair("2710", "3010", "1.00") }, field: "number" },
  ])("$name -> 400 naming $field", async ({ body, field }) => {
    const w = await journalWorld();
    const error = await expectApiError(w.api.ledger.journal.transactions.create(invalid(body)), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual([field]);
    expect(await countOf(w.companyId)).toEqual({ transactions: 0, entries: 0 });
  });
});

// A manual posting is one statement after its checks — number, header, lines, its event and the request's audit record
// — with COMMIT right behind it (src/ledger/posting.ts, postLast; issue 26): what it wrote before its id, number and
// creation time existed carries placeholders that statement fills in.
describe("create: one statement, its event and its audit record", () => {
  const eventsOf = (companyId: string) => h.db("webhook_events").where({ company_id: companyId, event_type: "journal_transaction.posted" }).orderBy("seq");
  const auditOf = (companyId: string) => h.db("audit_log").where({ company_id: companyId, operation: "ledger.journal.transactions.create" }).orderBy("id");

  test.each([
    { name: "numbered", series: true, number: "BZ-1" },
    { name: "without a journal series", series: false, number: null },
  ])("$name: the posted event is the answer, the one audit record names it", async ({ series, number }) => {
    const w = await journalWorld({ series });
    // Texts that JSON escapes (a quote, a backslash, a line break) and letters it does not.
    const posted = await w.api.ledger.journal.transactions.create({
      date: "2026-02-28",
      description: 'Kasos "A" pajamos \\ vasaris\nąčęėįšųūž',
      reference: "R-1",
      entries: [
        { accountCode: "2710", debit: "121.00", description: 'grynieji "už" prekes' },
        { accountCode: "5000", credit: "100.00", partnerCode: "PARTNER1" },
        { accountCode: "4492", credit: "21.00" },
      ],
    });
    expect(posted).toMatchObject({ number, reference: "R-1", total: "121.00" });
    expect(posted.id).toMatch(UUID);
    expect(posted.createdAt).toMatch(ISO);
    const [header] = await headers(w.companyId);
    expect(header.created_at.toISOString()).toBe(posted.createdAt);
    const events = await eventsOf(w.companyId);
    expect(events.map((e) => [e.event_type, e.data])).toEqual([["journal_transaction.posted", posted]]);
    const audit = await auditOf(w.companyId);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ target_ids: [posted.id], summary: { ...(number ? { number } : {}), date: "2026-02-28", documentType: "manual" } });
    expect(Object.keys(audit[0].summary).sort()).toEqual([...(number ? ["number"] : []), "date", "documentType"].sort());
  });

  test("with an Idempotency-Key (a savepoint, the stored answer last): one posting, one event, one audit record", async () => {
    const w = await journalWorld({ series: true });
    const create = () =>
      w.api.ledger.journal.transactions.create.withResponse(
        { date: "2026-03-09", entries: pair("2710", "3010", "4.00") },
        { idempotencyKey: "one-statement-1" },
      );
    const first = await create();
    const retry = await create();
    expect(retry.data).toEqual(first.data);
    expect(first.data.number).toBe("BZ-1");
    expect((await eventsOf(w.companyId)).map((e) => e.data)).toEqual([first.data]);
    expect((await auditOf(w.companyId)).map((a) => a.target_ids)).toEqual([[first.data.id]]);
  });

  test("ledger_post is estimated at one row, so a statement calling it is not costly enough for the JIT", async () => {
    // With the default 1000 rows of a set-returning function, PostgreSQL 15 with jit on compiled the posting's statement
    // on every call (45 numbered postings/s instead of 176; issue 26).
    const [fn] = (await h.db.raw("select prorows from pg_proc where proname = 'ledger_post'")).rows;
    expect(Number(fn.prorows)).toBe(1);
    const { rows } = await h.db.raw(
      `explain (format json) select * from ledger_post(null::uuid, 2026, '2026-01-01', null, null, 'manual', null, null, null, 1, '{}', '{}', null,
                                                        '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}')`,
    );
    const plan = rows[0]["QUERY PLAN"][0].Plan;
    expect(plan["Plan Rows"]).toBe(1);
    const [jit] = (await h.db.raw("select setting::float as cost from pg_settings where name = 'jit_above_cost'")).rows;
    expect(plan["Total Cost"]).toBeLessThan(jit.cost);
  });

  test("numbered postings of one series queue for it in arrival order (an advisory lock, class 7305); unnumbered ones do not queue", async () => {
    const w = await journalWorld({ series: true });
    const unnumbered = await journalWorld();
    const series = await h.db("number_series").where({ company_id: w.companyId, document_type: "journal", year: 2026 }).first();
    // The test holds the series' queue as a posting in its transaction would (ledger_post, src/db/functions).
    const holder = new pg.Client({ connectionString: h.connectionString });
    await holder.connect();
    try {
      await holder.query("begin");
      await holder.query("select pg_advisory_xact_lock(7305, hashtext($1::text))", [series.id]);
      const queued: Promise<{ number: string | null }>[] = [];
      for (let i = 1; i <= 3; i++) {
        queued.push(w.api.ledger.journal.transactions.create({ date: "2026-06-01", description: `arrived ${i}`, entries: pair("2710", "3010", `${i}.00`) }));
        await waitForLockWaiters(h.db, { count: i, waitEvent: "advisory", what: `posting ${i} queued for the series` });
      }
      // Meanwhile a company without a series posts at once, and nothing of the queued ones is written.
      expect((await unnumbered.api.ledger.journal.transactions.create({ date: "2026-06-01", entries: pair("2710", "3010", "9.00") })).number).toBeNull();
      expect(await countOf(w.companyId)).toEqual({ transactions: 0, entries: 0 });
      await holder.query("commit");
      expect((await Promise.all(queued)).map((t) => t.number)).toEqual(["BZ-1", "BZ-2", "BZ-3"]);
    } finally {
      await holder.end();
    }
  });

  test("a posting that fails after taking its number gives it back: 20 concurrent postings, 5 failing at commit, BZ-1..BZ-15", async () => {
    const w = await journalWorld({ series: true });
    // A test-only deferred check that fails at COMMIT, after the posting's statement, for the postings that ask for it.
    await h.db.raw(`
      create or replace function test_journal_fail_at_commit() returns trigger language plpgsql as $$
      begin
        if new.description = 'fail-at-commit' then raise exception 'test: failing % at commit', new.number; end if;
        return null;
      end $$;
      drop trigger if exists test_journal_fail_at_commit on journal_transactions;
      create constraint trigger test_journal_fail_at_commit after insert on journal_transactions deferrable initially deferred
        for each row execute function test_journal_fail_at_commit();`);
    try {
      const failing = Array.from({ length: 20 }, (_, i) => i % 4 === 1);
      const results = await Promise.all(
        failing.map((fail, i) =>
          settle(
            w.api.ledger.journal.transactions.create({
              date: "2026-04-01",
              description: fail ? "fail-at-commit" : `posting ${i}`,
              entries: pair("2710", "3010", `${i + 1}.00`),
            }),
          ),
        ),
      );
      expect(results.map((r) => r.status >= 500)).toEqual(failing);
      const posted = results.flatMap((r) => (r.data ? [r.data] : []));
      const numbers = posted.map((p) => Number(p.number!.slice(3))).sort((a, b) => a - b);
      expect(numbers).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
      expect((await headers(w.companyId)).map((r) => r.number).sort()).toEqual(posted.map((p) => p.number).sort());
      const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
      expect((await eventsOf(w.companyId)).map((e) => e.data).sort(byId)).toEqual([...posted].sort(byId));
      expect((await auditOf(w.companyId)).map((a) => a.target_ids[0]).sort()).toEqual(posted.map((p) => p.id).sort());
      expect(await h.db("number_series").where({ company_id: w.companyId, document_type: "journal" }).first()).toMatchObject({ next_number: "16" });
    } finally {
      await h.db.raw("drop trigger if exists test_journal_fail_at_commit on journal_transactions; drop function if exists test_journal_fail_at_commit()");
    }
    expect((await w.api.ledger.journal.transactions.create({ date: "2026-04-02", entries: pair("2710", "3010", "1.00") })).number).toBe("BZ-16");
  });
});

describe("get", () => {
  test("returns what create returned", async () => {
    const w = await journalWorld({ series: true });
    const created = await w.api.ledger.journal.transactions.create({ date: "2026-02-02", description: "D", entries: pair("6000", "2040", "7.70") });
    expect(await w.api.ledger.journal.transactions.get({ id: created.id })).toMatchObject(created);
  });

  test("another company's transaction and an unknown id -> 404", async () => {
    const w = await journalWorld();
    const other = await journalWorld();
    const theirs = await other.api.ledger.journal.transactions.create({ date: "2026-02-02", entries: pair("6000", "2040", "7.70") });
    await expectApiError(w.api.ledger.journal.transactions.get({ id: theirs.id }), 404, "not_found");
    await expectApiError(w.api.ledger.journal.transactions.get({ id: "00000000-0000-4000-8000-000000000000" }), 404, "not_found");
    expect(await h.db("journal_transactions").where({ id: theirs.id }).first()).toMatchObject({ company_id: other.companyId });
  });
});

describe("list", () => {
  let w: World;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    w = await journalWorld();
    ids.t1 = (
      await w.api.ledger.journal.transactions.create({
        date: "2026-01-10",
        reference: "INV-1",
        entries: [
          { accountCode: "2710", debit: "100.00" },
          { accountCode: "5000", credit: "100.00", partnerCode: "PARTNER1" },
        ],
      })
    ).id;
    ids.t2 = (await w.api.ledger.journal.transactions.create({ date: "2026-02-15", reference: "INV-2", entries: pair("2410", "5000", "50.50") })).id;
    ids.t3 = (await w.api.ledger.journal.transactions.create({ date: "2026-02-20", reference: "X-3", entries: pair("6000", "2040", "20.00") })).id;
    ids.t4 = (await w.api.ledger.journal.transactions.reverse({ id: ids.t3 })).id;
  });

  /** Debit and credit sums of the given transactions' entries, from the database. */
  async function dbSums(names: string[]) {
    const [row] = await h
      .db("journal_entries")
      .where({ company_id: w.companyId })
      .whereIn(
        "transaction_id",
        names.map((n) => ids[n]),
      )
      .select(h.db.raw("coalesce(sum(debit), 0)::text as debit, coalesce(sum(credit), 0)::text as credit"));
    return { debit: new Decimal(row.debit).toFixed(2), credit: new Decimal(row.credit).toFixed(2) };
  }

  test.each<{ name: string; filter: Filter; expected: string[] }>([
    { name: "no filter, default order date desc then createdAt desc", filter: [], expected: ["t4", "t3", "t2", "t1"] },
    { name: "date eq", filter: [{ field: "date", op: "eq", value: "2026-02-15" }], expected: ["t2"] },
    {
      name: "date range",
      filter: [
        { field: "date", op: "gte", value: "2026-02-01" },
        { field: "date", op: "lte", value: "2026-02-19" },
      ],
      expected: ["t2"],
    },
    { name: "documentType reversal", filter: [{ field: "documentType", op: "eq", value: "reversal" }], expected: ["t4"] },
    { name: "documentType manual", filter: [{ field: "documentType", op: "eq", value: "manual" }], expected: ["t3", "t2", "t1"] },
    { name: "account eq", filter: [{ field: "account", op: "eq", value: "5000" }], expected: ["t2", "t1"] },
    { name: "account in", filter: [{ field: "account", op: "in", value: ["6000", "2410"] }], expected: ["t4", "t3", "t2"] },
    { name: "partner eq", filter: [{ field: "partner", op: "eq", value: "PARTNER1" }], expected: ["t1"] },
    { name: "reference eq", filter: [{ field: "reference", op: "eq", value: "INV-2" }], expected: ["t2"] },
    { name: "reference contains", filter: [{ field: "reference", op: "contains", value: "inv" }], expected: ["t2", "t1"] },
    { name: "nothing matches", filter: [{ field: "account", op: "eq", value: "1110" }], expected: [] },
  ])("$name: rows and totals over all matching rows (page of 1)", async ({ filter, expected }) => {
    const all = await w.api.ledger.journal.transactions.list({ filter, totals: ["debit", "credit"], pageSize: 100 });
    expect(all.rows.map((r: { id: string }) => r.id)).toEqual(expected.map((n) => ids[n]));
    const sums = await dbSums(expected);
    expect(all.totals).toEqual(sums);
    const page = await w.api.ledger.journal.transactions.list({ filter, totals: ["debit", "credit"], pageSize: 1 });
    expect({ rows: page.rows.length, total: page.total, totals: page.totals }).toEqual({
      rows: Math.min(1, expected.length),
      total: expected.length,
      totals: sums,
    });
  });

  test("a row carries its sums, accounts and partners", async () => {
    const res = await w.api.ledger.journal.transactions.list({ filter: [{ field: "reference", op: "eq", value: "INV-1" }] });
    expect(res.rows).toEqual([
      expect.objectContaining({
        id: ids.t1,
        debit: "100.00",
        credit: "100.00",
        documentType: "manual",
        reversesId: null,
        date: "2026-01-10",
        partnerCodes: ["PARTNER1"],
      }),
    ]);
    expect([...res.rows[0].accountCodes].sort()).toEqual(["2710", "5000"]);
    const reversal = await w.api.ledger.journal.transactions.list({ filter: [{ field: "documentType", op: "eq", value: "reversal" }] });
    expect(reversal.rows[0]).toMatchObject({ reversesId: ids.t3 });
  });

  test("another company's transactions are not listed", async () => {
    const other = await journalWorld();
    expect(await other.api.ledger.journal.transactions.list({})).toMatchObject({ rows: [], total: 0 });
  });
});

describe("reverse", () => {
  async function original(w: World, date = "2026-04-10") {
    return w.api.ledger.journal.transactions.create({
      date,
      description: "Pardavimas",
      reference: "SF-7",
      entries: [
        { accountCode: "2410", debit: "121.00", partnerCode: "PARTNER1", description: "Pirkėjas" },
        { accountCode: "5000", credit: "100.00", currency: "USD", currencyAmount: "110.00", rate: "1.1" },
        { accountCode: "4492", credit: "21.00" },
      ],
    });
  }

  test("posts the opposite lines as a reversal, linked both ways, with the default description", async () => {
    const w = await journalWorld({ series: true });
    const tx = await original(w);
    const res = await w.api.ledger.journal.transactions.reverse({ id: tx.id });
    expect(res).toMatchObject({
      documentType: "reversal",
      reversesId: tx.id,
      reversedById: null,
      date: "2026-04-10",
      description: "Reversal of BZ-1",
      reference: "SF-7",
      number: "BZ-2",
      total: "121.00",
    });
    expect(res.entries).toEqual(tx.entries.map((e: Record<string, unknown>) => ({ ...e, debit: e.credit, credit: e.debit })));
    expect(await w.api.ledger.journal.transactions.get({ id: tx.id })).toMatchObject({ reversedById: res.id, reversesId: null });
    expect(await w.api.ledger.journal.transactions.get({ id: res.id })).toMatchObject({ reversesId: tx.id, reversedById: null });
    const row = await h.db("journal_transactions").where({ company_id: w.companyId, id: res.id }).first();
    expect(row).toMatchObject({ document_type: "reversal", reverses_id: tx.id, total: "121.00" });
    const [a, b] = await Promise.all([entriesOf(w.companyId, tx.id), entriesOf(w.companyId, res.id)]);
    expect(b.map((e) => [e.account_code, e.debit, e.credit])).toEqual(a.map((e) => [e.account_code, e.credit, e.debit]));
  });

  test("without a number the default description names the id; date and description may be given", async () => {
    const w = await journalWorld();
    const tx = await w.api.ledger.journal.transactions.create({ date: "2026-04-10", entries: pair("2710", "3010", "9.00") });
    const byDefault = await w.api.ledger.journal.transactions.reverse({ id: tx.id });
    expect(byDefault.description).toBe(`Reversal of ${tx.id}`);
    const tx2 = await w.api.ledger.journal.transactions.create({ date: "2026-04-10", entries: pair("2710", "3010", "9.00") });
    const given = await w.api.ledger.journal.transactions.reverse({ id: tx2.id, date: "2026-05-01", description: "Klaida" });
    expect(given).toMatchObject({ date: "2026-05-01", description: "Klaida" });
    expect(await h.db("journal_transactions").where({ company_id: w.companyId, id: given.id }).first()).toMatchObject({
      description: "Klaida",
      reverses_id: tx2.id,
    });
  });

  test.each([
    {
      name: "a second reversal",
      setup: async (w: World, id: string) => {
        await w.api.ledger.journal.transactions.reverse({ id });
        return { id };
      },
      status: 409,
      code: "conflict",
      key: "journal.already_reversed",
    },
    {
      name: "reversing a reversal",
      setup: async (w: World, id: string) => ({ id: (await w.api.ledger.journal.transactions.reverse({ id })).id }),
      status: 409,
      code: "conflict",
      key: "journal.reversal_of_reversal",
    },
    {
      name: "into a locked month (the original's)",
      setup: async (w: World, id: string) => {
        await w.api.ledger.periods.lock({ month: "2026-04" });
        return { id };
      },
      status: 409,
      code: "conflict",
      key: "period.locked",
    },
    {
      name: "into a locked month (given date)",
      setup: async (w: World, id: string) => {
        await w.api.ledger.periods.lock({ month: "2026-05" });
        return { id, date: "2026-05-02" };
      },
      status: 409,
      code: "conflict",
      key: "period.locked",
    },
    { name: "an unknown id", setup: async () => ({ id: "00000000-0000-4000-8000-000000000000" }), status: 404, code: "not_found" },
  ])("$name -> $status, nothing stored", async ({ setup, status, code, key }) => {
    const w = await journalWorld();
    const tx = await original(w);
    const body = await setup(w, tx.id);
    const before = await countOf(w.companyId);
    await expectApiError(w.api.ledger.journal.transactions.reverse(body), status, code, key);
    expect(await countOf(w.companyId)).toEqual(before);
  });

  test("with an Idempotency-Key: reversed once, the retry replays it", async () => {
    const w = await journalWorld();
    const tx = await original(w);
    const reverse = () => w.api.ledger.journal.transactions.reverse.withResponse({ id: tx.id }, { idempotencyKey: "journal-reverse-1" });
    const first = await reverse();
    const retry = await reverse();
    expect(retry.response.headers.get("x-idempotent-replay")).toBe("true");
    expect(retry.data).toEqual(first.data);
    expect(await countOf(w.companyId)).toEqual({ transactions: 2, entries: 6 });
  });

  test("another company's transaction cannot be reversed", async () => {
    const w = await journalWorld();
    const other = await journalWorld();
    const theirs = await original(other);
    await expectApiError(w.api.ledger.journal.transactions.reverse({ id: theirs.id }), 404, "not_found");
    expect(await countOf(other.companyId)).toEqual({ transactions: 1, entries: 3 });
  });

  test("the original's month locked: a reversal dated in an open month works", async () => {
    const w = await journalWorld();
    const tx = await original(w);
    await w.api.ledger.periods.lock({ month: "2026-04" });
    const res = await w.api.ledger.journal.transactions.reverse({ id: tx.id, date: "2026-06-01" });
    expect(res).toMatchObject({ date: "2026-06-01", reversesId: tx.id });
    expect(await h.db("journal_entries").where({ company_id: w.companyId, transaction_id: res.id }).pluck("date")).toEqual([
      "2026-06-01",
      "2026-06-01",
      "2026-06-01",
    ]);
  });
});

describe("reverse: the posting of a document", () => {
  test("is undone through its document, never here: 409 journal.reverse_through_document names the operation, nothing is posted; unmatch reverses a payment", async () => {
    const w = await bankWorld(h);
    const sale = await issuedSale(w, "100");
    const purchase = await registeredPurchase(w, "50");
    const tx = await bankTransaction(w, "121.00");
    const payment = await w.api.bank.transactions.match({ transactionId: tx.id, allocations: [{ saleInvoiceId: sale.id, amount: "121.00" }] });
    await w.api.assets.groups.create({
      code: "VANS",
      name: "Furgonai",
      assetAccountCode: "1230",
      depreciationAccountCode: "1237",
      defaultUsefulLifeMonths: 36,
    });
    const asset = await w.api.assets.assets.create({
      code: "A-1",
      name: "Ford Transit",
      groupCode: "VANS",
      acquisitionDate: "2026-01-10",
      acquisitionCost: "1200.00",
      usefulLifeMonths: 12,
    });
    const run = await w.api.assets.depreciation.post({ month: "2026-02" });
    const disposed = await w.api.assets.assets.dispose({ id: asset.id, date: "2026-03-12" });
    await w.api.catalog.items.create({ code: "PREKE", name: "Prekė", type: "product", unit: "vnt.", vatRatePercent: "21" });
    await w.api.inventory.warehouses.create({ code: "CENTR", name: "Centrinis sandėlis" });
    const receipt = await w.api.inventory.stock.receive({
      warehouseCode: "CENTR",
      date: "2026-03-01",
      counterAccountCode: "4430",
      lines: [{ itemCode: "PREKE", quantity: "2", unitCost: "4" }],
    });
    const cases: [string, string | null, string | null][] = [
      ["payment", payment.journalTransactionId, "bank/transactions/unmatch"],
      ["sale_invoice", sale.journalTransactionId, "sales/invoices/create"],
      ["purchase_invoice", purchase.journalTransactionId, "purchases/invoices/create"],
      ["depreciation", run.journalTransactionId, "assets/depreciation/reverse"],
      ["asset_disposal", disposed.disposal!.journalTransactionId, null],
      ["inventory", receipt.journalTransactionId, "inventory/stock/receive"],
    ];
    const before = await countOf(w.companyId);
    for (const [documentType, id, operation] of cases) {
      const error = await expectApiError(w.api.ledger.journal.transactions.reverse({ id: id! }), 409, "conflict", "journal.reverse_through_document");
      expect([documentType, error.params]).toEqual([documentType, expect.objectContaining({ id, documentType, operation })]);
    }
    const paymentError = await expectApiError(
      w.api.ledger.journal.transactions.reverse({ id: payment.journalTransactionId! }),
      409,
      "conflict",
      "journal.reverse_through_document",
    );
    expect(paymentError.params).toEqual({
      id: payment.journalTransactionId,
      documentType: "payment",
      sourceType: "bank_transaction",
      sourceId: tx.id,
      operation: "bank/transactions/unmatch",
    });
    expect(await countOf(w.companyId)).toEqual(before);
    expect(await h.db("journal_transactions").where({ company_id: w.companyId }).whereNotNull("reverses_id")).toEqual([]);

    // Where it belongs, the payment is undone: its reversal is posted and the invoice is open again.
    expect((await w.api.bank.transactions.unmatch({ transactionId: tx.id })).status).toBe("unmatched");
    expect(await h.db("journal_transactions").where({ company_id: w.companyId, reverses_id: payment.journalTransactionId }).pluck("document_type")).toEqual([
      "reversal",
    ]);
    expect(await h.db("sale_invoices").where({ company_id: w.companyId, id: sale.id }).first("status", "paid_amount", "outstanding")).toEqual({
      status: "issued",
      paid_amount: "0.00",
      outstanding: "121.00",
    });
    // A manual posting still reverses here.
    const manual = await w.api.ledger.journal.transactions.create({ date: "2026-03-05", description: "Klaida", entries: pair("6314", "2710", "1.00") });
    expect((await w.api.ledger.journal.transactions.reverse({ id: manual.id })).reversesId).toBe(manual.id);
  });
});

describe("immutability in the database", () => {
  let w: World;
  beforeAll(async () => {
    w = await journalWorld();
    await w.api.ledger.journal.transactions.create({ date: "2026-03-03", entries: pair("2710", "3010", "10.00") });
  });

  test.each([
    ["journal_transactions", "update", "update journal_transactions set description = 'changed'"],
    ["journal_transactions", "update of the total", "update journal_transactions set total = total + 1"],
    ["journal_transactions", "delete", "delete from journal_transactions"],
    ["journal_entries", "update", "update journal_entries set debit = debit * 2, credit = credit * 2"],
    ["journal_entries", "delete", "delete from journal_entries"],
    ["audit_log", "update", "update audit_log set operation = 'changed'"],
    ["audit_log", "delete", "delete from audit_log"],
    ["journal_transactions", "truncate", "truncate journal_transactions cascade"],
    ["journal_entries", "truncate", "truncate journal_entries"],
    ["audit_log", "truncate", "truncate audit_log"],
  ])("%s: %s is refused", async (table, _op, sql) => {
    const before = await h.db(table).select("*");
    expect(before.length).toBeGreaterThan(0);
    await expect(h.db.raw(sql)).rejects.toThrow(/cannot be changed or deleted/);
    expect(await h.db(table).select("*")).toEqual(before);
  });

  test("an entry cannot be added to a committed transaction later", async () => {
    const [header] = await headers(w.companyId);
    const before = await entriesOf(w.companyId, header.id);
    await expect(
      h.db.transaction(async (trx) => {
        await trx("journal_entries").insert([
          { company_id: w.companyId, transaction_id: header.id, line_no: 3, date: header.date, account_code: "2710", debit: "5.00" },
          { company_id: w.companyId, transaction_id: header.id, line_no: 4, date: header.date, account_code: "3010", credit: "5.00" },
        ]);
      }),
    ).rejects.toThrow(/only be added in the transaction that creates/);
    expect(await entriesOf(w.companyId, header.id)).toEqual(before);
  });

  async function writeDirectly(entries: { account: string; debit: string; credit: string }[]) {
    const client = new pg.Client({ connectionString: h.connectionString });
    await client.connect();
    try {
      await client.query("begin");
      const { rows } = await client.query(
        `insert into journal_transactions (company_id, date, document_type, total, account_codes) values ($1, '2026-03-04', 'manual', 10, $2) returning id`,
        [w.companyId, entries.map((e) => e.account)],
      );
      for (const [i, e] of entries.entries()) {
        await client.query(
          `insert into journal_entries (company_id, transaction_id, line_no, date, account_code, debit, credit) values ($1, $2, $3, '2026-03-04', $4, $5, $6)`,
          [w.companyId, rows[0].id, i + 1, e.account, e.debit, e.credit],
        );
      }
      await client.query("commit");
      return rows[0].id as string;
    } finally {
      await client.end();
    }
  }

  test.each([
    ["one entry", [{ account: "2710", debit: "10", credit: "0" }]],
    [
      "debits differ from credits",
      [
        { account: "2710", debit: "10", credit: "0" },
        { account: "3010", debit: "0", credit: "9" },
      ],
    ],
    [
      "debits differ from the header's total",
      [
        { account: "2710", debit: "5", credit: "0" },
        { account: "3010", debit: "0", credit: "5" },
      ],
    ],
  ])("a header whose entries do not balance cannot commit: %s", async (_name, entries) => {
    const before = await countOf(w.companyId);
    await expect(writeDirectly(entries)).rejects.toThrow(/does not balance/);
    expect(await countOf(w.companyId)).toEqual(before);
  });

  test.each([
    ["a line dated otherwise than its header", { date: "2026-03-05", account: "2710" }, /entry date 2026-03-05 differs from its transaction date 2026-03-04/],
    ["a line on a header account (not postable)", { date: "2026-03-04", account: "271" }, /account 271 is not postable/],
    ["a line on an account the company does not have", { date: "2026-03-04", account: "9999" }, /not postable|violates foreign key/],
  ])("the database refuses %s, whoever writes it; nothing is stored", async (_name, line, message) => {
    const before = await countOf(w.companyId);
    const client = new pg.Client({ connectionString: h.connectionString });
    await client.connect();
    try {
      await client.query("begin");
      const { rows } = await client.query(
        `insert into journal_transactions (company_id, date, document_type, total, account_codes) values ($1, '2026-03-04', 'manual', 10, '{}') returning id`,
        [w.companyId],
      );
      await expect(
        client.query(
          `insert into journal_entries (company_id, transaction_id, line_no, date, account_code, debit, credit) values ($1, $2, 1, $3, $4, 10, 0), ($1, $2, 2, '2026-03-04', '3010', 0, 10)`,
          [w.companyId, rows[0].id, line.date, line.account],
        ),
      ).rejects.toThrow(message);
      await client.query("rollback");
    } finally {
      await client.end();
    }
    expect(await countOf(w.companyId)).toEqual(before);
  });

  test("a line naming a header that does not exist is refused; nothing is stored", async () => {
    const before = await countOf(w.companyId);
    await expect(
      h.db("journal_entries").insert([
        {
          company_id: w.companyId,
          transaction_id: "00000000-0000-4000-8000-000000000001",
          line_no: 1,
          date: "2026-03-04",
          account_code: "2710",
          debit: "1.00",
          credit: "0",
        },
        {
          company_id: w.companyId,
          transaction_id: "00000000-0000-4000-8000-000000000001",
          line_no: 2,
          date: "2026-03-04",
          account_code: "3010",
          debit: "0",
          credit: "1.00",
        },
      ]),
    ).rejects.toMatchObject({ code: "23514", constraint: "journal_entries_with_header" });
    expect(await countOf(w.companyId)).toEqual(before);
  });

  test("a header cannot claim another database transaction as the one that may add its lines", async () => {
    const before = await countOf(w.companyId);
    await expect(
      h
        .db("journal_transactions")
        .insert({ company_id: w.companyId, date: "2026-03-04", document_type: "manual", total: "1.00", account_codes: [], open_xid: "1" }),
    ).rejects.toMatchObject({ code: "23514", constraint: "journal_transactions_open_xid" });
    expect(await countOf(w.companyId)).toEqual(before);
  });

  /** A postable account of its own for a test, under 27 (cash). */
  async function freshAccount(code: string) {
    await w.api.ledger.accounts.create({ code, name: `Sąskaita ${code}`, type: "asset", parentCode: "271" });
  }

  test("an account with lines can be neither deleted nor re-coded, whoever writes it; one without lines can", async () => {
    await freshAccount("27151");
    await freshAccount("27152");
    await w.api.ledger.journal.transactions.create({ date: "2026-03-06", entries: pair("27151", "3010", "4.00") });
    for (const sql of [
      "delete from ledger_accounts where company_id = ? and code = '27151'",
      "update ledger_accounts set code = '27159' where company_id = ? and code = '27151'",
    ]) {
      await expect(h.db.raw(sql, [w.companyId])).rejects.toMatchObject({ code: "23503", constraint: "journal_entries_account_fkey" });
    }
    expect(await h.db("ledger_accounts").where({ company_id: w.companyId, code: "27151" }).first("name")).toEqual({ name: "Sąskaita 27151" });
    expect(await h.db("journal_entries").where({ company_id: w.companyId, account_code: "27151" }).count<{ n: string }[]>("* as n")).toEqual([{ n: "1" }]);
    // Renaming is not re-keying; an account without lines goes.
    await h.db.raw("update ledger_accounts set name = 'Pervadinta' where company_id = ? and code = '27151'", [w.companyId]);
    await h.db.raw("delete from ledger_accounts where company_id = ? and code = '27152'", [w.companyId]);
    expect(await h.db("ledger_accounts").where({ company_id: w.companyId }).whereIn("code", ["27151", "27152"]).pluck("name")).toEqual(["Pervadinta"]);
  });

  test("a delete of an account racing a posting to it: whichever locks first, the books never hold a line without its account", async () => {
    await freshAccount("27153");
    await freshAccount("27154");
    const client = new pg.Client({ connectionString: h.connectionString });
    const other = new pg.Client({ connectionString: h.connectionString });
    await Promise.all([client.connect(), other.connect()]);
    const postTo = async (account: string) => {
      const { rows } = await client.query(
        `insert into journal_transactions (company_id, date, document_type, total, account_codes) values ($1, '2026-03-04', 'manual', 3, $2) returning id`,
        [w.companyId, [account, "3010"]],
      );
      await client.query(
        `insert into journal_entries (company_id, transaction_id, line_no, date, account_code, debit, credit) values ($1, $2, 1, '2026-03-04', $3, 3, 0), ($1, $2, 2, '2026-03-04', '3010', 0, 3)`,
        [w.companyId, rows[0].id, account],
      );
      return rows[0].id as string;
    };
    try {
      // The posting first: the delete waits for it, then finds its line and is refused.
      await client.query("begin");
      const id = await postTo("27153");
      const deleting = other.query("delete from ledger_accounts where company_id = $1 and code = '27153'", [w.companyId]).then(
        () => null,
        (e: { code?: string; constraint?: string }) => e,
      );
      await waitForLockWaiters(h.db, { queryLike: "delete from ledger_accounts%", what: "the account's delete waiting on the posting" });
      await client.query("commit");
      expect(await deleting).toMatchObject({ code: "23503", constraint: "journal_entries_account_fkey" });
      expect(await entriesOf(w.companyId, id)).toHaveLength(2);
      expect(await h.db("ledger_accounts").where({ company_id: w.companyId, code: "27153" }).first()).toBeDefined();

      // The delete first: the posting waits for it, then finds no account and is refused.
      const before = await countOf(w.companyId);
      await other.query("begin");
      await other.query("delete from ledger_accounts where company_id = $1 and code = '27154'", [w.companyId]);
      await client.query("begin");
      const posting = postTo("27154").then(
        () => null,
        (e: { code?: string; constraint?: string }) => e,
      );
      await waitForLockWaiters(h.db, { queryLike: "%journal_entries%", what: "the posting's lines waiting on the account's delete" });
      await other.query("commit");
      expect(await posting).toMatchObject({ code: "23514", constraint: "journal_entries_postable_account" });
      await client.query("rollback");
      expect(await countOf(w.companyId)).toEqual(before);
      expect(await h.db("ledger_accounts").where({ company_id: w.companyId, code: "27154" }).first()).toBeUndefined();
    } finally {
      await Promise.all([client.end(), other.end()]);
    }
  });

  test("a header written in a savepoint takes its lines after the savepoint is released (one top-level transaction)", async () => {
    const before = await countOf(w.companyId);
    const id = await h.db.transaction(async (trx) => {
      const header = await trx.transaction(async (savepoint) => {
        const [row] = await savepoint("journal_transactions")
          .insert({ company_id: w.companyId, date: "2026-03-04", document_type: "manual", total: "7.00", account_codes: [] })
          .returning("id");
        return row.id as string;
      });
      await trx("journal_entries").insert([
        { company_id: w.companyId, transaction_id: header, line_no: 1, date: "2026-03-04", account_code: "2710", debit: "7.00", credit: "0" },
        { company_id: w.companyId, transaction_id: header, line_no: 2, date: "2026-03-04", account_code: "3010", debit: "0", credit: "7.00" },
      ]);
      return header;
    });
    expect(await countOf(w.companyId)).toEqual({ transactions: before.transactions + 1, entries: before.entries + 2 });
    expect(await entriesOf(w.companyId, id)).toHaveLength(2);
  });

  test("a header with balanced entries written in the same database transaction commits (the control)", async () => {
    const before = await countOf(w.companyId);
    const id = await writeDirectly([
      { account: "2710", debit: "10", credit: "0" },
      { account: "3010", debit: "0", credit: "10" },
    ]);
    expect(await countOf(w.companyId)).toEqual({ transactions: before.transactions + 1, entries: before.entries + 2 });
    expect(await w.api.ledger.journal.transactions.get({ id })).toMatchObject({ total: "10.00" });
  });

  test("the contract has no update or delete operation for journal transactions", async () => {
    const res = await h.get("/openapi.json");
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { paths: Record<string, unknown> };
    const journalPaths = Object.keys(doc.paths).filter((p) => p.startsWith("/v1/ledger/journal/"));
    expect(journalPaths.sort()).toEqual([
      "/v1/ledger/journal/transactions/create",
      "/v1/ledger/journal/transactions/get",
      "/v1/ledger/journal/transactions/list",
      "/v1/ledger/journal/transactions/reverse",
    ]);
    expect(Object.keys(doc.paths).filter((p) => p.includes("journal") && /update|delete|edit|remove/.test(p))).toEqual([]);
  });
});
