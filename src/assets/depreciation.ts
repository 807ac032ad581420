// The monthly straight-line depreciation run (issue 11). Each active asset whose depreciation has started by the
// month depreciates (cost − salvage − accumulated) / (useful life − months depreciated), rounded down to the cent;
// its last month takes the remainder, so the total is exact to the cent and never exceeds the depreciable value
// (rounding down never runs ahead of the straight line: 1000.00 over 3 months is 333.33, 333.33, 333.34). An asset
// created with depreciation to date goes on the same way from its remaining value over its remaining months.
//
// Posting is set-based: one statement computes every asset's amount, records the run and a row per asset, and moves
// every asset's figures; then the sums per group are posted through the one posting function (one journal
// transaction, several when one cannot carry the month: depreciation-journal.ts). A company's runs are serialized by
// an advisory lock (also taken by a disposal and a reversal), months go in order and never beyond the current month in
// Vilnius, and a unique index refuses a month posted twice even without the lock. A month posted by mistake is undone
// by reversing it (reversal.ts): its run stays, marked reversed, and the month may be posted again as run 2, 3, ….
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import { preparedQuery } from "../db/prepared.js";
import type { AssetDepreciationLinesRow, AssetDepreciationRunTransactionsRow, AssetDepreciationRunsRow, AssetGroupsRow, FixedAssetsRow } from "../db/rows.js";
import { uniqueViolation } from "../db/transaction.js";
import { Decimal, formatDecimal } from "../shared/decimal.js";
import { ApiError, conflict } from "../shared/errors.js";
import { emitEvent } from "../events/index.js";
import { periodLocked, post } from "../ledger/index.js";
import { namingGroups, planPostings } from "./depreciation-journal.js";
import { lockCompanyAssets } from "./locks.js";

type DepreciationRun = components["schemas"]["Assets.DepreciationRun"];
type DepreciationPreview = components["schemas"]["Assets.DepreciationPreview"];

const money = (v: Decimal | string) => formatDecimal(v, "money");
export const firstDay = (month: string) => `${month}-01`;
export function lastDay(month: string): string {
  const [y, m] = month.split("-").map(Number);
  return `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, "0")}`;
}
export function nextMonth(month: string): string {
  const [y, m] = month.split("-").map(Number);
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, "0")}`;
}
export function previousMonth(month: string): string {
  const [y, m] = month.split("-").map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, "0")}`;
}

/** The last month the company posted (and has not reversed), `YYYY-MM`, or null. */
export async function lastPostedMonth(db: Db, companyId: string): Promise<string | null> {
  const row = await db("asset_depreciation_runs").where("company_id", companyId).whereNull("reversed_at").max("month as month").first();
  return row?.month ? String(row.month).slice(0, 7) : null;
}

/** A row of asset_depreciation_runs. */
export type RunRow = AssetDepreciationRunsRow;

/** The month's live run (posted, not reversed), or undefined. */
export async function liveRun(db: Db, companyId: string, month: string, forUpdate = false): Promise<RunRow | undefined> {
  const query = db<AssetDepreciationRunsRow>("asset_depreciation_runs")
    .where({ company_id: companyId, month: firstDay(month) })
    .whereNull("reversed_at")
    .first();
  return forUpdate ? query.forUpdate() : query;
}

/** The journal transactions of a run, in order. */
export async function runTransactions(db: Db, companyId: string, month: string, runNo: number): Promise<AssetDepreciationRunTransactionsRow[]> {
  return db<AssetDepreciationRunTransactionsRow>("asset_depreciation_run_transactions")
    .where({ company_id: companyId, month: firstDay(month), run_no: runNo })
    .orderBy("part");
}

/** The current month in Vilnius (`YYYY-MM`), by the database's clock. */
export async function currentMonth(db: Db): Promise<string> {
  const { rows } = await db.raw("select to_char(now() at time zone 'Europe/Vilnius', 'YYYY-MM') as month");
  return rows[0].month;
}

