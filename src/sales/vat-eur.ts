// A sales document's VAT in EUR as its posting credited it to the output VAT account (issue 25): what the PDF of a
// document in another currency prints ("PVM eurais / VAT in EUR") and its e-invoice carries (BT-111). The posting
// converted every part with convertParts (src/invoicing/totals.ts), whose cents depend on all the parts, so the
// figure is read from the posting itself, not converted again.
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import type { JournalEntriesRow, PostingRulesRow } from "../db/rows.js";
import { Decimal } from "../shared/decimal.js";

type SaleInvoice = components["schemas"]["Sales.SaleInvoice"];

/** The VAT the document's posting credited to the output VAT account, in EUR (BT-111 of a foreign-currency document). */
export async function postedVatEur(db: Db, companyId: string, invoice: SaleInvoice): Promise<Decimal> {
  const rule = await db<PostingRulesRow>("posting_rules").where({ company_id: companyId, rule: "sales.vatPayable" }).first("account_code");
  const rows: Pick<JournalEntriesRow, "debit" | "credit">[] =
    invoice.journalTransactionId && rule
      ? await db<JournalEntriesRow>("journal_entries")
          .where({ company_id: companyId, transaction_id: invoice.journalTransactionId, account_code: rule.account_code })
          .select("debit", "credit")
      : [];
  // A credit note debits the VAT it gives back; either way the document's VAT is a positive amount here.
  const posted = rows.reduce((sum, r) => sum.plus(r.credit).minus(r.debit), new Decimal(0)).abs();
  if (rows.length || new Decimal(invoice.vatTotal).isZero() || !invoice.rate) return posted;
  // The rule's account changed since posting: the VAT converted at the document's rate.
  return new Decimal(invoice.vatTotal).dividedBy(invoice.rate.rate).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}
