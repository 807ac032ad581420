// assets/*: asset groups and their accounts, asset cards (with depreciation to date), the monthly straight-line run
// exact to the cent (odd cents, salvage, mid-month acquisition, an imported asset continuing and never depreciated
// again for the months its figures count), its ordering and locking rules (two posts of a month, a disposal racing a
// run, both held on the company's lock), disposal with a gain and a loss, tenancy, scopes and validation — each read
// back from the ledger and the tables, not only from the answers.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { Decimal } from "decimal.js";
import { startHarness, type Harness } from "../support/harness.js";
import { expectApiError, invalid, settle, type Settled } from "../support/expect.js";
import { world, type World } from "../support/world.js";
import { keyWith, type Scope } from "../support/keys.js";
import { waitForLockWaiters } from "../support/db-waits.js";
import { lockCompanyAssets } from "../../src/assets/locks.js";
import type { AccountingApi, ResponseData } from "../../sdk/typescript/src/index.js";

let h: Harness;
// Compiling the contract's validators takes the server tens of seconds on a loaded machine: the hook gets 3 minutes.
beforeAll(async () => {
  h = await startHarness();
}, 180_000);
afterAll(() => h.close());

type Asset = ResponseData<"assets_assets_get">;
type Run = ResponseData<"assets_depreciation_post">;

/** A tenant with the lt-standard chart and a group VANS (vehicles: 1230 cost, 1237 accumulated, 36 months). */
const assetsWorld = () =>
  world(h, { assetGroups: [{ code: "VANS", name: "Furgonai", assetAccountCode: "1230", depreciationAccountCode: "1237", defaultUsefulLifeMonths: 36 }] });

/**
 * Sends the requests one after another while the test holds the company's assets lock (src/assets/locks.ts), each
 * only once the one before is waiting on it, then lets go: they are all in flight together, and PostgreSQL grants
 * the lock to its waiters in the order they queued. Returns the answers in the order sent.
 */
async function racing(w: World, requests: (() => Promise<unknown>)[]): Promise<Settled<unknown>[]> {
  const sent = await h.db.transaction(async (trx) => {
    await lockCompanyAssets(trx, w.companyId);
    const { rows } = await trx.raw("select pg_backend_pid() as pid");
    const inFlight: Promise<Settled<unknown>>[] = [];
    for (const request of requests) {
      inFlight.push(settle(request()));
      await waitForLockWaiters(h.db, {
        count: inFlight.length,
        waitEvent: "advisory",
        excludePid: rows[0].pid,
        what: `request ${inFlight.length} waiting on the company's assets lock`,
      });
    }
    return { inFlight };
  });
  return Promise.all(sent.inFlight);
}

let assetSeq = 0;
const asset = (w: World, over: Record<string, unknown> = {}) =>
  w.api.assets.assets.create({
    code: `A-${++assetSeq}`,
    name: "Ford Transit",
    groupCode: "VANS",
    acquisitionDate: "2026-01-10",
    acquisitionCost: "1000.00",
    usefulLifeMonths: 3,
    ...over,
  });

const journal = async (w: World, transactionId: string | null) =>
  (await h.db("journal_entries").where({ company_id: w.companyId, transaction_id: transactionId }).orderBy("line_no")).map((e) => [
    e.account_code,
    new Decimal(e.debit).toFixed(2),
    new Decimal(e.credit).toFixed(2),
  ]);
const storedAsset = (w: World, id: string) => h.db("fixed_assets").where({ company_id: w.companyId, id }).first();
const runs = (w: World) => h.db("asset_depreciation_runs").where({ company_id: w.companyId }).orderBy("month");
const lines = (w: World) => h.db("asset_depreciation_lines").where({ company_id: w.companyId }).orderBy(["month", "asset_id"]);
const months = (first: string, count: number) =>
  Array.from({ length: count }, (_, i) => {
    const [y, m] = first.split("-").map(Number);
    const d = new Date(Date.UTC(y, m - 1 + i, 1));
    return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
  });

describe("asset groups", () => {
  test("create: the expense account defaults through the assets.depreciationExpense rule; get, list, update", async () => {
    const w = await assetsWorld();
    const vans = (await w.api.assets.groups.list({ filter: [{ field: "code", op: "eq", value: "VANS" }] })).rows[0];
    expect(vans).toMatchObject({
      code: "VANS",
      assetAccountCode: "1230",
      depreciationAccountCode: "1237",
      expenseAccountCode: "6206",
      defaultUsefulLifeMonths: 36,
      assetCount: 0,
    });
    await w.api.ledger.postingRules.update({ rule: "assets.depreciationExpense", accountCode: "6306" });
    const pcs = await w.api.assets.groups.create({
      code: "PC",
      name: "Kompiuteriai",
      assetAccountCode: "1240",
      depreciationAccountCode: "1247",
      defaultUsefulLifeMonths: 24,
    });
    expect(pcs.expenseAccountCode).toBe("6306");
    const explicit = await w.api.assets.groups.create({
      code: "BLD",
      name: "Pastatai",
      assetAccountCode: "1210",
      depreciationAccountCode: "1217",
      expenseAccountCode: "6206",
      defaultUsefulLifeMonths: 240,
    });
    expect(await w.api.assets.groups.get({ id: explicit.id })).toEqual(explicit);
    expect(await h.db("asset_groups").where({ company_id: w.companyId }).orderBy("code").pluck("expense_account_code")).toEqual(["6206", "6306", "6206"]);

    const list = await w.api.assets.groups.list({ sort: [{ field: "defaultUsefulLifeMonths", dir: "desc" }] });
    expect(list.rows.map((g: any) => g.code)).toEqual(["BLD", "VANS", "PC"]);
    expect(list.total).toBe(3);
    expect((await w.api.assets.groups.list({ filter: [{ field: "defaultUsefulLifeMonths", op: "lte", value: 36 }] })).rows.map((g: any) => g.code)).toEqual([
      "PC",
      "VANS",
    ]);

    const renamed = await w.api.assets.groups.update({
      id: pcs.id,
      name: "IT įranga",
      defaultUsefulLifeMonths: 36,
      assetAccountCode: "1220",
      depreciationAccountCode: "1227",
    });
    expect(renamed).toMatchObject({
      name: "IT įranga",
      defaultUsefulLifeMonths: 36,
      assetAccountCode: "1220",
      depreciationAccountCode: "1227",
      expenseAccountCode: "6306",
    });
    await asset(w, { groupCode: "PC" });
    await expectApiError(w.api.assets.groups.update({ id: pcs.id, assetAccountCode: "1240" }), 409, "conflict", "asset_group.in_use");
    expect(await w.api.assets.groups.update({ id: pcs.id, expenseAccountCode: "6206" })).toMatchObject({
      assetAccountCode: "1220",
      expenseAccountCode: "6206",
      assetCount: 1,
    });
    await expectApiError(
      w.api.assets.groups.create({ code: "VANS", name: "x", assetAccountCode: "1230", depreciationAccountCode: "1237", defaultUsefulLifeMonths: 1 }),
      409,
      "conflict",
      "asset_group.code_taken",
    );
    await expectApiError(w.api.assets.groups.get({ id: "00000000-0000-4000-8000-000000000000" }), 404, "not_found", "asset_group.not_found");
  });

  test.each([
    ["an account that does not exist", { assetAccountCode: "1999" }, "assetAccountCode"],
    ["a header account", { assetAccountCode: "123" }, "assetAccountCode"],
    ["an expense account as the cost account", { assetAccountCode: "6206" }, "assetAccountCode"],
    ["a liability as the accumulated-depreciation account", { depreciationAccountCode: "4430" }, "depreciationAccountCode"],
    ["an asset account as the expense account", { expenseAccountCode: "2710" }, "expenseAccountCode"],
    ["the same cost and accumulated-depreciation account", { depreciationAccountCode: "1230" }, "depreciationAccountCode"],
  ])("%s -> 422 naming the field, nothing stored", async (_name, over, field) => {
    const w = await assetsWorld();
    const error = await expectApiError(
      w.api.assets.groups.create({
        code: "X",
        name: "X",
        assetAccountCode: "1230",
        depreciationAccountCode: "1237",
        defaultUsefulLifeMonths: 12,
        ...over,
      }),
      422,
      "unprocessable",
      "asset_group.account_invalid",
    );
    expect(Object.keys(error.fieldErrors ?? {})).toEqual([field]);
    expect(await h.db("asset_groups").where({ company_id: w.companyId, code: "X" })).toHaveLength(0);
  });
});

