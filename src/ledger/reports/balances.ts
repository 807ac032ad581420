// Sums of the journal per account over date ranges, read from the balances (issue 26): whole months from
// ledger_balances (per company, account, month and partner), and the days of a range's part-months at either end
// from ledger_day_balances (per company, day and account) — or a part-month's balance less its days outside the range,
// whichever reads fewer days. Both are kept by the journal's triggers in the posting transaction
// (src/db/functions/ledger_balances_move.sql, ledger_day_balances_move.sql). So a report over years of history reads one
// row per account, month, partner and stripe, plus at most half a month of day rows per account at each end, instead
// of every entry since the start of the books. Sums per partner read a part-month's days from the partner's own
// journal lines (the day balances have no partner). The sums equal the entry-by-entry ones exactly
// (test/contract/ledger-balances.test.ts).
import type { Db } from "../../db/connection.js";

/** Days `from` to `to`, both included (`YYYY-MM-DD`); `from` null: from the start of the books. */
export interface DateRange {
  from: string | null;
  to: string;
}

/** One account's debits and credits in each range asked for, in the order asked (numeric text). */
export interface AccountSums {
  accountCode: string;
  sums: { debit: string; credit: string }[];
}

const day = (date: string) => new Date(`${date}T00:00:00Z`);
const iso = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (date: string, n: number) => iso(new Date(day(date).getTime() + n * 86_400_000));
const monthStart = (date: string) => `${date.slice(0, 7)}-01`;
const nextMonthStart = (date: string) => {
  const d = day(monthStart(date));
  return iso(new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)));
};

/** The day before a date: the end of the opening range of a report starting on it. */
export const dayBefore = (date: string) => addDays(date, -1);

const monthEnd = (date: string) => dayBefore(nextMonthStart(date));
/** Days from `a` to `b`, both counted. */
const daysFrom = (a: string, b: string) => Math.round((day(b).getTime() - day(a).getTime()) / 86_400_000) + 1;

/** A range as whole months of the balances and day ranges of entries added (sign 1) or taken away (sign -1). */
export interface SplitRange {
  /** `[from, before)`, month starts; from null: from the start of the books. Null: no month of the balances. */
  months: { from: string | null; before: string } | null;
  /** Inclusive day ranges of entries, each within one month. */
  days: { from: string; to: string; sign: 1 | -1 }[];
}

/**
 * A range as the whole months it covers and the days of its part-months at either end. A part-month is read from the
 * entries of its days in the range, or — when those are the larger part of the month — as the month's balance less
 * the entries of its days outside the range: at most half a month of entries at each end.
 */
export function splitRange(range: DateRange): SplitRange {
  const { from, to } = range;
  const days: SplitRange["days"] = [];
  const add = (a: string, b: string, sign: 1 | -1) => {
    if (a <= b) days.push({ from: a, to: b, sign });
  };
  if (from !== null && monthStart(from) === monthStart(to)) {
    const first = monthStart(from);
    const inside = daysFrom(from, to);
    if (daysFrom(first, monthEnd(to)) - inside >= inside) {
      add(from, to, 1);
      return { months: null, days };
    }
    add(first, dayBefore(from), -1);
    add(addDays(to, 1), monthEnd(to), -1);
    return { months: { from: first, before: nextMonthStart(to) }, days };
  }
  let fromMonth: string | null = null;
  if (from !== null) {
    const first = monthStart(from);
    if (from === first) fromMonth = first;
    else if (daysFrom(first, dayBefore(from)) < daysFrom(from, monthEnd(from))) {
      fromMonth = first;
      add(first, dayBefore(from), -1);
    } else {
      fromMonth = nextMonthStart(from);
      add(from, monthEnd(from), 1);
    }
  }
  let before: string;
  if (to === monthEnd(to)) before = nextMonthStart(to);
  else if (daysFrom(addDays(to, 1), monthEnd(to)) < daysFrom(monthStart(to), to)) {
    before = nextMonthStart(to);
    add(addDays(to, 1), monthEnd(to), -1);
  } else {
    before = monthStart(to);
    add(monthStart(to), to, 1);
  }
  return { months: fromMonth !== null && fromMonth >= before ? null : { from: fromMonth, before }, days };
}

/** Which lines a sum covers and how it groups them. */
export interface SumsOf {
  /** Only this account's lines. */
  accountCode?: string;
  /**
   * Group by account and partner, over the lines that name a partner (`codes`: only those partners' lines); without
   * it, by account over every line.
   */
  partners?: { codes?: string[] };
}

