// What the ledger says a partner owes and is owed (issue 26): partners/balances and partners/statement read it here.
// A partner account is a balance-sheet account whose lines name the partner: the automatic postings name the partner
// exactly on the receivable (`sales.receivable`, `purchases.advancesPaid`: asset accounts) and payable
// (`purchases.payables`, `sales.advancesReceived`: liability accounts) lines, whatever account a posting rule points
// at now or pointed at then, and a manual journal line naming a partner on an asset or liability account counts the
// same way. So the receivable is the debit balance of the partner's lines on asset accounts, the payable the credit
// balance of its lines on liability accounts (an account with postings keeps its type, so a line never changes side);
// lines naming a partner on income, expense or equity accounts are no balance of the partner. The sums come from
// the balances per account, month and partner (./balances.ts): whole months from ledger_balances, the part-month at
// either end from the entries.
import type { Db } from "../../db/connection.js";
import { ApiError } from "../../shared/errors.js";
import { type DateRange, dayBefore, sumsQuery } from "./balances.js";

/** Which partner accounts: the receivable (asset) ones, the payable (liability) ones, or both. */
export type PartnerSide = "receivable" | "payable";

const TYPE_OF_SIDE = { receivable: "asset", payable: "liability" } as const;
const typesOf = (side: PartnerSide | undefined) => (side ? [TYPE_OF_SIDE[side]] : Object.values(TYPE_OF_SIDE));

/**
 * The statement of each partner's receivable and payable over `range` (numeric columns `partner_code`, `receivable`,
 * `payable`), with `?` bindings, for a list to join to the partners; `codes` limits it to those partners. Partners
 * without a line on a partner account in the range have no row.
 */
export function partnerBalancesQuery(companyId: string, range: DateRange, codes?: string[]): { sql: string; bindings: string[] } {
  const sums = sumsQuery(companyId, [range], { partners: codes ? { codes } : {} });
  if (!sums) return { sql: "select null::text as partner_code, 0::numeric as receivable, 0::numeric as payable where false", bindings: [] };
  return {
    sql: `select s.partner_code,
                 coalesce(sum(s.d0 - s.c0) filter (where a.type = 'asset'), 0) as receivable,
                 coalesce(sum(s.c0 - s.d0) filter (where a.type = 'liability'), 0) as payable
            from (${sums.sql}) s
            join ledger_accounts a on a.company_id = ? and a.code = s.account_code and a.type in ('asset', 'liability')
           group by s.partner_code`,
    bindings: [...sums.bindings, companyId],
  };
}

/** A partner's receivable and payable at the end of a day (numeric text). */
export async function partnerBalanceAt(db: Db, companyId: string, partnerCode: string, date: string): Promise<{ receivable: string; payable: string }> {
  const query = partnerBalancesQuery(companyId, { from: null, to: date }, [partnerCode]);
  const { rows } = await db.raw<{ rows: { receivable: string; payable: string }[] }>(
    `select receivable::text, payable::text from (${query.sql}) b`,
    query.bindings,
  );
  return rows[0] ?? { receivable: "0", payable: "0" };
}

/** One line of a partner's accounts, with its transaction's number, type, reference and source. */
export interface PartnerLine {
  date: string;
  transaction_id: string;
  line_no: number;
  account_code: string;
  account_type: "asset" | "liability";
  number: string | null;
  document_type: string;
  reference: string | null;
  source_type: string | null;
  source_id: string | null;
  description: string | null;
  debit: string;
  credit: string;
  currency: string | null;
  currency_amount: string | null;
}

/** A statement is one response: past this many lines the client asks for a shorter range (as the general ledger). */
export const PARTNER_STATEMENT_MAX_LINES = 10_000;

/**
 * The balance of the partner's accounts before `from` and their lines from `from` to `to` in posting order (date,
 * then the transaction's commit-time stamp, id and line, as the general ledger orders them). More than
 * PARTNER_STATEMENT_MAX_LINES lines is 422 `report.too_many_entries`.
 */
export async function partnerLedger(
  db: Db,
  companyId: string,
  partnerCode: string,
  range: { from: string; to: string },
  side?: PartnerSide,
): Promise<{ opening: { receivable: string; payable: string }; lines: PartnerLine[] }> {
  const types = typesOf(side);
  const [opening, lines] = await Promise.all([
    partnerBalanceAt(db, companyId, partnerCode, dayBefore(range.from)),
    db("journal_entries as e")
      .join("ledger_accounts as a", (j) => j.on("a.company_id", "e.company_id").andOn("a.code", "e.account_code"))
      .join("journal_transactions as t", (j) => j.on("t.company_id", "e.company_id").andOn("t.id", "e.transaction_id"))
      .where({ "e.company_id": companyId, "e.partner_code": partnerCode })
      .whereBetween("e.date", [range.from, range.to])
      .whereIn("a.type", types)
      .orderBy([{ column: "e.date" }, { column: "t.created_at" }, { column: "t.id" }, { column: "e.line_no" }])
      .limit(PARTNER_STATEMENT_MAX_LINES + 1)
      .select(
        "e.date",
        "e.transaction_id",
        "e.line_no",
        "e.account_code",
        "a.type as account_type",
        "t.number",
        "t.document_type",
        "t.reference",
        "t.source_type",
        "t.source_id",
        db.raw("coalesce(e.description, t.description) as description"),
        db.raw("e.debit::text"),
        db.raw("e.credit::text"),
        "e.currency",
        db.raw("e.currency_amount::text"),
      ) as Promise<PartnerLine[]>,
  ]);
  if (lines.length > PARTNER_STATEMENT_MAX_LINES) {
    throw new ApiError("unprocessable", `The partner has more than ${PARTNER_STATEMENT_MAX_LINES} lines in the range; ask for a shorter range.`, {
      key: "report.too_many_entries",
      params: { limit: PARTNER_STATEMENT_MAX_LINES },
    });
  }
  return {
    opening: side === "receivable" ? { ...opening, payable: "0" } : side === "payable" ? { ...opening, receivable: "0" } : opening,
    lines,
  };
}