describe("fixed assets", () => {
  test("create: useful life from the group, put into use on acquisition, depreciation from the next month; nothing posted", async () => {
    const w = await assetsWorld();
    const tx = await w.api.ledger.journal.transactions.create({
      date: "2026-01-31",
      entries: [
        { accountCode: "1230", debit: "24000.00" },
        { accountCode: "4430", credit: "24000.00" },
      ],
    });
    const van = await w.api.assets.assets.create({
      code: "V-1",
      name: "Ford Transit",
      description: "LT ABC123",
      groupCode: "VANS",
      acquisitionDate: "2026-01-31",
      acquisitionCost: "24000",
      salvageValue: "1200",
      sourceTransactionId: tx.id,
    });
    expect(van).toMatchObject({
      code: "V-1",
      description: "LT ABC123",
      usefulLifeMonths: 36,
      putIntoUseDate: "2026-01-31",
      depreciationStartDate: "2026-02-01",
      acquisitionCost: "24000.00",
      salvageValue: "1200.00",
      depreciableValue: "22800.00",
      accumulatedDepreciation: "0.00",
      depreciatedMonths: 0,
      remainingMonths: 36,
      netBookValue: "24000.00",
      lastDepreciatedMonth: null,
      openingDepreciatedThrough: null,
      status: "active",
      sourceTransactionId: tx.id,
      disposal: null,
    });
    expect(await w.api.assets.assets.get({ id: van.id })).toEqual(van);
    expect(await h.db("journal_transactions").where({ company_id: w.companyId })).toHaveLength(1);
    const december = await asset(w, { acquisitionDate: "2025-11-20", putIntoUseDate: "2025-12-05" });
    expect(december.depreciationStartDate).toBe("2026-01-01");
    await expectApiError(
      w.api.assets.assets.create({ code: "V-1", name: "x", groupCode: "VANS", acquisitionDate: "2026-01-01", acquisitionCost: "1" }),
      409,
      "conflict",
      "fixed_asset.code_taken",
    );

    const list = await w.api.assets.assets.list({ totals: ["acquisitionCost", "netBookValue"], filter: [{ field: "status", op: "eq", value: "active" }] });
    expect(list).toMatchObject({ total: 2, totals: { acquisitionCost: "25000.00", netBookValue: "25000.00" } });
    expect(list.rows.map((a: any) => a.code)).toEqual([december.code, "V-1"].sort());
  });

  test("created with depreciation to date: fully depreciated when nothing is left, nothing posted", async () => {
    const w = await assetsWorld();
    const half = await asset(w, {
      acquisitionDate: "2024-01-10",
      acquisitionCost: "1200.00",
      usefulLifeMonths: 12,
      accumulatedDepreciation: "600.00",
      depreciatedMonths: 6,
    });
    // Depreciation starts in February 2024; the 6 months counted are February to July 2024.
    expect(half).toMatchObject({
      status: "active",
      accumulatedDepreciation: "600.00",
      openingAccumulatedDepreciation: "600.00",
      depreciatedMonths: 6,
      openingDepreciatedMonths: 6,
      openingDepreciatedThrough: "2024-07",
      remainingMonths: 6,
      netBookValue: "600.00",
    });
    const done = await asset(w, {
      acquisitionDate: "2015-03-01",
      acquisitionCost: "5000.00",
      salvageValue: "500.00",
      usefulLifeMonths: 60,
      accumulatedDepreciation: "4500.00",
      depreciatedMonths: 60,
    });
    expect(done).toMatchObject({ status: "fully_depreciated", remainingMonths: 0, netBookValue: "500.00", openingDepreciatedThrough: "2020-03" });
    const early = await asset(w, { acquisitionCost: "100.00", usefulLifeMonths: 60, accumulatedDepreciation: "100.00", depreciatedMonths: 30 });
    expect(early.status).toBe("fully_depreciated");
    expect(await h.db("journal_transactions").where({ company_id: w.companyId })).toHaveLength(0);
  });

  const base = { code: "BAD", name: "x", groupCode: "VANS", acquisitionDate: "2026-01-10", acquisitionCost: "1000.00" };
  test.each([
    { name: "a cost of 0", over: { acquisitionCost: "0" }, status: 400, field: "acquisitionCost" },
    { name: "a negative cost", over: { acquisitionCost: "-5" }, status: 400, field: "acquisitionCost" },
    { name: "a cost with three decimals", over: { acquisitionCost: "1.001" }, status: 400, field: "acquisitionCost" },
    { name: "a cost of 16 digits", over: { acquisitionCost: "1234567890123456" }, status: 400, field: "acquisitionCost" },
    { name: "a cost as a JSON number", over: { acquisitionCost: 1000 }, status: 400, field: "acquisitionCost" },
    { name: "a year 1899 acquisition", over: { acquisitionDate: "1899-12-31" }, status: 400, field: "acquisitionDate" },
    { name: "30 February", over: { acquisitionDate: "2026-02-30" }, status: 400, field: "acquisitionDate" },
    { name: "a life of 0 months", over: { usefulLifeMonths: 0 }, status: 400, field: "usefulLifeMonths" },
    { name: "a life of 1201 months", over: { usefulLifeMonths: 1201 }, status: 400, field: "usefulLifeMonths" },
    { name: "put into use in December 2199 (would start in 2200)", over: { acquisitionDate: "2199-12-01" }, status: 400, field: "putIntoUseDate" },
    { name: "a lone surrogate in the name", over: { name: "\ud800" }, status: 400, field: "name" },
    { name: "salvage above cost", over: { salvageValue: "1000.01" }, status: 422, field: "salvageValue", key: "fixed_asset.salvage_above_cost" },
    {
      name: "put into use before acquisition",
      over: { putIntoUseDate: "2026-01-09" },
      status: 422,
      field: "putIntoUseDate",
      key: "fixed_asset.put_into_use_before_acquisition",
    },
    {
      name: "depreciation to date above cost − salvage",
      over: { salvageValue: "100", accumulatedDepreciation: "900.01", depreciatedMonths: 2 },
      status: 422,
      field: "accumulatedDepreciation",
      key: "fixed_asset.accumulated_above_depreciable",
    },
    {
      name: "more months depreciated than the life",
      over: { usefulLifeMonths: 12, accumulatedDepreciation: "10", depreciatedMonths: 13 },
      status: 422,
      field: "depreciatedMonths",
      key: "fixed_asset.months_above_life",
    },
    {
      name: "the whole life but not the whole value",
      over: { usefulLifeMonths: 12, accumulatedDepreciation: "999.99", depreciatedMonths: 12 },
      status: 422,
      field: "accumulatedDepreciation",
      key: "fixed_asset.depreciation_incomplete",
    },
    {
      name: "depreciation to date without its months",
      over: { accumulatedDepreciation: "10" },
      status: 422,
      field: "depreciatedMonths",
      key: "fixed_asset.opening_incomplete",
    },
    { name: "an unknown group", over: { groupCode: "NERA" }, status: 422, field: "groupCode", key: "fixed_asset.group_unknown" },
    {
      name: "an unknown source transaction",
      over: { sourceTransactionId: "00000000-0000-4000-8000-000000000000" },
      status: 422,
      field: "sourceTransactionId",
      key: "fixed_asset.source_transaction_unknown",
    },
  ])(
    "$name -> $status naming $field, nothing stored",
    async ({ over, status, field, key }: { over: Record<string, unknown>; status: number; field: string; key?: string }) => {
      const w = await assetsWorld();
      // The 400 cases send what the contract forbids.
      const error = await expectApiError(
        w.api.assets.assets.create(invalid({ ...base, ...over })),
        status,
        status === 400 ? "validation" : "unprocessable",
        key,
      );
      expect(Object.keys(error.fieldErrors ?? {}).some((f) => f.includes(field))).toBe(true);
      expect(await h.db("fixed_assets").where({ company_id: w.companyId })).toHaveLength(0);
    },
  );
});

