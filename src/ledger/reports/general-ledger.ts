// ledger/reports/general-ledger: the lines of one account in a range with a running balance.
import type { components } from "../../../generated/types.js";
import type { Db } from "../../db/connection.js";
import type { JournalEntriesRow, JournalTransactionsRow, LedgerAccountsRow } from "../../db/rows.js";
import { Decimal } from "../../shared/decimal.js";
import { ApiError, notFound } from "../../shared/errors.js";
import { accountSums, dayBefore } from "./balances.js";
import { checkRange, money } from "./common.js";

type GeneralLedger = components["schemas"]["Ledger.GeneralLedger"];
type Request = components["schemas"]["Ledger.GeneralLedgerRequest"];

/** A line of the account with its transaction's number, type and reference; the line's description or else the transaction's. */
type Line = Pick<JournalEntriesRow, "date" | "transaction_id" | "line_no" | "partner_code" | "debit" | "credit"> &
  Pick<JournalTransactionsRow, "number" | "document_type" | "reference"> & { description: string | null };

/** A report is one response: past this many lines the client asks for a shorter range (see the contract). */
export const GENERAL_LEDGER_MAX_ENTRIES = 10_000;

export async function generalLedger(db: Db, companyId: string, input: Request): Promise<GeneralLedger> {
  checkRange(input);
  const account = await db<LedgerAccountsRow>("ledger_accounts").where({ company_id: companyId, code: input.accountCode }).first("code", "name", "type");
  if (!account) throw notFound("The account", "ledger_account.not_found", { code: input.accountCode });
  const [opening, entries]: [{ balance: string }, Line[]] = await Promise.all([
    // The balance before `from`: whole months from the balances, the month's first days from the entries (./balances.ts).
    accountSums(db, companyId, [{ from: null, to: dayBefore(input.from) }], input.accountCode).then(([sums]) => ({
      balance: sums ? new Decimal(sums.sums[0].debit).minus(sums.sums[0].credit).toString() : "0",
    })),
    // Posting order within a day: the transaction's commit-time stamp, then its id, then the line.
    db("journal_entries as e")
      .join("journal_transactions as t", function () {
        this.on("t.company_id", "e.company_id").andOn("t.id", "e.transaction_id");
      })
      .where({ "e.company_id": companyId, "e.account_code": input.accountCode })
      .whereBetween("e.date", [input.from, input.to])
      .orderBy([{ column: "e.date" }, { column: "t.created_at" }, { column: "t.id" }, { column: "e.line_no" }])
      .limit(GENERAL_LEDGER_MAX_ENTRIES + 1)
      .select(
        "e.date",
        "e.transaction_id",
        "e.line_no",
        "t.number",
        "t.document_type",
        "t.reference",
        "e.partner_code",
        db.raw("coalesce(e.description, t.description) as description"),
        db.raw("e.debit::text"),
        db.raw("e.credit::text"),
      ),
  ]);
  if (entries.length > GENERAL_LEDGER_MAX_ENTRIES) {
    throw new ApiError("unprocessable", `The account has more than ${GENERAL_LEDGER_MAX_ENTRIES} lines in the range; ask for a shorter range.`, {
      key: "report.too_many_entries",
      params: { limit: GENERAL_LEDGER_MAX_ENTRIES },
    });
  }
  let balance = new Decimal(opening.balance);
  let debit = new Decimal(0);
  let credit = new Decimal(0);
  const lines = entries.map((e) => {
    balance = balance.plus(e.debit).minus(e.credit);
    debit = debit.plus(e.debit);
    credit = credit.plus(e.credit);
    return {
      date: e.date,
      transactionId: e.transaction_id,
      lineNo: e.line_no,
      number: e.number,
      documentType: e.document_type,
      description: e.description,
      reference: e.reference,
      partnerCode: e.partner_code,
      debit: money(e.debit),
      credit: money(e.credit),
      balance: money(balance),
    };
  });
  return {
    account: { code: account.code, name: account.name, type: account.type },
    from: input.from,
    to: input.to,
    openingBalance: money(opening.balance),
    entries: lines,
    debit: money(debit),
    credit: money(credit),
    closingBalance: money(balance),
  };
}
