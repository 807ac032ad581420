// ledger/reports/trial-balance: one aggregate over the journal up to `to`, split at `from` by FILTER clauses.
import type { components } from "../../../generated/types.js";
import type { Db } from "../../db/connection.js";
import { Decimal } from "../../shared/decimal.js";
import { checkRange, money } from "./common.js";

type TrialBalance = components["schemas"]["Ledger.TrialBalance"];

interface Row {
  account_code: string;
  name: string;
  type: TrialBalance["rows"][number]["type"];
  opening: string;
  debit: string;
  credit: string;
}

export async function trialBalance(db: Db, companyId: string, range: { from: string; to: string }): Promise<TrialBalance> {
  checkRange(range);
  // Sums are numeric in SQL; the rows carry strings, added up with decimal.js below.
  const { rows } = await db.raw<{ rows: Row[] }>(
    `select s.account_code, a.name, a.type, s.opening::text, s.debit::text, s.credit::text
       from (select account_code,
                    coalesce(sum(debit - credit) filter (where date < :from), 0) as opening,
                    coalesce(sum(debit) filter (where date >= :from), 0) as debit,
                    coalesce(sum(credit) filter (where date >= :from), 0) as credit
               from journal_entries
              where company_id = :companyId and date <= :to
              group by account_code) s
       join ledger_accounts a on a.company_id = :companyId and a.code = s.account_code
      where s.opening <> 0 or s.debit <> 0 or s.credit <> 0
      order by s.account_code collate "C"`,
    { companyId, from: range.from, to: range.to },
  );
  const totals = { opening: new Decimal(0), debit: new Decimal(0), credit: new Decimal(0), closing: new Decimal(0) };
  const out = rows.map((r) => {
    const closing = new Decimal(r.opening).plus(r.debit).minus(r.credit);
    totals.opening = totals.opening.plus(r.opening);
    totals.debit = totals.debit.plus(r.debit);
    totals.credit = totals.credit.plus(r.credit);
    totals.closing = totals.closing.plus(closing);
    return {
      accountCode: r.account_code,
      name: r.name,
      type: r.type,
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