describe("depreciation: straight line exact to the cent", () => {
  // Each case: one asset, months posted one after another from `first`; `amounts` is what each month depreciates
  // (null: the asset takes no part in that month).
  const cases: { name: string; asset: Record<string, unknown>; first: string; amounts: (string | null)[]; status: string }[] = [
    {
      name: "odd cents: 1000.00 over 3 months",
      asset: { acquisitionCost: "1000.00", usefulLifeMonths: 3 },
      first: "2026-02",
      amounts: ["333.33", "333.33", "333.34", null],
      status: "fully_depreciated",
    },
    {
      name: "100.00 over 7 months: the rounding down is caught up at the end",
      asset: { acquisitionCost: "100.00", usefulLifeMonths: 7 },
      first: "2026-02",
      amounts: ["14.28", "14.28", "14.28", "14.29", "14.29", "14.29", "14.29"],
      status: "fully_depreciated",
    },
    {
      name: "salvage value is never depreciated",
      asset: { acquisitionCost: "1000.00", salvageValue: "100.00", usefulLifeMonths: 3 },
      first: "2026-02",
      amounts: ["300.00", "300.00", "300.00", null],
      status: "fully_depreciated",
    },
    {
      name: "acquired mid-month: starts the month after",
      asset: { acquisitionDate: "2026-01-15", acquisitionCost: "600.00", usefulLifeMonths: 2 },
      first: "2026-01",
      amounts: [null, "300.00", "300.00", null],
      status: "fully_depreciated",
    },
    {
      name: "put into use later than acquired",
      asset: { acquisitionDate: "2025-12-20", putIntoUseDate: "2026-02-15", acquisitionCost: "90.00", usefulLifeMonths: 3 },
      first: "2026-02",
      amounts: [null, "30.00", "30.00", "30.00"],
      status: "fully_depreciated",
    },
    {
      name: "an imported half-depreciated asset continues over its remaining months",
      asset: { acquisitionDate: "2025-07-01", acquisitionCost: "1200.00", usefulLifeMonths: 12, accumulatedDepreciation: "600.00", depreciatedMonths: 6 },
      first: "2026-02",
      amounts: ["100.00", "100.00", "100.00", "100.00", "100.00", "100.00", null],
      status: "fully_depreciated",
    },
    // Figures to date counting February 2024 to January 2026 (24 months, 800.00): the company's first run, November
    // 2025, and the two after it leave the asset out; February 2026 goes on over the 12 months left.
    {
      name: "an imported asset is never depreciated again for the months its figures count, whichever month the company posts first",
      asset: { acquisitionDate: "2024-01-10", acquisitionCost: "1200.00", usefulLifeMonths: 36, accumulatedDepreciation: "800.00", depreciatedMonths: 24 },
      first: "2025-11",
      amounts: [null, null, null, "33.33", "33.33"],
      status: "active",
    },
    {
      name: "an imported asset with an uneven remainder",
      asset: { acquisitionDate: "2025-01-01", acquisitionCost: "1000.00", usefulLifeMonths: 10, accumulatedDepreciation: "333.33", depreciatedMonths: 7 },
      first: "2026-02",
      amounts: ["222.22", "222.22", "222.23"],
      status: "fully_depreciated",
    },
    {
      name: "a cent over three months",
      asset: { acquisitionCost: "0.01", usefulLifeMonths: 3 },
      first: "2026-02",
      amounts: ["0.00", "0.00", "0.01"],
      status: "fully_depreciated",
    },
    {
      name: "a long life still running",
      asset: { acquisitionCost: "10000.00", usefulLifeMonths: 120 },
      first: "2026-02",
      amounts: ["83.33", "83.33"],
      status: "active",
    },
  ];

  test.each(cases)("$name", async ({ asset: over, first, amounts, status }) => {
    const w = await assetsWorld();
    const a = await asset(w, over);
    for (const [i, month] of months(first, amounts.length).entries()) {
      const run = await w.api.assets.depreciation.post({ month });
      const expected = amounts[i];
      expect(run).toMatchObject({ month, posted: true, assetCount: expected === null ? 0 : 1, total: expected ?? "0.00" });
      if (expected !== null && expected !== "0.00") {
        expect(await journal(w, run.journalTransactionId)).toEqual([
          ["6206", expected, "0.00"],
          ["1237", "0.00", expected],
        ]);
        const tx = await h.db("journal_transactions").where({ company_id: w.companyId, id: run.journalTransactionId }).first();
        expect(tx).toMatchObject({
          document_type: "depreciation",
          date: `${month}-${month === "2026-02" ? "28" : ["2026-04", "2026-06", "2026-09", "2026-11"].includes(month) ? "30" : "31"}`,
          source_type: "asset_depreciation_run",
          source_id: month,
        });
      } else {
        expect(run.journalTransactionId).toBeNull();
      }
    }
    const stored = await lines(w);
    expect(stored.map((l) => new Decimal(l.amount).toFixed(2))).toEqual(amounts.filter((x) => x !== null));
    const after = await w.api.assets.assets.get({ id: a.id });
    const depreciable = new Decimal(after.depreciableValue);
    const sum = stored.reduce((s, l) => s.plus(l.amount), new Decimal(a.openingAccumulatedDepreciation));
    expect(after).toMatchObject({ status, accumulatedDepreciation: sum.toFixed(2), depreciatedMonths: a.openingDepreciatedMonths + stored.length });
    if (status === "fully_depreciated") expect(sum.toFixed(2)).toBe(depreciable.toFixed(2));
    else expect(sum.lessThan(depreciable)).toBe(true);
    // The ledger agrees with the cards: the accumulated-depreciation account holds what the runs posted.
    const credited = await h.db("journal_entries").where({ company_id: w.companyId, account_code: "1237" }).sum("credit as c").first();
    expect(new Decimal(credited?.c ?? 0).toFixed(2)).toBe(sum.minus(a.openingAccumulatedDepreciation).toFixed(2));
  });

  test("30 assets of assorted costs, salvage, lives and depreciation to date, run to the end: every asset exactly its depreciable value, no month above what was left", async () => {
    const w = await assetsWorld();
    // Deterministic assortment: costs with odd cents, salvage for every third, lives of 1 to 12 months, every fifth imported.
    const made = [];
    for (let i = 1; i <= 30; i++) {
      const cost = new Decimal((i * 7919) % 100000).plus(1).div(100).plus(i);
      const salvage = i % 3 === 0 ? cost.div(7).toDecimalPlaces(2, Decimal.ROUND_DOWN) : new Decimal(0);
      const life = 1 + ((i * 5) % 12);
      const opening =
        i % 5 === 0 && life > 1
          ? { accumulatedDepreciation: cost.minus(salvage).div(3).toDecimalPlaces(2, Decimal.ROUND_DOWN).toFixed(2), depreciatedMonths: Math.floor(life / 2) }
          : {};
      made.push(
        await asset(w, {
          acquisitionDate: "2025-01-10",
          acquisitionCost: cost.toFixed(2),
          salvageValue: salvage.toFixed(2),
          usefulLifeMonths: life,
          ...opening,
        }),
      );
    }
    // Twelve months that have all begun (a month after the current one in Vilnius is refused).
    for (const month of months("2025-02", 12)) await w.api.assets.depreciation.post({ month });
    const stored = await lines(w);
    for (const a of made) {
      const own = stored.filter((l) => l.asset_id === a.id);
      let left = new Decimal(a.depreciableValue).minus(a.openingAccumulatedDepreciation);
      for (const l of own) {
        expect(new Decimal(l.amount).lessThanOrEqualTo(left)).toBe(true);
        left = left.minus(l.amount);
      }
      expect(left.toFixed(2)).toBe("0.00");
      expect(own).toHaveLength(a.usefulLifeMonths - a.openingDepreciatedMonths);
      expect(await w.api.assets.assets.get({ id: a.id })).toMatchObject({
        status: "fully_depreciated",
        accumulatedDepreciation: a.depreciableValue,
        netBookValue: a.salvageValue,
      });
    }
    // The ledger holds exactly what the rows say.
    const journalTotal = await h.db("journal_entries").where({ company_id: w.companyId, account_code: "1237" }).sum("credit as c").first();
    expect(new Decimal(journalTotal!.c).toFixed(2)).toBe(stored.reduce((s, l) => s.plus(l.amount), new Decimal(0)).toFixed(2));
  });

  test("one transaction per month, a debit and a credit per group; preview equals what posts; the event carries the run", async () => {
    const w = await assetsWorld();
    await w.api.assets.groups.create({
      code: "PC",
      name: "Kompiuteriai",
      assetAccountCode: "1240",
      depreciationAccountCode: "1247",
      expenseAccountCode: "6306",
      defaultUsefulLifeMonths: 24,
    });
    const v1 = await asset(w, { acquisitionCost: "3600.00", usefulLifeMonths: 36 });
    const v2 = await asset(w, { acquisitionCost: "1000.00", usefulLifeMonths: 3 });
    const pc = await asset(w, { groupCode: "PC", acquisitionCost: "1000.00", usefulLifeMonths: 24 });
    await asset(w, { acquisitionDate: "2026-02-01", acquisitionCost: "500.00" }); // starts in March
    const preview = await w.api.assets.depreciation.preview({ month: "2026-02" });
    expect(preview).toMatchObject({
      month: "2026-02",
      posted: false,
      journalTransactionId: null,
      postedAt: null,
      assetCount: 3,
      total: "474.99",
      groups: [
        { groupCode: "PC", expenseAccountCode: "6306", depreciationAccountCode: "1247", assetCount: 1, amount: "41.66" },
        { groupCode: "VANS", expenseAccountCode: "6206", depreciationAccountCode: "1237", assetCount: 2, amount: "433.33" },
      ],
    });
    expect(preview.assets).toEqual(
      [
        { assetId: v1.id, code: v1.code, groupCode: "VANS", amount: "100.00", accumulatedAfter: "100.00", depreciatedMonthsAfter: 1, fullyDepreciated: false },
        { assetId: v2.id, code: v2.code, groupCode: "VANS", amount: "333.33", accumulatedAfter: "333.33", depreciatedMonthsAfter: 1, fullyDepreciated: false },
        { assetId: pc.id, code: pc.code, groupCode: "PC", amount: "41.66", accumulatedAfter: "41.66", depreciatedMonthsAfter: 1, fullyDepreciated: false },
      ].sort((a, b) => (a.code < b.code ? -1 : 1)),
    );
    expect(await runs(w)).toHaveLength(0);

    const run = await w.api.assets.depreciation.post({ month: "2026-02" });
    const { assets: _perAsset, ...summary } = preview;
    expect(run).toEqual({
      ...summary,
      posted: true,
      journalTransactionId: expect.any(String),
      journalTransactionIds: [run.journalTransactionId],
      postedAt: expect.any(String),
    });
    expect(await journal(w, run.journalTransactionId)).toEqual([
      ["6306", "41.66", "0.00"],
      ["1247", "0.00", "41.66"],
      ["6206", "433.33", "0.00"],
      ["1237", "0.00", "433.33"],
    ]);
    expect(await h.db("journal_transactions").where({ company_id: w.companyId, document_type: "depreciation" })).toHaveLength(1);
    const events = await h.db("webhook_events").where({ company_id: w.companyId, event_type: "assets.depreciation_posted" });
    expect(events.map((e) => e.data)).toEqual([run]);
    // A posted month's preview is what was posted, whatever happens to the assets afterwards.
    await w.api.assets.depreciation.post({ month: "2026-03" });
    const posted = await w.api.assets.depreciation.preview({ month: "2026-02" });
    expect(posted).toEqual({
      ...preview,
      posted: true,
      journalTransactionId: run.journalTransactionId,
      journalTransactionIds: [run.journalTransactionId],
      postedAt: run.postedAt,
    });
  });

  test("more groups than one transaction carries (501): a debit and a credit per pair of accounts, the run's rows per group", async () => {
    const w = await assetsWorld();
    // Seeded in SQL: 501 groups on two pairs of accounts, one asset of 120.00 over 12 months in each.
    await h.db.raw(
      `insert into asset_groups (company_id, code, name, asset_account_code, depreciation_account_code, expense_account_code, default_useful_life_months)
       select ?::uuid, 'G' || g, 'G' || g, case when g % 2 = 0 then '1230' else '1240' end, case when g % 2 = 0 then '1237' else '1247' end, '6206', 12
         from generate_series(1, 501) g`,
      [w.companyId],
    );
    await h.db.raw(
      `insert into fixed_assets (company_id, code, name, group_code, acquisition_date, put_into_use_date, depreciation_start_date, acquisition_cost, useful_life_months)
       select ?::uuid, 'S' || g, 'S' || g, 'G' || g, '2026-01-05', '2026-01-05', '2026-02-01', 120, 12 from generate_series(1, 501) g`,
      [w.companyId],
    );
    const run = await w.api.assets.depreciation.post({ month: "2026-02" });
    expect(run).toMatchObject({ assetCount: 501, total: "5010.00" });
    expect(run.groups).toHaveLength(501);
    expect(await journal(w, run.journalTransactionId)).toEqual([
      ["6206", "2510.00", "0.00"],
      ["1247", "0.00", "2510.00"],
      ["6206", "2500.00", "0.00"],
      ["1237", "0.00", "2500.00"],
    ]);
    expect(await lines(w)).toHaveLength(501);
  });

  test("months in order, never twice, only into an open period: 409 and nothing changes", async () => {
    const w = await assetsWorld();
    const a = await asset(w, { acquisitionCost: "1000.00", usefulLifeMonths: 10 });
    await w.api.ledger.periods.lock({ month: "2026-02" });
    const snapshot = async () => ({
      asset: await storedAsset(w, a.id),
      runs: await runs(w),
      lines: await lines(w),
      tx: await h.db("journal_transactions").where({ company_id: w.companyId }),
    });
    const before = await snapshot();
    const error = await expectApiError(w.api.assets.depreciation.post({ month: "2026-02" }), 409, "conflict", "period.locked");
    expect(error.params).toEqual({ month: "2026-02" });
    expect(await snapshot()).toEqual(before);

    await w.api.assets.depreciation.post({ month: "2026-03" });
    const after = await snapshot();
    const cases: [string, string, Record<string, unknown>][] = [
      ["2026-03", "depreciation.already_posted", { month: "2026-03", journalTransactionId: after.tx[0].id }],
      ["2026-05", "depreciation.out_of_order", { month: "2026-05", lastPostedMonth: "2026-03", expectedMonth: "2026-04" }],
      ["2026-01", "depreciation.out_of_order", { month: "2026-01", lastPostedMonth: "2026-03", expectedMonth: "2026-04" }],
    ];
    for (const [month, key, params] of cases) {
      const error = await expectApiError(w.api.assets.depreciation.post({ month }), 409, "conflict", key);
      expect(error.params).toEqual(params);
    }
    expect(await snapshot()).toEqual(after);
    expect((await w.api.assets.depreciation.post({ month: "2026-04" })).total).toBe("100.00");
  });

  test("two posts of the same month in flight together (both held on the company's lock): one posts, one 409", async () => {
    const w = await assetsWorld();
    await asset(w, { acquisitionCost: "1000.00", usefulLifeMonths: 10 });
    const post = () => w.api.assets.depreciation.post({ month: "2026-02" });
    const [first, second] = (await racing(w, [post, post])) as Settled<Run>[];
    expect([first.status, second.status, second.error?.code, second.error?.key]).toEqual([200, 409, "conflict", "depreciation.already_posted"]);
    expect(second.error?.params).toEqual({ month: "2026-02", journalTransactionId: first.data!.journalTransactionId });
    expect(await runs(w)).toHaveLength(1);
    expect((await lines(w)).map((l) => new Decimal(l.amount).toFixed(2))).toEqual(["100.00"]);
    expect(await h.db("journal_transactions").where({ company_id: w.companyId })).toHaveLength(1);
    expect(await journal(w, first.data!.journalTransactionId)).toEqual([
      ["6206", "100.00", "0.00"],
      ["1237", "0.00", "100.00"],
    ]);
  });

  // Cost 1200.00 over 12 months from February (100.00 a month), February and March posted; a disposal dated in April
  // (proceeds 950.00) and April's run sent together, each waiting on the company's lock: whichever comes first, the
  // books agree with the cards.
  test.each([
    {
      name: "the disposal first: April's run leaves the disposed asset out",
      first: "dispose" as const,
      run: { assetCount: 0, total: "0.00", entries: null },
      disposal: {
        accumulated: "200.00",
        gainOrLoss: "-50.00",
        entries: [
          ["1237", "200.00", "0.00"],
          ["2710", "950.00", "0.00"],
          ["6400", "50.00", "0.00"],
          ["1230", "0.00", "1200.00"],
        ],
      },
    },
    {
      name: "the run first: the disposal takes April's depreciation with it",
      first: "post" as const,
      run: {
        assetCount: 1,
        total: "100.00",
        entries: [
          ["6206", "100.00", "0.00"],
          ["1237", "0.00", "100.00"],
        ],
      },
      disposal: {
        accumulated: "300.00",
        gainOrLoss: "50.00",
        entries: [
          ["1237", "300.00", "0.00"],
          ["2710", "950.00", "0.00"],
          ["1230", "0.00", "1200.00"],
          ["5400", "0.00", "50.00"],
        ],
      },
    },
  ])("a disposal racing the run of its month, $name", async ({ first, run, disposal }) => {
    const w = await assetsWorld();
    const a = await asset(w, { acquisitionCost: "1200.00", usefulLifeMonths: 12 });
    for (const month of ["2026-02", "2026-03"]) await w.api.assets.depreciation.post({ month });
    const dispose = () => w.api.assets.assets.dispose({ assetId: a.id, date: "2026-04-15", proceeds: "950.00", accountCode: "2710" });
    const post = () => w.api.assets.depreciation.post({ month: "2026-04" });
    const [one, two] = await racing(w, first === "dispose" ? [dispose, post] : [post, dispose]);
    const [disposedAs, postedAs] = first === "dispose" ? [one, two] : [two, one];
    expect([disposedAs.status, postedAs.status]).toEqual([200, 200]);
    const [disposed, posted] = [disposedAs.data as Asset, postedAs.data as Run];
    expect(posted).toMatchObject({ month: "2026-04", assetCount: run.assetCount, total: run.total });
    expect(posted.journalTransactionId === null ? null : await journal(w, posted.journalTransactionId)).toEqual(run.entries);
    expect(disposed).toMatchObject({ status: "disposed", accumulatedDepreciation: disposal.accumulated, disposal: { gainOrLoss: disposal.gainOrLoss } });
    expect(await journal(w, disposed.disposal!.journalTransactionId)).toEqual(disposal.entries);
    expect(await storedAsset(w, a.id)).toMatchObject({
      status: "disposed",
      accumulated_depreciation: disposal.accumulated,
      depreciated_months: run.assetCount + 2,
    });
    // The accumulated-depreciation account is back to 0: what the runs credited, the disposal debited.
    const balance = await h.db("journal_entries").where({ company_id: w.companyId, account_code: "1237" }).first(h.db.raw("sum(debit - credit)::text as b"));
    expect(new Decimal(balance.b).toFixed(2)).toBe("0.00");
  });

  test("the database keeps the invariants: depreciation within the depreciable value, a posted month unchanged", async () => {
    const w = await assetsWorld();
    const a = await asset(w, { acquisitionCost: "1000.00", salvageValue: "100.00", usefulLifeMonths: 10 });
    await w.api.assets.depreciation.post({ month: "2026-02" });
    await expect(h.db("fixed_assets").where({ id: a.id }).update({ accumulated_depreciation: "900.01" })).rejects.toThrow(
      /fixed_assets_depreciation_within_value/,
    );
    await expect(h.db("fixed_assets").where({ id: a.id }).update({ status: "fully_depreciated" })).rejects.toThrow(/fixed_assets_status_agrees/);
    await expect(h.db("asset_depreciation_lines").where({ asset_id: a.id }).update({ amount: "1.00" })).rejects.toThrow(/cannot be changed/);
    await expect(h.db("asset_depreciation_runs").where({ company_id: w.companyId }).delete()).rejects.toThrow(/cannot be changed/);
    await expect(h.db("asset_depreciation_runs").insert({ company_id: w.companyId, month: "2026-02-01", asset_count: 0, total: 0 })).rejects.toThrow(
      /asset_depreciation_runs_pkey/,
    );
    expect(new Decimal((await storedAsset(w, a.id)).accumulated_depreciation).toFixed(2)).toBe("90.00");
  });

  test("update: descriptive fields only once depreciation has been posted", async () => {
    const w = await assetsWorld();
    const a = await asset(w, { acquisitionCost: "1000.00", usefulLifeMonths: 10 });
    const changed = await w.api.assets.assets.update({ id: a.id, acquisitionCost: "1200.00", usefulLifeMonths: 12 });
    expect(changed).toMatchObject({ acquisitionCost: "1200.00", usefulLifeMonths: 12, status: "active" });
    await expectApiError(w.api.assets.assets.update({ id: a.id, salvageValue: "1300" }), 422, "unprocessable", "fixed_asset.salvage_above_cost");
    await w.api.assets.depreciation.post({ month: "2026-02" });
    const error = await expectApiError(
      w.api.assets.assets.update({ id: a.id, acquisitionCost: "1.00", name: "x" }),
      409,
      "conflict",
      "fixed_asset.depreciation_posted",
    );
    expect(error.params).toMatchObject({ lastDepreciatedMonth: "2026-02", fields: ["acquisitionCost"] });
    expect((await storedAsset(w, a.id)).name).toBe("Ford Transit");
    const renamed = await w.api.assets.assets.update({ id: a.id, name: "Ford Transit Custom", description: "LT XYZ987" });
    expect(renamed).toMatchObject({ name: "Ford Transit Custom", description: "LT XYZ987", acquisitionCost: "1200.00", accumulatedDepreciation: "100.00" });
  });
});

