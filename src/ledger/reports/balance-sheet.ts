// ledger/reports/balance-sheet: balances at the end of a day by type, class and group, with the results of the
// income and expense accounts shown as equity lines (they belong to equity until a closing entry moves them).
import type { components } from "../../../generated/types.js";
import type { Db } from "../../db/connection.js";
import { Decimal } from "../../shared/decimal.js";
import { accountSums, dayBefore } from "./balances.js";
import { classifyGroups, groupAccounts, loadChart, money, sumAmounts, type AccountAmount, type AccountType, type ChartAccount } from "./common.js";
import { addTo, balanceSheetLines } from "./statement-lines.js";

type BalanceSheet = components["schemas"]["Ledger.BalanceSheet"];

/** First day of the financial year holding `date`, for a year starting in `startMonth` (1-12). */
export function fiscalYearStart(date: string, startMonth: number): string {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  return `${String(month >= startMonth ? year : year - 1).padStart(4, "0")}-${String(startMonth).padStart(2, "0")}-01`;
}

export async function balanceSheet(db: Db, companyId: string, date: string): Promise<BalanceSheet> {
  const company = await db("companies").where("id", companyId).first("fiscal_year_start_month");
  const yearStart = fiscalYearStart(date, company.fiscal_year_start_month);
  // Balances from the start of the books: at the end of `date`, and before the financial year (./balances.ts).
  const [chart, sums] = await Promise.all([
    loadChart(db, companyId),
    accountSums(db, companyId, [
      { from: null, to: date },
      { from: null, to: dayBefore(yearStart) },
    ]),
  ]);
  const net = (s: { debit: string; credit: string }) => new Decimal(s.debit).minus(s.credit).toString();
  const rows = sums.map((s) => ({ account_code: s.accountCode, balance: net(s.sums[0]), before_year: net(s.sums[1]) }));
  const byType = new Map<AccountType, AccountAmount[]>();
  const lines = new Map<string, Decimal>();
  const unmapped: string[] = [];
  let currentYearResult = new Decimal(0);
  let priorYearsResult = new Decimal(0);
  for (const r of rows) {
    const account = chart.get(r.account_code) as ChartAccount;
    if (account.type === "income" || account.type === "expense") {
      // Credit positive: income raises the result, expense lowers it.
      priorYearsResult = priorYearsResult.minus(r.before_year);
      currentYearResult = currentYearResult.minus(new Decimal(r.balance).minus(r.before_year));
      continue;
    }
    const amount = account.type === "asset" ? new Decimal(r.balance) : new Decimal(r.balance).negated();
    byType.set(account.type, [...(byType.get(account.type) ?? []), { accountCode: account.code, name: account.name, amount }]);
    // The statements' sign: assets (A, B, C) and the interim account (X) debit positive, the rest credit positive,
    // whatever the account's type (a contra account reduces its line).
    const line = account.statement_line;
    if (line === null) {
      if (!new Decimal(r.balance).isZero()) unmapped.push(account.code);
    } else {
      addTo(lines, line, /^[ABCX]/.test(line) ? new Decimal(r.balance) : new Decimal(r.balance).negated());
    }
  }
  addTo(lines, "D.V.1", currentYearResult);
  addTo(lines, "D.V.2", priorYearsResult);
  const section = (type: AccountType) => {
    const lines = byType.get(type) ?? [];
    return { classes: classifyGroups(chart, type, groupAccounts(chart, type, lines)), total: sumAmounts(lines) };
  };
  const assets = section("asset");
  const equity = section("equity");
  const liabilities = section("liability");
  const equityTotal = equity.total.plus(currentYearResult).plus(priorYearsResult);
  const equityAndLiabilities = equityTotal.plus(liabilities.total);
  return {
    asOf: date,
    // Deprecated in 0.3.6 (CHANGELOG.md): the same day under its first name.
    date,
    fiscalYearStart: yearStart,
    assets: { classes: assets.classes, total: money(assets.total) },
    equity: { classes: equity.classes, total: money(equityTotal), currentYearResult: money(currentYearResult), priorYearsResult: money(priorYearsResult) },
    liabilities: { classes: liabilities.classes, total: money(liabilities.total) },
    totalAssets: money(assets.total),
    totalEquityAndLiabilities: money(equityAndLiabilities),
    balanced: assets.total.equals(equityAndLiabilities),
    statementLines: balanceSheetLines(lines),
    unmappedAccounts: unmapped.sort(),
  };
}
