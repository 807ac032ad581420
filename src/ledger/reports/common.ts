// Pieces every ledger report shares: the range check, decimal formatting, and grouping accounts by the chart's
// class (1-digit) and group (2-digit) headers.
import type { components } from "../../../generated/types.js";
import type { Db } from "../../db/connection.js";
import { type Decimal, formatDecimal, sumDecimals } from "../../shared/decimal.js";
import { validationError } from "../../shared/errors.js";

export type AccountType = components["schemas"]["Ledger.AccountType"];
export type ReportGroup = components["schemas"]["Ledger.ReportGroup"];
export type ReportClass = components["schemas"]["Ledger.ReportClass"];

export const money = (value: Decimal | string) => formatDecimal(value, "money");

/** `from` after `to` is a malformed request (400), named on `to` as the contract says. */
export function checkRange(range: { from: string; to: string }): void {
  if (range.from > range.to) throw validationError({ to: [`must not be before from (${range.from})`] }, "The range ends before it starts.");
}

export interface ChartAccount {
  code: string;
  name: string;
  type: AccountType;
  statement_line: string | null;
}

/** The whole chart of a company by code: reports need the names of the class and group headers too. */
export async function loadChart(db: Db, companyId: string): Promise<Map<string, ChartAccount>> {
  const rows: ChartAccount[] = await db("ledger_accounts").where("company_id", companyId).select("code", "name", "type", "statement_line");
  return new Map(rows.map((r) => [r.code, r]));
}

/** Code-point order, the same on every database collation. */
export const byCode = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);

export interface AccountAmount {
  accountCode: string;
  name: string;
  amount: Decimal;
}

const NUMERIC_HEADER = /^[0-9]{2}/;
const OTHER_NAME: Record<AccountType, string> = {
  asset: "Other assets",
  liability: "Other liabilities",
  equity: "Other equity",
  income: "Other income",
  expense: "Other expenses",
};

function headerName(chart: Map<string, ChartAccount>, code: string): string {
  return chart.get(code)?.name ?? code;
}

/**
 * Groups accounts by their 2-digit header (`2710` -> `27`); accounts whose code does not start with two digits
 * form one group with a null code. Accounts with a zero amount are left out, and so are groups left empty.
 */
export function groupAccounts(chart: Map<string, ChartAccount>, type: AccountType, lines: AccountAmount[]): ReportGroup[] {
  const groups = new Map<string | null, AccountAmount[]>();
  for (const line of lines) {
    if (line.amount.isZero()) continue;
    const code = NUMERIC_HEADER.test(line.accountCode) ? line.accountCode.slice(0, 2) : null;
    groups.set(code, [...(groups.get(code) ?? []), line]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => byCode(a, b))
    .map(([code, accounts]) => ({
      code,
      name: code === null ? OTHER_NAME[type] : headerName(chart, code),
      amount: money(sumDecimals(accounts.map((a) => a.amount))),
      accounts: accounts
        .sort((a, b) => byCode(a.accountCode, b.accountCode))
        .map((a) => ({ accountCode: a.accountCode, name: a.name, amount: money(a.amount) })),
    }));
}

/** Groups (from groupAccounts) under their 1-digit class header; the null group under a null class. */
export function classifyGroups(chart: Map<string, ChartAccount>, type: AccountType, groups: ReportGroup[]): ReportClass[] {
  const classes = new Map<string | null, ReportGroup[]>();
  for (const group of groups) {
    const code = group.code === null ? null : group.code[0];
    classes.set(code, [...(classes.get(code) ?? []), group]);
  }
  return [...classes.entries()]
    .sort(([a], [b]) => byCode(a, b))
    .map(([code, members]) => ({
      code,
      name: code === null ? OTHER_NAME[type] : headerName(chart, code),
      amount: money(sumDecimals(members.map((g) => g.amount))),
      groups: members,
    }));
}

export const sumAmounts = (lines: AccountAmount[]) => sumDecimals(lines.map((l) => l.amount));