describe("disposal", () => {
  // Cost 1200.00 over 12 months from February: 100.00 a month; disposed in May after February–April (300.00).
  test.each([
    {
      name: "sold with a gain",
      proceeds: "1000.00",
      entries: [
        ["1237", "300.00", "0.00"],
        ["2710", "1000.00", "0.00"],
        ["1230", "0.00", "1200.00"],
        ["5400", "0.00", "100.00"],
      ],
      gainOrLoss: "100.00",
    },
    {
      name: "sold with a loss",
      proceeds: "850.00",
      entries: [
        ["1237", "300.00", "0.00"],
        ["2710", "850.00", "0.00"],
        ["6400", "50.00", "0.00"],
        ["1230", "0.00", "1200.00"],
      ],
      gainOrLoss: "-50.00",
    },
    {
      name: "sold at book value",
      proceeds: "900.00",
      entries: [
        ["1237", "300.00", "0.00"],
        ["2710", "900.00", "0.00"],
        ["1230", "0.00", "1200.00"],
      ],
      gainOrLoss: "0.00",
    },
    {
      name: "written off",
      proceeds: undefined,
      entries: [
        ["1237", "300.00", "0.00"],
        ["6400", "900.00", "0.00"],
        ["1230", "0.00", "1200.00"],
      ],
      gainOrLoss: "-900.00",
    },
  ])("$name: cost and accumulated depreciation leave the ledger, the difference is a gain or loss", async ({ proceeds, entries, gainOrLoss }) => {
    const w = await assetsWorld();
    const a = await asset(w, { acquisitionCost: "1200.00", usefulLifeMonths: 12 });
    for (const month of ["2026-02", "2026-03", "2026-04"]) await w.api.assets.depreciation.post({ month });
    const disposed = await w.api.assets.assets.dispose({ assetId: a.id, date: "2026-05-12", ...(proceeds ? { proceeds, accountCode: "2710" } : {}) });
    expect(disposed).toMatchObject({
      status: "disposed",
      accumulatedDepreciation: "300.00",
      netBookValue: "0.00",
      remainingMonths: 0,
      disposal: {
        date: "2026-05-12",
        proceeds: proceeds ?? "0.00",
        accountCode: proceeds ? "2710" : null,
        gainOrLoss,
        journalTransactionId: expect.any(String),
      },
    });
    expect(await journal(w, disposed.disposal!.journalTransactionId)).toEqual(entries);
    expect(await h.db("journal_transactions").where({ id: disposed.disposal!.journalTransactionId }).first()).toMatchObject({
      document_type: "asset_disposal",
      date: "2026-05-12",
      source_type: "fixed_asset",
      source_id: a.id,
    });
    expect((await h.db("webhook_events").where({ company_id: w.companyId, event_type: "assets.asset_disposed" })).map((e) => e.data)).toEqual([disposed]);
    // A disposed asset takes no part in later months and cannot be disposed of again.
    expect((await w.api.assets.depreciation.post({ month: "2026-05" })).assetCount).toBe(0);
    await expectApiError(w.api.assets.assets.dispose({ assetId: a.id, date: "2026-06-01" }), 409, "conflict", "fixed_asset.disposed");
    await expectApiError(w.api.assets.assets.update({ id: a.id, usefulLifeMonths: 24 }), 409, "conflict", "fixed_asset.disposed");
  });

  test.each([
    {
      name: "depreciation not posted up to the month before",
      posted: ["2026-02"],
      body: { date: "2026-05-12" },
      status: 409,
      key: "fixed_asset.depreciation_behind",
      params: { month: "2026-03", requiredThrough: "2026-04", lastPostedMonth: "2026-02" },
    },
    {
      name: "nothing posted yet",
      posted: [],
      body: { date: "2026-05-12" },
      status: 409,
      key: "fixed_asset.depreciation_behind",
      params: { month: "2026-02", requiredThrough: "2026-04", lastPostedMonth: null },
    },
    {
      name: "depreciation posted after the disposal month",
      posted: ["2026-02", "2026-03", "2026-04"],
      body: { date: "2026-03-31" },
      status: 409,
      key: "fixed_asset.depreciated_after_disposal",
      params: { lastDepreciatedMonth: "2026-04" },
    },
    { name: "before the acquisition", posted: [], body: { date: "2026-01-09" }, status: 422, key: "fixed_asset.disposal_before_acquisition" },
    {
      name: "proceeds without an account",
      posted: [],
      body: { date: "2026-01-20", proceeds: "10" },
      status: 422,
      key: "fixed_asset.proceeds_account_required",
    },
    {
      name: "proceeds to a header account",
      posted: [],
      body: { date: "2026-01-20", proceeds: "10", accountCode: "271" },
      status: 422,
      key: "fixed_asset.disposal_account_invalid",
    },
    { name: "a locked month", posted: [], body: { date: "2026-01-20" }, lock: "2026-01", status: 409, key: "period.locked" },
  ])("$name -> $status $key, nothing changes", async ({ posted, body, status, key, params, lock }: any) => {
    const w = await assetsWorld();
    const a = await asset(w, { acquisitionCost: "1200.00", usefulLifeMonths: 12 });
    for (const month of posted) await w.api.assets.depreciation.post({ month });
    if (lock) await w.api.ledger.periods.lock({ month: lock });
    const before = { asset: await storedAsset(w, a.id), tx: await h.db("journal_transactions").where({ company_id: w.companyId }) };
    const error = await expectApiError(w.api.assets.assets.dispose({ assetId: a.id, ...body }), status, status === 409 ? "conflict" : "unprocessable", key);
    if (params) expect(error.params).toMatchObject(params);
    expect({ asset: await storedAsset(w, a.id), tx: await h.db("journal_transactions").where({ company_id: w.companyId }) }).toEqual(before);
  });

  // Imported with depreciation to date counting February 2024 to January 2026 (24 of 36 months, 800.00 of 1200.00);
  // the company has posted no month at all.
  test.each([
    {
      name: "in the month after its figures end: nothing needs posting first",
      date: "2026-02-10",
      status: 200,
      entries: [
        ["1237", "800.00", "0.00"],
        ["2710", "450.00", "0.00"],
        ["1230", "0.00", "1200.00"],
        ["5400", "0.00", "50.00"],
      ],
    },
    {
      name: "in a month its figures count: a later month would be depreciated after the disposal",
      date: "2025-12-20",
      status: 409,
      key: "fixed_asset.depreciated_after_disposal",
      params: { lastDepreciatedMonth: "2026-01" },
    },
    {
      name: "two months after its figures end: the month between must be posted",
      date: "2026-03-10",
      status: 409,
      key: "fixed_asset.depreciation_behind",
      params: { month: "2026-02", requiredThrough: "2026-02", lastPostedMonth: null },
    },
  ])(
    "an imported asset disposed of $name",
    async ({ date, status, entries, key, params }: { date: string; status: number; entries?: string[][]; key?: string; params?: Record<string, unknown> }) => {
      const w = await assetsWorld();
      const a = await asset(w, {
        acquisitionDate: "2024-01-10",
        acquisitionCost: "1200.00",
        usefulLifeMonths: 36,
        accumulatedDepreciation: "800.00",
        depreciatedMonths: 24,
      });
      const res = await settle(w.api.assets.assets.dispose({ assetId: a.id, date, proceeds: "450.00", accountCode: "2710" }));
      if (status === 200) {
        expect(res.status).toBe(200);
        expect(await journal(w, res.data!.disposal!.journalTransactionId)).toEqual(entries);
      } else {
        expect([res.status, res.error?.code, res.error?.key]).toEqual([status, "conflict", key]);
        expect(res.error?.params).toEqual({ id: a.id, ...params });

        expect(await storedAsset(w, a.id)).toMatchObject({ status: "active", disposal_transaction_id: null });
      }
    },
  );

  test("the disposal month may be depreciated when its run was posted first", async () => {
    const w = await assetsWorld();
    const a = await asset(w, { acquisitionCost: "1200.00", usefulLifeMonths: 12 });
    for (const month of ["2026-02", "2026-03"]) await w.api.assets.depreciation.post({ month });
    const disposed = await w.api.assets.assets.dispose({ assetId: a.id, date: "2026-03-15", proceeds: "1000.00", accountCode: "2410" });
    expect(disposed.disposal?.gainOrLoss).toBe("0.00");
    expect(await journal(w, disposed.disposal!.journalTransactionId)).toEqual([
      ["1237", "200.00", "0.00"],
      ["2410", "1000.00", "0.00"],
      ["1230", "0.00", "1200.00"],
    ]);
  });
});