// $1 company, $2 the month's first day. Amounts per asset: the straight line, rounded down, the last month the rest.
// An asset created with depreciation to date takes part from the month after the months that figure counts (its
// start month + depreciatedMonths): a company's first run may be any month, and an earlier month is already in the
// imported figure.
const AMOUNTS = `
  due as (
    select a.id, a.code, a.group_code, g.expense_account_code, g.depreciation_account_code,
           a.accumulated_depreciation, a.depreciated_months,
           a.acquisition_cost - a.salvage_value - a.accumulated_depreciation as remaining,
           a.useful_life_months - a.depreciated_months as months_left
      from fixed_assets a
      join asset_groups g on g.company_id = a.company_id and g.code = a.group_code
     where a.company_id = $1::uuid and a.status = 'active' and a.depreciation_start_date <= $2::date
       and a.depreciation_start_date + make_interval(months => a.opening_depreciated_months) <= $2::date
  ),
  amounts as (
    select d.*, case when d.months_left <= 1 then d.remaining else trunc(d.remaining / d.months_left, 2) end as amount
      from due d
  )`;

const GROUPS_OF = (source: string) => `
  select group_code, expense_account_code, depreciation_account_code, count(*)::int as asset_count, sum(amount)::text as amount
    from ${source} group by group_code, expense_account_code, depreciation_account_code order by group_code`;

const POSTED_GROUPS_SQL = GROUPS_OF("(select * from asset_depreciation_lines where company_id = $1::uuid and month = $2::date and run_no = $3::int) as l");

const PREVIEW_SQL = `with ${AMOUNTS} select * from amounts order by code`;

const POST_SQL = `
  with ${AMOUNTS},
  run as (
    insert into asset_depreciation_runs (company_id, month, run_no, asset_count, total, created_by_key_id)
    select $1::uuid, $2::date,
           coalesce((select max(r.run_no) from asset_depreciation_runs r where r.company_id = $1::uuid and r.month = $2::date), 0) + 1,
           count(*), coalesce(sum(amount), 0), $3::uuid
      from amounts
    returning run_no
  ),
  lines as (
    insert into asset_depreciation_lines (company_id, asset_id, month, run_no, group_code, expense_account_code, depreciation_account_code,
                                          amount, accumulated_after, depreciated_months_after)
    select $1::uuid, a.id, $2::date, run.run_no, a.group_code, a.expense_account_code, a.depreciation_account_code,
           a.amount, a.accumulated_depreciation + a.amount, a.depreciated_months + 1
      from amounts a, run
  ),
  moved as (
    update fixed_assets a
       set accumulated_depreciation = a.accumulated_depreciation + m.amount,
           depreciated_months = a.depreciated_months + 1,
           last_depreciated_month = $2::date,
           status = case when a.accumulated_depreciation + m.amount = a.acquisition_cost - a.salvage_value then 'fully_depreciated' else 'active' end,
           updated_at = now()
      from amounts m
     where a.company_id = $1::uuid and a.id = m.id
  )
  ${GROUPS_OF("amounts")}`;

/** A row of AMOUNTS' `amounts`: an asset due in the month, with its group's accounts and the month's amount. */
type AmountRow = Pick<FixedAssetsRow, "id" | "code" | "group_code" | "accumulated_depreciation" | "depreciated_months"> &
  Pick<AssetGroupsRow, "expense_account_code" | "depreciation_account_code"> & { remaining: string; months_left: number; amount: string };

/** A posted asset of a run, with the figures its line left. */
type PostedAssetRow = Pick<AssetDepreciationLinesRow, "asset_id" | "group_code" | "amount" | "accumulated_after" | "depreciated_months_after"> &
  Pick<FixedAssetsRow, "code" | "acquisition_cost" | "salvage_value">;

interface GroupRow {
  group_code: string;
  expense_account_code: string;
  depreciation_account_code: string;
  asset_count: number;
  amount: string;
}

