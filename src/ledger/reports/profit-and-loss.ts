// ledger/reports/profit-and-loss: movements of the income and expense accounts in a range, by group.
import type { components } from "../../../generated/types.js";
import type { Db } from "../../db/connection.js";
import { Decimal } from "../../shared/decimal.js";
import { accountSums } from "./balances.js";
import { checkRange, groupAccounts, loadChart, money, sumAmounts, type AccountAmount, type ChartAccount } from "./common.js";
import { addTo, profitAndLossLines } from "./statement-lines.js";

type ProfitAndLoss = components["schemas"]["Ledger.ProfitAndLoss"];

export async function profitAndLoss(db: Db, companyId: string, range: { from: string; to: string }): Promise<ProfitAndLoss> {
  checkRange(range);
  const [chart, sums] = await Promise.all([loadChart(db, companyId), accountSums(db, companyId, [range])]);
  // The income and expense accounts' movements in the range (./balances.ts).
  const rows = sums
    .filter((s) => ["income", "expense"].includes((chart.get(s.accountCode) as ChartAccount).type))
    .map((s) => ({ account_code: s.accountCode, net: new Decimal(s.sums[0].debit).minus(s.sums[0].credit).toString() }));
  const income: AccountAmount[] = [];
  const expenses: AccountAmount[] = [];
  const lines = new Map<string, Decimal>();
  const unmapped: string[] = [];
  for (const r of rows) {
    const account = chart.get(r.account_code) as ChartAccount;
    // Each line carries its effect on the result: credit positive for income and expense accounts alike.
    if (account.statement_line?.startsWith("PL")) addTo(lines, account.statement_line, new Decimal(r.net).negated());
    else if (!new Decimal(r.net).isZero()) unmapped.push(account.code);
    // Income is credit positive, expenses debit positive.
    if (account.type === "income") income.push({ accountCode: account.code, name: account.name, amount: new Decimal(r.net).negated() });
    else expenses.push({ accountCode: account.code, name: account.name, amount: new Decimal(r.net) });
  }
  const incomeTotal = sumAmounts(income);
  const expenseTotal = sumAmounts(expenses);
  return {
    from: range.from,
    to: range.to,
    income: { groups: groupAccounts(chart, "income", income), total: money(incomeTotal) },
    expenses: { groups: groupAccounts(chart, "expense", expenses), total: money(expenseTotal) },
    netResult: money(incomeTotal.minus(expenseTotal)),
    statementLines: profitAndLossLines(lines),
    unmappedAccounts: unmapped.sort(),
  };
}