describe("tenancy and scopes", () => {
  test("another account's key gets 404 for every id and sees none of the rows", async () => {
    const a = await assetsWorld();
    const b = await assetsWorld();
    const van = await asset(a, { acquisitionCost: "1000.00", usefulLifeMonths: 10 });
    const group = (await a.api.assets.groups.list({})).rows[0];
    await expectApiError(b.api.assets.assets.get({ id: van.id }), 404, "not_found", "fixed_asset.not_found");
    await expectApiError(b.api.assets.assets.update({ id: van.id, name: "mine" }), 404, "not_found", "fixed_asset.not_found");
    await expectApiError(b.api.assets.assets.dispose({ assetId: van.id, date: "2026-01-20" }), 404, "not_found", "fixed_asset.not_found");
    await expectApiError(b.api.assets.groups.get({ id: group.id }), 404, "not_found", "asset_group.not_found");
    await expectApiError(b.api.assets.groups.update({ id: group.id, name: "mine" }), 404, "not_found", "asset_group.not_found");
    // B's key naming A's company: refused before any handler runs.
    await expectApiError(b.api.assets.assets.list({}, { companyId: a.companyId }), 404, "not_found", "company.not_found");
    expect((await b.api.assets.assets.list({})).total).toBe(0);
    expect((await b.api.assets.depreciation.preview({ month: "2026-02" })).assetCount).toBe(0);
    expect((await b.api.assets.depreciation.post({ month: "2026-02" })).assetCount).toBe(0);
    expect(await storedAsset(a, van.id)).toMatchObject({ name: "Ford Transit", depreciated_months: 0, status: "active" });
    expect(await runs(a)).toHaveLength(0);
    // A reversal reverses only the company's own month.
    await a.api.assets.depreciation.post({ month: "2026-02" });
    expect((await b.api.assets.depreciation.reverse({ month: "2026-02" })).run.assetCount).toBe(0);
    expect((await runs(a)).map((r) => r.reversed_at)).toEqual([null]);
    expect(await storedAsset(a, van.id)).toMatchObject({ depreciated_months: 1, accumulated_depreciation: "100.00" });
  });

  test("assets:read reads, assets:write writes, other scopes get 403", async () => {
    const w = await assetsWorld();
    const van = await asset(w, { acquisitionCost: "1000.00", usefulLifeMonths: 10 });
    const client = async (scope: Scope) => (await keyWith(h, w.apiKey, [scope], { companyId: w.companyId })).api;
    const reader = await client("assets:read");
    const writer = await client("assets:write");
    const ledger = await client("ledger:write");
    const reads = [
      (api: AccountingApi) => api.assets.assets.get({ id: van.id }),
      (api: AccountingApi) => api.assets.assets.list({}),
      (api: AccountingApi) => api.assets.groups.list({}),
      (api: AccountingApi) => api.assets.depreciation.preview({ month: "2026-02" }),
    ];
    for (const read of reads) {
      await read(reader);
      await read(writer);
      await expectApiError(read(ledger), 403, "forbidden", "auth.scope_missing");
    }
    for (const api of [reader, ledger]) {
      await expectApiError(api.assets.depreciation.post({ month: "2026-02" }), 403, "forbidden", "auth.scope_missing");
      await expectApiError(
        api.assets.assets.create({ code: "Z", name: "Z", groupCode: "VANS", acquisitionDate: "2026-01-01", acquisitionCost: "1" }),
        403,
        "forbidden",
        "auth.scope_missing",
      );
      await expectApiError(api.assets.assets.dispose({ assetId: van.id, date: "2026-01-20" }), 403, "forbidden", "auth.scope_missing");
      await expectApiError(api.assets.depreciation.reverse({ month: "2026-02" }), 403, "forbidden", "auth.scope_missing");
    }
    expect(await runs(w)).toHaveLength(0);
    await writer.assets.depreciation.post({ month: "2026-02" });
    await writer.assets.depreciation.reverse({ month: "2026-02" });
    await writer.assets.depreciation.post({ month: "2026-02" });
    await writer.assets.assets.dispose({ assetId: van.id, date: "2026-03-02" });
  });
});
