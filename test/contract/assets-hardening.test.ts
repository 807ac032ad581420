// Issue 22 (defects 3 and 13) and issue 28 for fixed assets, each read back from the ledger and the tables:
//  - a month after the current month in Vilnius is refused; the last posted month can be reversed while its period is
//    open (the journal reversed, the cards back, the run kept and marked reversed, the month posted again), also a
//    month far ahead posted before the bound existed, which otherwise stopped every real month for good;
//  - an asset whose one month would reach what a journal transaction may carry is refused; a month above that bound
//    posts several transactions, so no asset blocks the others; a journal refusal of the run names the group;
//  - assets/assets/dispose takes `id`, and still `assetId` (deprecated), exactly one of them.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { Decimal } from "decimal.js";
import { startHarness, type Harness } from "../support/harness.js";
import { expectApiError, invalid } from "../support/expect.js";
import { withTransaction } from "../../src/db/transaction.js";
import { postMonth } from "../../src/assets/depreciation.js";
import { loadDocument } from "../../src/http/openapi.js";
import type { AccountingApi } from "../../sdk/typescript/src/index.js";

let h: Harness;
// Compiling the contract's validators takes the server tens of seconds on a loaded machine: the hook gets 3 minutes.
beforeAll(async () => {
  h = await startHarness();
}, 180_000);
afterAll(() => h.close());

const MAX = "999999999999999.99";

interface World {
  companyId: string;
  keyId: string;
  apiKey: string;
  api: AccountingApi;
}

/** A tenant with the lt-standard chart, group VANS (1230/1237, expense 6206) and group PC (1240/1247, expense 6306). */
async function world(): Promise<World> {
  const t = await h.tenant();
  await t.api.ledger.accounts.applyTemplate({ template: "lt-standard" });
  await t.api.assets.groups.create({ code: "VANS", name: "Furgonai", assetAccountCode: "1230", depreciationAccountCode: "1237", defaultUsefulLifeMonths: 36 });
  await t.api.assets.groups.create({
    code: "PC",
    name: "Kompiuteriai",
    assetAccountCode: "1240",
    depreciationAccountCode: "1247",
    expenseAccountCode: "6306",
    defaultUsefulLifeMonths: 24,
  });
  return { companyId: t.companyId, keyId: t.keyId, apiKey: t.apiKey, api: t.api };
}

let seq = 0;
type CreateBody = Parameters<AccountingApi["assets"]["assets"]["create"]>[0];
const asset = (w: World, over: Partial<CreateBody> = {}) =>
  w.api.assets.assets.create({
    code: `A-${++seq}`,
    name: "Ford Transit",
    groupCode: "VANS",
    acquisitionDate: "2026-01-10",
    acquisitionCost: "1000.00",
    usefulLifeMonths: 3,
    ...over,
  });

const entries = async (transactionId: string) =>
  (await h.db("journal_entries").where({ transaction_id: transactionId }).orderBy("line_no")).map((e) => [
    e.account_code,
    new Decimal(e.debit).toFixed(2),
    new Decimal(e.credit).toFixed(2),
  ]);
/** The cards as stored, without the time they last changed. */
const cards = async (w: World) => (await h.db("fixed_assets").where({ company_id: w.companyId }).orderBy("code")).map(({ updated_at: _u, ...row }) => row);
const runs = (w: World) => h.db("asset_depreciation_runs").where({ company_id: w.companyId }).orderBy(["month", "run_no"]);
const runTransactions = (w: World) => h.db("asset_depreciation_run_transactions").where({ company_id: w.companyId }).orderBy(["month", "run_no", "part"]);
const journal = (w: World) => h.db("journal_transactions").where({ company_id: w.companyId }).orderBy(["created_at", "id"]);
/** Everything a run or a reversal writes. */
const stored = async (w: World) => ({
  cards: await cards(w),
  runs: await runs(w),
  runTransactions: await runTransactions(w),
  lines: await h.db("asset_depreciation_lines").where({ company_id: w.companyId }).orderBy(["month", "run_no", "asset_id"]),
  journal: await journal(w),
  events: await h.db("webhook_events").where({ company_id: w.companyId }).orderBy("seq").pluck("event_type"),
});
/** The balance (debit − credit) of an account in the company's journal. */
const balance = async (w: World, accountCode: string) =>
  new Decimal(
    (await h.db("journal_entries").where({ company_id: w.companyId, account_code: accountCode }).first(h.db.raw("coalesce(sum(debit - credit), 0)::text as b")))
      .b,
  ).toFixed(2);