export function runToApi(month: string, groups: GroupRow[], run: { posted_at: Date | string } | null, transactionIds: string[] = []): DepreciationRun {
  const total = groups.reduce((s, g) => s.plus(g.amount), new Decimal(0));
  return {
    month,
    posted: run !== null,
    journalTransactionId: transactionIds[0] ?? null,
    journalTransactionIds: transactionIds,
    assetCount: groups.reduce((s, g) => s + g.asset_count, 0),
    total: money(total),
    groups: groups.map((g) => ({
      groupCode: g.group_code,
      expenseAccountCode: g.expense_account_code,
      depreciationAccountCode: g.depreciation_account_code,
      assetCount: g.asset_count,
      amount: money(g.amount),
    })),
    postedAt: run ? new Date(run.posted_at).toISOString() : null,
  };
}

export async function monthLocked(db: Db, companyId: string, month: string): Promise<boolean> {
  // A lock of the month, or a lock through a date on or after it (ledger_month_locked, migration 20261127000400).
  const { rows } = await db.raw<{ rows: { locked: boolean }[] }>("select ledger_month_locked(?, ?::date) as locked", [companyId, firstDay(month)]);
  return rows[0].locked;
}

/** What a month posted (when posted), or what posting it now would do. */
export async function previewDepreciation(db: Db, companyId: string, month: string): Promise<DepreciationPreview> {
  const run = await liveRun(db, companyId, month);
  if (run) {
    const lines = db("asset_depreciation_lines as l").where({ "l.company_id": companyId, "l.month": firstDay(month), "l.run_no": run.run_no });
    const groups = await postedGroups(db, companyId, month, run.run_no);
    const transactions = await runTransactions(db, companyId, month, run.run_no);
    const assets: PostedAssetRow[] = await lines
      .clone()
      .join("fixed_assets as a", function () {
        this.on("a.company_id", "l.company_id").andOn("a.id", "l.asset_id");
      })
      .orderBy("a.code")
      .select("l.asset_id", "a.code", "l.group_code", "l.amount", "l.accumulated_after", "l.depreciated_months_after", "a.acquisition_cost", "a.salvage_value");
    return {
      ...runToApi(
        month,
        groups,
        run,
        transactions.map((t) => t.journal_transaction_id),
      ),
      assets: assets.map((a) => ({
        assetId: a.asset_id,
        code: a.code,
        groupCode: a.group_code,
        amount: money(a.amount),
        accumulatedAfter: money(a.accumulated_after),
        depreciatedMonthsAfter: a.depreciated_months_after,
        fullyDepreciated: new Decimal(a.accumulated_after).equals(new Decimal(a.acquisition_cost).minus(a.salvage_value)),
      })),
    };
  }
  const rows = await preparedQuery<AmountRow>(db, "assets_depreciation_preview", PREVIEW_SQL, [companyId, firstDay(month)]);
  const groups = new Map<string, GroupRow>();
  for (const r of rows) {
    const key = [r.group_code, r.expense_account_code, r.depreciation_account_code].join("\u0000");
    const g = groups.get(key) ?? {
      group_code: r.group_code,
      expense_account_code: r.expense_account_code,
      depreciation_account_code: r.depreciation_account_code,
      asset_count: 0,
      amount: "0",
    };
    g.asset_count += 1;
    g.amount = new Decimal(g.amount).plus(r.amount).toFixed(2);
    groups.set(key, g);
  }
  const sorted = [...groups.values()].sort((a, b) => (a.group_code < b.group_code ? -1 : a.group_code > b.group_code ? 1 : 0));
  return {
    ...runToApi(month, sorted, null),
    assets: rows.map((r) => {
      const after = new Decimal(r.accumulated_depreciation).plus(r.amount);
      return {
        assetId: r.id,
        code: r.code,
        groupCode: r.group_code,
        amount: money(r.amount),
        accumulatedAfter: money(after),
        depreciatedMonthsAfter: r.depreciated_months + 1,
        fullyDepreciated: new Decimal(r.remaining).equals(r.amount),
      };
    }),
  };
}