/**
 * The statement of the sums of `ranges` (`SumsOf`): rows of `account_code` (and `partner_code` when grouped by
 * partner) and numeric `d<k>`, `c<k>` for range k, with `?` bindings — one pass over the company's balances (a
 * FILTER per range) and an index range of entries per part-month, for a caller to read or to build on.
 */
export function sumsQuery(companyId: string, ranges: DateRange[], of: SumsOf = {}): { sql: string; bindings: string[] } | null {
  const split = ranges.map(splitRange);
  const keys = of.partners ? "account_code, partner_code" : "account_code";
  const scope = ["company_id = ?"];
  const scopeBindings = [companyId];
  if (of.accountCode !== undefined) {
    scope.push("account_code = ?");
    scopeBindings.push(of.accountCode);
  }
  if (of.partners?.codes) {
    if (!of.partners.codes.length) return null;
    scope.push(`partner_code in (${of.partners.codes.map(() => "?").join(", ")})`);
    scopeBindings.push(...of.partners.codes);
  } else if (of.partners) scope.push("partner_code is not null");
  const where = scope.join(" and ");
  const columns = (i: number, debit: string, credit: string) =>
    ranges.map((_, k) => (k === i ? `${debit} as d${k}, ${credit} as c${k}` : `0::numeric as d${k}, 0::numeric as c${k}`)).join(", ");
  const parts: string[] = [];
  const bindings: string[] = [];

  const monthly = split.map((s) => s.months);
  if (monthly.some((m) => m !== null)) {
    const filters: string[] = [];
    const filterBindings: string[] = [];
    monthly.forEach((m, k) => {
      if (m === null) filters.push(`0::numeric as d${k}, 0::numeric as c${k}`);
      else {
        const cond = m.from === null ? "month < ?" : "month >= ? and month < ?";
        const values = m.from === null ? [m.before] : [m.from, m.before];
        filters.push(`coalesce(sum(debit) filter (where ${cond}), 0) as d${k}, coalesce(sum(credit) filter (where ${cond}), 0) as c${k}`);
        filterBindings.push(...values, ...values);
      }
    });
    const lows = monthly.filter((m) => m !== null).map((m) => m.from);
    const low = lows.includes(null) ? null : (lows as string[]).sort()[0];
    const high = monthly
      .filter((m) => m !== null)
      .map((m) => m.before)
      .sort()
      .at(-1)!;
    parts.push(
      `select ${keys}, ${filters.join(", ")} from ledger_balances where ${where} and month < ?${low === null ? "" : " and month >= ?"} group by ${keys}`,
    );
    bindings.push(...filterBindings, ...scopeBindings, high, ...(low === null ? [] : [low]));
  }
  // A part-month's days: per account from the day balances; per partner from the partner's lines.
  const [dayTable, dayColumn] = of.partners ? ["journal_entries", "date"] : ["ledger_day_balances", "day"];
  split.forEach((s, i) => {
    for (const d of s.days) {
      const sign = d.sign < 0 ? "-" : "";
      parts.push(
        `select ${keys}, ${columns(i, `${sign}sum(debit)`, `${sign}sum(credit)`)} from ${dayTable} where ${where} and ${dayColumn} >= ? and ${dayColumn} <= ? group by ${keys}`,
      );
      bindings.push(...scopeBindings, d.from, d.to);
    }
  });
  if (!parts.length) return null;
  const totals = ranges.map((_, k) => `sum(d${k}) as d${k}, sum(c${k}) as c${k}`).join(", ");
  return { sql: `select ${keys}, ${totals} from (${parts.join("\n union all\n")}) p group by ${keys}`, bindings };
}

/**
 * Each account's debits and credits in each range (accounts with no line in any range are left out); `accountCode`
 * limits it to one account. One statement (`sumsQuery`).
 */
export async function accountSums(db: Db, companyId: string, ranges: DateRange[], accountCode?: string): Promise<AccountSums[]> {
  const query = sumsQuery(companyId, ranges, accountCode === undefined ? {} : { accountCode });
  if (!query) return [];
  const text = ranges.map((_, k) => `d${k}::text as d${k}, c${k}::text as c${k}`).join(", ");
  const { rows } = await db.raw<{ rows: Record<string, string>[] }>(`select account_code, ${text} from (${query.sql}) s`, query.bindings);
  return rows.map((r) => ({ accountCode: r.account_code, sums: ranges.map((_, k) => ({ debit: r[`d${k}`], credit: r[`c${k}`] })) }));
}