const vilniusMonth = async () => (await h.db.raw("select to_char(now() at time zone 'Europe/Vilnius', 'YYYY-MM') as m")).rows[0].m as string;
const monthAfter = (month: string) => {
  const [y, m] = month.split("-").map(Number);
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, "0")}`;
};

describe("issue 22, defect 3: no month after the current one; the last posted month can be reversed", () => {
  test("a month after the current month in Vilnius -> 422 naming month, nothing stored; the current month posts", async () => {
    const w = await world();
    await asset(w);
    const current = await vilniusMonth();
    const before = await stored(w);
    for (const month of [monthAfter(current), "2099-12", "2100-12"]) {
      const error = await expectApiError(w.api.assets.depreciation.post({ month }), 422, "unprocessable", "depreciation.month_in_future");
      expect(Object.keys(error.fieldErrors ?? {})).toEqual(["month"]);
      expect(error.params).toEqual({ month, currentMonth: current });
      expect(await stored(w)).toEqual(before);
    }
    const posted = await w.api.assets.depreciation.post({ month: current });
    expect(posted).toMatchObject({ month: current, posted: true });
    expect((await runs(w)).map((r) => [r.month, r.run_no, r.reversed_at])).toEqual([[`${current}-01`, 1, null]]);
  });

  test("reverse: the journal reversed, the cards as before the month, the run kept and marked reversed; the month posts again", async () => {
    const w = await world();
    // 1000.00 over 3 months; 600.00 over 2 months (fully depreciated by March); an imported asset whose figures count
    // up to January 2026 (its first run is February); a computer in group PC.
    await asset(w);
    await asset(w, { acquisitionCost: "600.00", usefulLifeMonths: 2 });
    await asset(w, {
      acquisitionDate: "2024-01-10",
      acquisitionCost: "1200.00",
      usefulLifeMonths: 36,
      accumulatedDepreciation: "800.00",
      depreciatedMonths: 24,
    });
    await asset(w, { groupCode: "PC", acquisitionCost: "480.00", usefulLifeMonths: 24 });
    const created = await cards(w);
    const february = await w.api.assets.depreciation.post({ month: "2026-02" });
    const afterFebruary = await cards(w);
    const march = await w.api.assets.depreciation.post({ month: "2026-03" });
    expect(march).toMatchObject({ assetCount: 4, total: "686.66", journalTransactionIds: [march.journalTransactionId] });
    expect((await cards(w)).map((c) => c.status)).toEqual(["active", "fully_depreciated", "active", "active"]);

    const { data: reversed, response } = await w.api.assets.depreciation.reverse.withResponse({ month: "2026-03" });
    expect(reversed).toEqual({
      month: "2026-03",
      run: march,
      reversalTransactionIds: [expect.any(String)],
      reversedAt: expect.any(String),
      lastPostedMonth: "2026-02",
    });
    // The journal: the month's transaction stays, and its exact opposite is posted on the same date.
    const [reversal] = await h.db("journal_transactions").where({ id: reversed.reversalTransactionIds[0] });
    expect(reversal).toMatchObject({ company_id: w.companyId, document_type: "reversal", reverses_id: march.journalTransactionId, date: "2026-03-31" });
    expect(await entries(reversal.id)).toEqual((await entries(march.journalTransactionId!)).map(([account, debit, credit]) => [account, credit, debit]));
    expect(await balance(w, "1237")).toBe(new Decimal(february.groups.find((g) => g.groupCode === "VANS")!.amount).negated().toFixed(2));
    // The cards: exactly as February left them (the fully depreciated one active again).
    expect(await cards(w)).toEqual(afterFebruary);
    // The run: kept with its lines, marked reversed by this key; its transaction names its reversal.
    const [, marchRun] = await runs(w);
    expect(marchRun).toMatchObject({ run_no: 1, asset_count: 4, total: "686.66", reversed_by_key_id: w.keyId });
    expect(new Date(marchRun.reversed_at).toISOString()).toBe(reversed.reversedAt);
    expect((await runTransactions(w)).map((t) => [t.month.slice(0, 7), t.run_no, t.part, t.journal_transaction_id, t.reversal_transaction_id])).toEqual([
      ["2026-02", 1, 1, february.journalTransactionId, null],
      ["2026-03", 1, 1, march.journalTransactionId, reversal.id],
    ]);
    expect(await h.db("asset_depreciation_lines").where({ company_id: w.companyId, month: "2026-03-01" })).toHaveLength(4);
    // Announced and audited.
    const events = await h.db("webhook_events").where({ company_id: w.companyId, event_type: "assets.depreciation_reversed" });
    expect(events.map((e) => e.data)).toEqual([reversed]);
    expect(await h.db("webhook_events").where({ company_id: w.companyId, event_type: "journal_transaction.reversed" })).toHaveLength(1);
    const audit = await h
      .db("audit_log")
      .where({ company_id: w.companyId, request_id: response.headers.get("x-request-id") })
      .first();
    expect(audit).toMatchObject({ operation: "assets.depreciation.reverse", summary: { month: "2026-03" } });
    // The month's preview is what posting it now would do, and posting it again does that (run 2).
    const preview = await w.api.assets.depreciation.preview({ month: "2026-03" });
    expect(preview).toMatchObject({ posted: false, journalTransactionIds: [], assetCount: 4, total: "686.66" });
    const again = await w.api.assets.depreciation.post({ month: "2026-03" });
    expect(again).toMatchObject({ month: "2026-03", assetCount: 4, total: "686.66", groups: march.groups });
    expect(again.journalTransactionId).not.toBe(march.journalTransactionId);
    expect(await entries(again.journalTransactionId!)).toEqual(await entries(march.journalTransactionId!));
    expect((await runs(w)).map((r) => [r.run_no, r.reversed_at === null])).toEqual([
      [1, true],
      [1, false],
      [2, true],
    ]);
    expect(await w.api.assets.depreciation.preview({ month: "2026-03" })).toMatchObject({ posted: true, journalTransactionId: again.journalTransactionId });

    // Back to before the first month: March (run 2), then February; the cards are as created, and February posts again.
    await w.api.assets.depreciation.reverse({ month: "2026-03" });
    expect((await w.api.assets.depreciation.reverse({ month: "2026-02" })).lastPostedMonth).toBeNull();
    expect(await cards(w)).toEqual(created);
    for (const account of ["1237", "1247", "6206", "6306"]) expect(await balance(w, account)).toBe("0.00");
    expect(await w.api.assets.depreciation.post({ month: "2026-02" })).toMatchObject({ total: february.total, groups: february.groups });
  });

  test("a month far ahead posted before the bound (2099-12) stopped every real month; reversing it frees them", async () => {
    const w = await world();
    await asset(w, { acquisitionCost: "1200.00", usefulLifeMonths: 12 });
    const created = await cards(w);
    // What the service did before the month bound: posted 2099-12 (every asset's first month, as the company's first).
    const legacy = await withTransaction(h.db, (trx) => postMonth(trx, w.companyId, w.keyId, "2099-12"));
    expect(legacy).toMatchObject({ month: "2099-12", assetCount: 1, total: "100.00" });
    const blocked = await expectApiError(w.api.assets.depreciation.post({ month: "2026-02" }), 409, "conflict", "depreciation.out_of_order");
    expect(blocked.params).toEqual({ month: "2026-02", lastPostedMonth: "2099-12", expectedMonth: "2100-01" });

    const reversed = await w.api.assets.depreciation.reverse({ month: "2099-12" });
    expect(reversed).toMatchObject({ month: "2099-12", lastPostedMonth: null, run: { journalTransactionIds: [legacy.journalTransactionId] } });
    expect(await cards(w)).toEqual(created);
    expect(await h.db("journal_transactions").where({ id: reversed.reversalTransactionIds[0] }).first()).toMatchObject({
      reverses_id: legacy.journalTransactionId,
      date: "2099-12-31",
    });
    expect(await balance(w, "1237")).toBe("0.00");
    expect(await w.api.assets.depreciation.post({ month: "2026-02" })).toMatchObject({ month: "2026-02", assetCount: 1, total: "100.00" });
    expect(await h.db("fixed_assets").where({ company_id: w.companyId }).first("last_depreciated_month", "depreciated_months")).toMatchObject({
      depreciated_months: 1,
    });
  });

  // February and March posted (unless `posted` says otherwise) for a 1200.00 asset over 12 months (100.00 a month).
  test.each([
    { name: "a month never posted", month: "2026-04", key: "depreciation.not_posted", params: { month: "2026-04", lastPostedMonth: "2026-03" } },
    {
      name: "a month before the last posted one",
      month: "2026-02",
      key: "depreciation.later_month_posted",
      params: { month: "2026-02", lastPostedMonth: "2026-03" },
    },
    { name: "a month in a locked period", month: "2026-03", lock: "2026-03", key: "period.locked", params: { month: "2026-03" } },
    // Nothing reached the journal (the asset starts in February), so no reversal posting would meet the lock.
    {
      name: "a month that posted nothing, in a locked period",
      posted: ["2026-01"],
      month: "2026-01",
      lock: "2026-01",
      key: "period.locked",
      params: { month: "2026-01" },
    },
    { name: "a month whose asset was disposed of since", month: "2026-03", dispose: "2026-04-10", key: "depreciation.asset_disposed" },
  ])(
    "reverse $name -> 409 $key, nothing changes",
    async ({
      posted,
      month,
      lock,
      dispose,
      key,
      params,
    }: {
      posted?: string[];
      month: string;
      lock?: string;
      dispose?: string;
      key: string;
      params?: Record<string, unknown>;
    }) => {
      const w = await world();
      const a = await asset(w, { acquisitionCost: "1200.00", usefulLifeMonths: 12 });
      for (const m of posted ?? ["2026-02", "2026-03"]) await w.api.assets.depreciation.post({ month: m });
      if (lock) await w.api.ledger.periods.lock({ month: lock });
      if (dispose) await w.api.assets.assets.dispose({ id: a.id, date: dispose, proceeds: "1000.00", accountCode: "2710" });
      const before = await stored(w);
      const error = await expectApiError(w.api.assets.depreciation.reverse({ month }), 409, "conflict", key);
      expect(error.params).toEqual(params ?? { month, assetCount: 1, assets: [{ id: a.id, code: a.code, disposalDate: dispose }] });
      expect(await stored(w)).toEqual(before);
    },
  );

  test("reverse with nothing ever posted -> 409 depreciation.not_posted naming no last month", async () => {
    const w = await world();
    await asset(w);
    const error = await expectApiError(w.api.assets.depreciation.reverse({ month: "2026-02" }), 409, "conflict", "depreciation.not_posted");
    expect(error.params).toEqual({ month: "2026-02", lastPostedMonth: null });
    expect(await runs(w)).toHaveLength(0);
  });

  test("reverse is idempotent: a retry with the same Idempotency-Key replays the answer and reverses nothing more", async () => {
    const w = await world();
    await asset(w);
    await w.api.assets.depreciation.post({ month: "2026-02" });
    const options = { idempotencyKey: `reverse-${w.companyId}` };
    const first = await w.api.assets.depreciation.reverse.withResponse({ month: "2026-02" }, options);
    const after = await stored(w);
    const replay = await w.api.assets.depreciation.reverse.withResponse({ month: "2026-02" }, options);
    expect(replay.response.headers.get("x-idempotent-replay")).toBe("true");
    expect(replay.data).toEqual(first.data);
    expect(await stored(w)).toEqual(after);
    expect(after.journal.map((t) => t.document_type)).toEqual(["depreciation", "reversal"]);
  });

  test("the database refuses a run changed other than by its reversal, and a reversal that reverses nothing", async () => {
    const w = await world();
    await asset(w);
    const run = await w.api.assets.depreciation.post({ month: "2026-02" });
    const where = { company_id: w.companyId, month: "2026-02-01" };
    await expect(h.db("asset_depreciation_runs").where(where).update({ reversed_at: h.db.fn.now() })).rejects.toThrow(
      /while a transaction of it is not reversed/,
    );
    await expect(h.db("asset_depreciation_run_transactions").where(where).update({ reversal_transaction_id: run.journalTransactionId })).rejects.toThrow(
      /does not reverse/,
    );
    await expect(h.db("asset_depreciation_run_transactions").where(where).delete()).rejects.toThrow(/cannot be changed or deleted/);
    await expect(h.db("asset_depreciation_runs").where(where).update({ total: "1.00" })).rejects.toThrow(/cannot be changed or deleted/);
    await expect(h.db("asset_depreciation_runs").insert({ company_id: w.companyId, month: "2026-02-01", run_no: 2, asset_count: 0, total: 0 })).rejects.toThrow(
      /asset_depreciation_runs_live_key/,
    );
    await w.api.assets.depreciation.reverse({ month: "2026-02" });
    await expect(h.db("asset_depreciation_runs").where(where).update({ reversed_at: null })).rejects.toThrow(/cannot be changed or deleted/);
  });
});

describe("issue 22, defect 13: no asset blocks a month", () => {
  test.each([
    { name: "the whole cost at the bound in one month", body: { acquisitionCost: MAX, usefulLifeMonths: 1 }, status: 422 },
    {
      name: "imported with one month left and nothing depreciated",
      body: { acquisitionCost: MAX, usefulLifeMonths: 12, accumulatedDepreciation: "0", depreciatedMonths: 11 },
      status: 422,
    },
    { name: "a cent below the bound in one month", body: { acquisitionCost: "999999999999999.98", usefulLifeMonths: 1 }, status: 200 },
    { name: "the bound over two months", body: { acquisitionCost: MAX, usefulLifeMonths: 2 }, status: 200 },
  ])("create $name -> $status", async ({ body, status }) => {
    const w = await world();
    if (status === 200) {
      expect(await asset(w, body)).toMatchObject({ acquisitionCost: body.acquisitionCost, status: "active" });
      return;
    }
    const error = await expectApiError(asset(w, body), 422, "unprocessable", "fixed_asset.monthly_charge_too_large");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["usefulLifeMonths"]);
    expect(await cards(w)).toEqual([]);
  });

  test("update to one month at the bound -> 422, the asset unchanged", async () => {
    const w = await world();
    const a = await asset(w, { acquisitionCost: MAX, usefulLifeMonths: 2 });
    const before = await cards(w);
    await expectApiError(w.api.assets.assets.update({ id: a.id, usefulLifeMonths: 1 }), 422, "unprocessable", "fixed_asset.monthly_charge_too_large");
    expect(await cards(w)).toEqual(before);
  });

  test("a month above what one transaction may carry posts several, each within the bound; reversing it reverses each", async () => {
    const w = await world();
    // VANS: 999,999,999,999,999.98 in one month and 100.00; PC: 999,999,999,999,999.99 over two months.
    await asset(w, { acquisitionCost: "999999999999999.98", usefulLifeMonths: 1 });
    await asset(w, { acquisitionCost: "1000.00", usefulLifeMonths: 10 });
    await asset(w, { groupCode: "PC", acquisitionCost: MAX, usefulLifeMonths: 2 });
    const created = await cards(w);
    const run = await w.api.assets.depreciation.post({ month: "2026-02" });
    expect(run).toMatchObject({
      assetCount: 3,
      total: "1500000000000099.97",
      groups: [
        { groupCode: "PC", amount: "499999999999999.99" },
        { groupCode: "VANS", amount: "1000000000000099.98" },
      ],
    });
    // PC's month and as much of VANS as fits make the first transaction exactly the bound; the rest of VANS the second.
    expect(run.journalTransactionIds).toHaveLength(2);
    expect(run.journalTransactionId).toBe(run.journalTransactionIds[0]);
    expect(await entries(run.journalTransactionIds[0])).toEqual([
      ["6306", "499999999999999.99", "0.00"],
      ["1247", "0.00", "499999999999999.99"],
      ["6206", "500000000000000.00", "0.00"],
      ["1237", "0.00", "500000000000000.00"],
    ]);
    expect(await entries(run.journalTransactionIds[1])).toEqual([
      ["6206", "500000000000099.98", "0.00"],
      ["1237", "0.00", "500000000000099.98"],
    ]);
    const transactions = await h.db("journal_transactions").whereIn("id", run.journalTransactionIds).orderBy("description");
    expect(transactions.map((t) => [t.document_type, t.date, t.total, t.description])).toEqual([
      ["depreciation", "2026-02-28", MAX, "Depreciation of fixed assets, 2026-02 (part 1 of 2)"],
      ["depreciation", "2026-02-28", "500000000000099.98", "Depreciation of fixed assets, 2026-02 (part 2 of 2)"],
    ]);
    expect((await runTransactions(w)).map((t) => [t.part, t.journal_transaction_id])).toEqual(run.journalTransactionIds.map((id, i) => [i + 1, id]));
    expect((await runs(w))[0].total).toBe("1500000000000099.97");
    expect((await cards(w)).map((c) => [c.status, c.accumulated_depreciation])).toEqual([
      ["fully_depreciated", "999999999999999.98"],
      ["active", "100.00"],
      ["active", "499999999999999.99"],
    ]);
    expect(await w.api.assets.depreciation.preview({ month: "2026-02" })).toMatchObject({ posted: true, journalTransactionIds: run.journalTransactionIds });

    const reversed = await w.api.assets.depreciation.reverse({ month: "2026-02" });
    expect(reversed.reversalTransactionIds).toHaveLength(2);
    expect(await h.db("journal_transactions").whereIn("id", reversed.reversalTransactionIds).orderBy("total").pluck("reverses_id")).toEqual([
      run.journalTransactionIds[1],
      run.journalTransactionIds[0],
    ]);
    expect(await cards(w)).toEqual(created);
    for (const account of ["1237", "1247", "6206", "6306"]) expect(await balance(w, account)).toBe("0.00");
  });

  test("1,001 assets each a cent below the bound in one month: the month (above 10^18) is recorded and posted in 1,001 transactions, 1,000 of them at the bound", async () => {
    const w = await world();
    // Seeded in SQL (1,001 creates through the API would take minutes): what create accepts, at its largest.
    await h.db.raw(
      `insert into fixed_assets (company_id, code, name, group_code, acquisition_date, put_into_use_date, depreciation_start_date, acquisition_cost, useful_life_months)
       select ?::uuid, 'B' || g, 'B' || g, 'VANS', '2026-01-05', '2026-01-05', '2026-02-01', 999999999999999.98, 1 from generate_series(1, 1001) g`,
      [w.companyId],
    );
    const run = await w.api.assets.depreciation.post({ month: "2026-02" });
    const total = new Decimal("999999999999999.98").times(1001);
    expect(run).toMatchObject({ assetCount: 1001, total: total.toFixed(2), groups: [{ groupCode: "VANS", amount: total.toFixed(2) }] });
    // 1,001 × (MAX − 0.01) = 1,001 × MAX − 10.01: a thousand transactions of MAX and one of MAX − 10.01.
    expect(run.journalTransactionIds).toHaveLength(1001);
    const totals = await h
      .db("journal_transactions")
      .whereIn("id", run.journalTransactionIds)
      .select(h.db.raw("total::text as total, count(*)::int as n"))
      .groupBy("total")
      .orderBy("total");
    expect(totals).toEqual([
      { total: "999999999999989.98", n: 1 },
      { total: MAX, n: 1000 },
    ]);
    expect(await balance(w, "1237")).toBe(total.negated().toFixed(2));
    expect(await h.db("fixed_assets").where({ company_id: w.companyId, status: "fully_depreciated" }).count("* as n").first()).toEqual({ n: "1001" });
    // 1,001 postings in one request: about 20 s on the 2-core development machine under load, so 3 minutes.
  }, 180_000);

  test("a books import refuses an asset of the bound in one month, as create does; one a cent below with another asset posts in two transactions", async () => {
    const w = await world();
    const huge = (cost: string) => ({
      groupCode: "VANS",
      code: "HUGE",
      name: "At the bound",
      acquisitionDate: "2026-01-10",
      acquisitionCost: cost,
      usefulLifeMonths: 1,
    });
    const van = { groupCode: "VANS", code: "VAN", name: "Ford Transit", acquisitionDate: "2026-01-10", acquisitionCost: "1200.00", usefulLifeMonths: 12 };
    const refused = await expectApiError(
      w.api.migration.books.import({ cutoverDate: "2026-02-01", fixedAssets: [huge(MAX), van] }),
      422,
      "unprocessable",
      "migration.rows_rejected",
    );
    expect(Object.keys(refused.fieldErrors ?? {})).toEqual(["fixedAssets[0].usefulLifeMonths"]);
    expect(await h.db("fixed_assets").where({ company_id: w.companyId }).pluck("code")).toEqual([]);
    const below = "999999999999999.98";
    const imported = await w.api.migration.books.import({ cutoverDate: "2026-02-01", fixedAssets: [huge(below), van] });
    expect(imported.fixedAssets).toMatchObject({ created: 2 });
    const run = await w.api.assets.depreciation.post({ month: "2026-02" });
    expect(run).toMatchObject({ assetCount: 2, total: "1000000000000099.98" });
    // One group's month of 1,000,000,000,000,099.98: the first transaction carries the bound, the second the rest.
    expect(await Promise.all(run.journalTransactionIds.map(entries))).toEqual([
      [
        ["6206", MAX, "0.00"],
        ["1237", "0.00", MAX],
      ],
      [
        ["6206", "99.99", "0.00"],
        ["1237", "0.00", "99.99"],
      ],
    ]);
  });

  test("a group whose expense account no longer takes postings: 422 journal.lines_rejected naming the group, nothing stored", async () => {
    const w = await world();
    await asset(w);
    await asset(w, { groupCode: "PC", acquisitionCost: "480.00", usefulLifeMonths: 24 });
    await w.api.ledger.accounts.update({ code: "6306", isPostable: false });
    const before = await stored(w);
    const error = await expectApiError(w.api.assets.depreciation.post({ month: "2026-02" }), 422, "unprocessable", "journal.lines_rejected");
    expect(error.params).toEqual({ month: "2026-02", groupCodes: ["PC"] });
    expect(error.message).toContain("asset group PC: account 6306 is not postable");
    expect(await stored(w)).toEqual(before);
  });
});

describe("issue 28: assets/assets/dispose takes id (assetId deprecated)", () => {
  test("the contract marks assetId deprecated and documents id", () => {
    const schema = (loadDocument() as any).components.schemas["Assets.FixedAssetDisposeRequest"];
    expect(schema.required).toEqual(["date"]);
    expect(schema.properties.assetId.deprecated).toBe(true);
    expect(schema.properties.id.deprecated).toBeUndefined();
  });

  test.each([
    { name: "id", body: (id: string) => ({ id }), status: 200 },
    { name: "assetId (deprecated) still works", body: (id: string) => ({ assetId: id }), status: 200 },
    { name: "both id and assetId", body: (id: string) => ({ id, assetId: id }), status: 400, field: "assetId" },
    { name: "neither", body: () => ({}), status: 400, field: "id" },
  ])("$name -> $status", async ({ body, status, field }: { body: (id: string) => Record<string, string>; status: number; field?: string }) => {
    const w = await world();
    const a = await asset(w);
    const request = { ...body(a.id), date: "2026-01-20" };
    if (status === 200) {
      const disposed = await w.api.assets.assets.dispose(request);
      expect(disposed).toMatchObject({ id: a.id, status: "disposed", disposal: { date: "2026-01-20" } });
      expect(await h.db("fixed_assets").where({ id: a.id }).first("status", "disposal_transaction_id")).toEqual({
        status: "disposed",
        disposal_transaction_id: disposed.disposal!.journalTransactionId,
      });
      return;
    }
    const before = await stored(w);
    const error = await expectApiError(w.api.assets.assets.dispose(invalid(request)), 400, "validation", "request.invalid");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual([field]);
    expect(await stored(w)).toEqual(before);
  });
});
