// ledger/reports/trial-balance: each account's balance before `from` and its debits and credits from `from` to `to`,
// from the balances (whole months) and the entries of the part-months at the ends (./balances.ts).
import type { components } from "../../../generated/types.js";
import type { Db } from "../../db/connection.js";
import { Decimal } from "../../shared/decimal.js";
import { accountSums, dayBefore } from "./balances.js";
import { byCode, checkRange, loadChart, money, type ChartAccount } from "./common.js";

type TrialBalance = components["schemas"]["Ledger.TrialBalance"];

export async function trialBalance(db: Db, companyId: string, range: { from: string; to: string }): Promise<TrialBalance> {
  checkRange(range);
  // Sums are numeric in SQL; the rows carry strings, added up with decimal.js below.
  const [chart, sums] = await Promise.all([
    loadChart(db, companyId),
    accountSums(db, companyId, [
      { from: null, to: dayBefore(range.from) },
      { from: range.from, to: range.to },
    ]),
  ]);
  const rows = sums
    .map((s) => ({
      account: chart.get(s.accountCode) as ChartAccount,
      opening: new Decimal(s.sums[0].debit).minus(s.sums[0].credit),
      debit: s.sums[1].debit,
      credit: s.sums[1].credit,
    }))
    .filter((r) => !r.opening.isZero() || !new Decimal(r.debit).isZero() || !new Decimal(r.credit).isZero())
    .sort((a, b) => byCode(a.account.code, b.account.code));
  const totals = { opening: new Decimal(0), debit: new Decimal(0), credit: new Decimal(0), closing: new Decimal(0) };
  const out = rows.map((r) => {
    const closing = new Decimal(r.opening).plus(r.debit).minus(r.credit);
    totals.opening = totals.opening.plus(r.opening);
    totals.debit = totals.debit.plus(r.debit);
    totals.credit = totals.credit.plus(r.credit);
    totals.closing = totals.closing.plus(closing);
    return {
      accountCode: r.account.code,
      name: r.account.name,
      type: r.account.type,
      openingBalance: money(r.opening),
      debit: money(r.debit),
      credit: money(r.credit),
      closingBalance: money(closing),
    };
  });
  return {
    from: range.from,
    to: range.to,
    rows: out,
    totals: { openingBalance: money(totals.opening), debit: money(totals.debit), credit: money(totals.credit), closingBalance: money(totals.closing) },
    balanced: totals.opening.isZero() && totals.closing.isZero() && totals.debit.equals(totals.credit),
  };
}
