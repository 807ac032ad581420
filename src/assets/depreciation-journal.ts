// How a month's depreciation reaches the journal. Per group, a debit of its expense account and a credit of its
// accumulated-depreciation account, in one transaction — as many as the ledger needs when one cannot carry the
// month (issue 22, defect 13):
//  - more groups than one transaction's lines (500 pairs) post a pair per pair of accounts instead;
//  - a month whose total is above what one transaction may carry (MAX_MONEY, `journal.total_too_large`) posts
//    several transactions, each at most MAX_MONEY, a group's amount divided between two of them where it falls on the
//    boundary. No asset, however large, blocks the month of the others.
// Each planned line remembers the groups it carries, so that a line the ledger refuses names them.
import { Decimal, MAX_MONEY, formatDecimal } from "../shared/decimal.js";
import { ApiError } from "../shared/errors.js";
import type { PostingEntry } from "../ledger/index.js";

/** A month's sum of one group, as the run computes it. */
export interface GroupAmount {
  group_code: string;
  expense_account_code: string;
  depreciation_account_code: string;
  amount: string;
}

/** One journal transaction of a month: its lines, and per line the groups whose depreciation it carries. */
export interface PlannedPosting {
  entries: PostingEntry[];
  groupsOf: string[][];
}

/** The most lines one journal transaction may carry (journal_entries.line_no). */
const MAX_LINES = 1000;

const money = (v: Decimal) => formatDecimal(v, "money");

interface Pair {
  label: string;
  expense: string;
  depreciation: string;
  amount: Decimal;
  groups: string[];
}

function pairsOf(groups: GroupAmount[]): Pair[] {
  const nonZero = groups.filter((g) => !new Decimal(g.amount).isZero());
  if (nonZero.length * 2 <= MAX_LINES) {
    return nonZero.map((g) => ({
      label: `group ${g.group_code}`,
      expense: g.expense_account_code,
      depreciation: g.depreciation_account_code,
      amount: new Decimal(g.amount),
      groups: [g.group_code],
    }));
  }
  const byAccounts = new Map<string, Pair>();
  for (const g of nonZero) {
    const label = `accounts ${g.expense_account_code}/${g.depreciation_account_code}`;
    const pair = byAccounts.get(label) ?? {
      label,
      expense: g.expense_account_code,
      depreciation: g.depreciation_account_code,
      amount: new Decimal(0),
      groups: [],
    };
    pair.amount = pair.amount.plus(g.amount);
    pair.groups.push(g.group_code);
    byAccounts.set(label, pair);
  }
  return [...byAccounts.values()];
}

/** The month's journal transactions, in order; none when nothing was depreciated. */
export function planPostings(month: string, groups: GroupAmount[]): PlannedPosting[] {
  const max = new Decimal(MAX_MONEY);
  const postings: PlannedPosting[] = [];
  let current: PlannedPosting | undefined;
  let total = new Decimal(0);
  for (const pair of pairsOf(groups)) {
    let left = pair.amount;
    while (left.greaterThan(0)) {
      if (!current || current.entries.length + 2 > MAX_LINES || total.equals(max)) {
        current = { entries: [], groupsOf: [] };
        postings.push(current);
        total = new Decimal(0);
      }
      const take = Decimal.min(left, max.minus(total));
      const description = `Depreciation ${month}, ${pair.label}`;
      current.entries.push(
        { accountCode: pair.expense, debit: money(take), description },
        { accountCode: pair.depreciation, credit: money(take), description },
      );
      current.groupsOf.push(pair.groups, pair.groups);
      total = total.plus(take);
      left = left.minus(take);
    }
  }
  return postings;
}

/**
 * A refusal of the ledger (`journal.*`) of one of the month's transactions, with the asset groups it concerns named
 * (params.groupCodes, and the message): the lines of the run's transactions are the run's own, and their indexes
 * mean nothing to the client. Any other error is returned as it is.
 */
export function namingGroups(error: unknown, month: string, planned: PlannedPosting): unknown {
  if (!(error instanceof ApiError) || !error.key?.startsWith("journal.")) return error;
  const named = new Map<string, string[]>();
  const codes = new Set<string>();
  for (const [path, messages] of Object.entries(error.fieldErrors ?? {})) {
    const line = /^entries\[(\d+)\]/.exec(path);
    const groups = line ? planned.groupsOf[Number(line[1])] : undefined;
    if (!groups) continue;
    groups.forEach((g) => codes.add(g));
    const label = groups.length === 1 ? `asset group ${groups[0]}` : `asset groups ${groups.join(", ")}`;
    named.set(label, [...(named.get(label) ?? []), ...messages]);
  }
  // A refusal of the whole transaction (its total, its balance) concerns every group it carries.
  if (!codes.size) planned.groupsOf.flat().forEach((g) => codes.add(g));
  const groupCodes = [...codes].sort();
  const detail = named.size
    ? [...named].map(([label, messages]) => `${label}: ${[...new Set(messages)].join("; ")}`).join(". ")
    : `asset groups ${groupCodes.join(", ")}`;
  return new ApiError(error.code, `The depreciation of ${month} cannot be posted: ${detail}. ${error.message}`, {
    key: error.key,
    params: { ...error.params, month, groupCodes },
  });
}