/** What a posted run of a month holds per group. */
export function postedGroups(db: Db, companyId: string, month: string, runNo: number): Promise<GroupRow[]> {
  return preparedQuery<GroupRow>(db, "assets_depreciation_posted_groups", POSTED_GROUPS_SQL, [companyId, firstDay(month), runNo]);
}

/**
 * Posts a month's depreciation: the run, a row per asset, the assets' figures and the journal. A month after the
 * current one in Vilnius is refused (issue 22, defect 3: a month posted far ahead stopped every real month).
 */
export async function postDepreciation(trx: Db, companyId: string, keyId: string, month: string): Promise<DepreciationRun> {
  const current = await currentMonth(trx);
  if (month > current) {
    throw new ApiError("unprocessable", `${month} has not begun in Vilnius (it is ${current}); a month is depreciated once it has begun.`, {
      key: "depreciation.month_in_future",
      params: { month, currentMonth: current },
      fieldErrors: { month: [`must not be after the current month, ${current}`] },
    });
  }
  return postMonth(trx, companyId, keyId, month);
}

/**
 * The posting of a month itself, without the month's bound: postDepreciation's work, and what the service did
 * before the bound (tests build such a company with it).
 */
export async function postMonth(trx: Db, companyId: string, keyId: string, month: string): Promise<DepreciationRun> {
  await lockCompanyAssets(trx, companyId);
  const posted = await liveRun(trx, companyId, month);
  if (posted) throw alreadyPosted(month, (await runTransactions(trx, companyId, month, posted.run_no))[0]?.journal_transaction_id ?? null);
  const last = await lastPostedMonth(trx, companyId);
  if (last !== null && month !== nextMonth(last)) {
    const expectedMonth = nextMonth(last);
    throw conflict(
      month > expectedMonth
        ? `Depreciation is posted up to ${last}; ${expectedMonth} must be posted before ${month}.`
        : `Depreciation is posted up to ${last}; months are posted in order, so the next one is ${expectedMonth}.`,
      "depreciation.out_of_order",
      { month, lastPostedMonth: last, expectedMonth },
    );
  }
  if (await monthLocked(trx, companyId, month)) throw periodLocked(month);

  let groups: GroupRow[];
  try {
    groups = await preparedQuery<GroupRow>(trx, "assets_depreciation_post", POST_SQL, [companyId, firstDay(month), keyId]);
  } catch (error) {
    // Without the company's lock (which every caller takes) two posts of a month would meet here.
    const violated = uniqueViolation(error);
    if (violated === "asset_depreciation_runs_live_key" || violated === "asset_depreciation_runs_pkey") throw alreadyPosted(month, null);
    throw error;
  }
  const run = await liveRun(trx, companyId, month);
  const planned = planPostings(month, groups);
  const transactionIds: string[] = [];
  for (const [i, posting] of planned.entries()) {
    const part = planned.length > 1 ? ` (part ${i + 1} of ${planned.length})` : "";
    const transaction = await post(trx, {
      companyId,
      date: lastDay(month),
      description: `Depreciation of fixed assets, ${month}${part}`,
      reference: `DEPR-${month}`,
      documentType: "depreciation",
      source: { type: "asset_depreciation_run", id: month },
      entries: posting.entries,
      createdByKeyId: keyId,
    }).catch((error) => {
      throw namingGroups(error, month, posting);
    });
    transactionIds.push(transaction.id);
  }
  if (transactionIds.length) {
    await trx("asset_depreciation_run_transactions").insert(
      transactionIds.map((id, i) => ({ company_id: companyId, month: firstDay(month), run_no: run!.run_no, part: i + 1, journal_transaction_id: id })),
    );
  }
  const result = runToApi(month, groups, run!, transactionIds);
  await emitEvent(trx, companyId, "assets.depreciation_posted", result);
  return result;
}

const alreadyPosted = (month: string, journalTransactionId: string | null) =>
  conflict(
    `Depreciation of ${month} is posted already; a posted month never changes (reverse it, while it is the last posted month, to post it again).`,
    "depreciation.already_posted",
    {
      month,
      journalTransactionId,
    },
  );
