// ledger/reports/profit-and-loss: movements of the income and expense accounts in a range, by group.
import type { components } from "../../../generated/types.js";
import type { Db } from "../../db/connection.js";
import { Decimal } from "../../shared/decimal.js";
import { checkRange, groupAccounts, loadChart, money, sumAmounts, type AccountAmount, type ChartAccount } from "./common.js";
import { addTo, profitAndLossLines } from "./statement-lines.js";

type ProfitAndLoss = components["schemas"]["Ledger.ProfitAndLoss"];

export async function profitAndLoss(db: Db, companyId: string, range: { from: string; to: string }): Promise<ProfitAndLoss> {
  checkRange(range);
  const [chart, { rows }] = await Promise.all([
    loadChart(db, companyId),
    db.raw<{ rows: { account_code: string; net: string }[] }>(
      `select e.account_code, sum(e.debit - e.credit)::text as net
         from journal_entries e
         join ledger_accounts a on a.company_id = e.company_id and a.code = e.account_code
        where e.company_id = :companyId and e.date between :from and :to and a.type in ('income', 'expense')
        group by e.account_code`,
      { companyId, from: range.from, to: range.to },
    ),
  ]);
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
