// assets/depreciation/reverse (issue 22, defect 3): undoes the company's last posted month while its period is open,
// so that a month posted by mistake (a month far ahead, before the month bound existed; the wrong assets) does not
// end the company's depreciation. Nothing posted changes: each journal transaction of the run is reversed through
// the ledger's reversal (src/ledger/journal.ts postReversal, which posts through the one posting function), the run
// stays with its lines, marked reversed, and every asset it depreciated gets back the figures it had before (a
// fully depreciated one is active again). The month may then be posted again.
//
// Refused when an asset of the run has been disposed of since: its disposal took the month's depreciation out of
// the ledger with the rest of its accumulated depreciation, and reversing the month would leave that amount credited
// back to an account the asset no longer has anything in. (A disposal dated after the month needs the month posted;
// one dated in the month after its run counts it. Either way the run came first.)
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import { preparedQuery } from "../db/prepared.js";
import { postReversal } from "../ledger/index.js";
import { conflict } from "../shared/errors.js";
import { emitEvent } from "../events/index.js";
import { periodLocked } from "../ledger/index.js";
import { firstDay, lastPostedMonth, liveRun, monthLocked, postedGroups, runToApi, runTransactions } from "./depreciation.js";
import { lockCompanyAssets } from "./locks.js";

type DepreciationReversal = components["schemas"]["Assets.DepreciationReversal"];

// $1 company, $2 the month's first day, $3 the run. Each asset the run depreciated gets back what it had before the
// run: the figures of its line less the month, the previous month as its last (runs are consecutive, so an asset with
// months posted before this one was depreciated in the month before), or none when the run was its first. Only an
// asset that still has the figures the run left is touched: the caller compares the count with the run's.
const RESTORE_SQL = `
  with l as (
    select asset_id, amount, accumulated_after, depreciated_months_after
      from asset_depreciation_lines
     where company_id = $1::uuid and month = $2::date and run_no = $3::int
  )
  update fixed_assets a
     set accumulated_depreciation = l.accumulated_after - l.amount,
         depreciated_months = l.depreciated_months_after - 1,
         last_depreciated_month = case when l.depreciated_months_after - 1 > a.opening_depreciated_months then ($2::date - interval '1 month')::date end,
         status = 'active',
         updated_at = now()
    from l
   where a.company_id = $1::uuid and a.id = l.asset_id and a.status <> 'disposed'
     and a.accumulated_depreciation = l.accumulated_after and a.depreciated_months = l.depreciated_months_after
     and a.last_depreciated_month = $2::date
  returning a.id`;

export async function reverseDepreciation(trx: Db, companyId: string, keyId: string, month: string): Promise<DepreciationReversal> {
  await lockCompanyAssets(trx, companyId);
  const run = await liveRun(trx, companyId, month, true);
  const last = await lastPostedMonth(trx, companyId);
  if (!run) {
    throw conflict(`Depreciation of ${month} is not posted; there is nothing to reverse.`, "depreciation.not_posted", { month, lastPostedMonth: last });
  }
  if (last !== month) {
    throw conflict(
      `Depreciation is posted up to ${last}; only the last posted month can be reversed, so ${last} must be reversed before ${month}.`,
      "depreciation.later_month_posted",
      {
        month,
        lastPostedMonth: last,
      },
    );
  }
  if (await monthLocked(trx, companyId, month)) throw periodLocked(month);
  const disposed: { id: string; code: string; disposal_date: string }[] = await trx("asset_depreciation_lines as l")
    .join("fixed_assets as a", (j) => j.on("a.company_id", "l.company_id").andOn("a.id", "l.asset_id"))
    .where({ "l.company_id": companyId, "l.month": firstDay(month), "l.run_no": run.run_no, "a.status": "disposed" })
    .orderBy("a.code")
    .select("a.id", "a.code", "a.disposal_date");
  if (disposed.length) {
    const named = disposed
      .slice(0, 10)
      .map((a) => `${a.code} (${a.disposal_date})`)
      .join(", ");
    throw conflict(
      `${disposed.length} asset(s) depreciated in ${month} were disposed of since: ${named}${disposed.length > 10 ? ", …" : ""}. A disposal took the month's depreciation out of the ledger with the asset, so the month cannot be reversed.`,
      "depreciation.asset_disposed",
      { month, assets: disposed.slice(0, 100).map((a) => ({ id: a.id, code: a.code, disposalDate: a.disposal_date })), assetCount: disposed.length },
    );
  }

  const transactions = await runTransactions(trx, companyId, month, run.run_no);
  const reversalIds: string[] = [];
  for (const t of transactions) {
    const reversal = await postReversal(trx, companyId, keyId, {
      id: t.journal_transaction_id,
      description: `Reversal of the depreciation of fixed assets, ${month}`,
    });
    await trx("asset_depreciation_run_transactions")
      .where({ company_id: companyId, month: firstDay(month), run_no: run.run_no, part: t.part })
      .update({ reversal_transaction_id: reversal.id });
    reversalIds.push(reversal.id);
  }
  const restored = await preparedQuery(trx, "assets_depreciation_restore", RESTORE_SQL, [companyId, firstDay(month), run.run_no]);
  if (restored.length !== run.asset_count) {
    // Nothing but the run moves an asset's figures once it has been depreciated (update refuses, a later month is
    // refused above, a disposal too): an asset that differs from its line is a broken invariant, not a request's fault.
    throw new Error(`reversing ${month} for company ${companyId}: ${restored.length} of the run's ${run.asset_count} assets have the figures it left`);
  }
  const [reversed] = await trx("asset_depreciation_runs")
    .where({ company_id: companyId, month: firstDay(month), run_no: run.run_no })
    .update({ reversed_at: trx.fn.now(), reversed_by_key_id: keyId })
    .returning("reversed_at");
  const groups = await postedGroups(trx, companyId, month, run.run_no);
  const result: DepreciationReversal = {
    month,
    run: runToApi(
      month,
      groups,
      run,
      transactions.map((t) => t.journal_transaction_id),
    ),
    reversalTransactionIds: reversalIds,
    reversedAt: new Date(reversed.reversed_at).toISOString(),
    lastPostedMonth: await lastPostedMonth(trx, companyId),
  };
  await emitEvent(trx, companyId, "assets.depreciation_reversed", result);
  return result;
}
