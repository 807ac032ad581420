// SAF-T LT 2.01 payments (data type `PA`): SourceDocuments/Payments of shared/schemas/lt/SAFT_2_01.xsd. A payment is
// a journal transaction the bank module posts when a bank statement line is matched (document type `payment`,
// src/bank/matching.ts): its bank line, a line per invoice paid (on the receivable or payable account, naming the
// partner, the invoice's number as its description) or per account, and the realized exchange difference. The
// payments of the range are written in the journal's order (date, id), `partSize` a part (SAFT_PART_SIZE), read in
// keyset pages of `fetchRows` with their lines; the master files (./saft.ts masterFor: the customers and suppliers)
// go in part 1. A payment whose match was later undone stays (its reversal is a `reversal` transaction of the GL).
//
// What each element holds (the XSD's annotations; what the XSD leaves open is marked "choice"):
//   PaymentRefNo         the bank's reference of the statement line (the transaction's reference), else its number,
//                        else its id (cut to 35 characters).
//   PeriodYear           the year the company's financial year of the payment starts in.
//   TransactionID        the journal transaction as the GL file names it (its number, else its id).
//   PaymentMethod        BP (bank transfer): every payment is a bank statement line.
//   BankAccount          the counterparty's IBAN from the statement line, when it has one.
//   Line                 each journal line: its account; SourceDocumentID the invoice's number on a line that names a
//                        partner (the line's description, as matching writes it); CustomerID the partner on an asset
//                        account, SupplierID on any other (the other element empty: the XSD requires both, choice);
//                        D/K and the EUR amount, with the currency amount of a foreign-currency payment.
//   GrossTotal           the transaction's total (its debits).
//   NumberOfEntries, TotalDebit, TotalCredit (per part)
//                        the part's payments and the sums of their lines' debits and credits (equal).
import type { Db } from "../../db/connection.js";
import { plainQuery } from "../../db/prepared.js";
import { Decimal } from "../../shared/decimal.js";
import type { XmlWriter } from "../xml-writer.js";
import {
  type SaftCompany,
  type SaftPartWritten,
  type SaftRequest,
  type SaftSizes,
  cut,
  fiscalPeriod,
  money,
  type SaftFrame,
  closePart,
  openPart,
} from "./saft.js";

const PAYMENT = "payment";

/** A part of the file: its payments and their total (their lines' debits, equal to their credits). */
export interface SaftPaymentPartPlan {
  payments: number;
  total: string;
}

/** The parts of the range's payments, `partSize` each in file order (at least one part, empty without payments). */
export async function planSaftPaymentParts(db: Db, companyId: string, range: { from: string; to: string }, partSize: number): Promise<SaftPaymentPartPlan[]> {
  const rows = await plainQuery<{ payments: number; total: string }>(
    db,
    `select count(*)::int as payments, sum(total)::text as total
       from (select (row_number() over (order by date, id) - 1) / $5::bigint as part, total
               from journal_transactions where company_id = $1 and date between $2::date and $3::date and document_type = $4) t
      group by part order by part`,
    [companyId, range.from, range.to, PAYMENT, partSize],
  );
  if (!rows.length) return [{ payments: 0, total: "0" }];
  return rows;
}

interface PaymentRow {
  id: string;
  number: string | null;
  date: string;
  description: string | null;
  reference: string | null;
  total: string;
  counterparty_iban: string | null;
}

interface LineRow {
  transaction_id: string;
  line_no: number;
  account_code: string;
  debit: string;
  credit: string;
  partner_code: string | null;
  currency: string | null;
  currency_amount: string | null;
  description: string | null;
  account_type: string | null;
}

async function readPage(db: Db, companyId: string, range: { from: string; to: string }, after: { date: string; id: string } | undefined, limit: number) {
  const payments = await plainQuery<PaymentRow>(
    db,
    `select t.id, t.number, t.date::text as date, t.description, t.reference, t.total::text as total, b.counterparty_iban
       from journal_transactions t
       -- source_id is text: cast only a bank transaction's (CASE decides before the cast runs).
       left join bank_transactions b
         on b.company_id = t.company_id and b.id = (case when t.source_type = 'bank_transaction' then t.source_id::uuid end)
      where t.company_id = $1 and t.date between $2::date and $3::date and t.document_type = $4
        and ($5::date is null or (t.date, t.id) > ($5::date, $6::uuid))
      order by t.date, t.id limit $7`,
    [companyId, range.from, range.to, PAYMENT, after?.date ?? null, after?.id ?? null, limit],
  );
  const lines = await plainQuery<LineRow>(
    db,
    `select e.transaction_id, e.line_no, e.account_code, e.debit::text as debit, e.credit::text as credit, e.partner_code, e.currency,
            e.currency_amount::text as currency_amount, e.description, a.type as account_type
       from journal_entries e
       left join ledger_accounts a on a.company_id = e.company_id and a.code = e.account_code
      where e.company_id = $1 and e.transaction_id = any($2::uuid[])
      order by e.transaction_id, e.line_no`,
    [companyId, payments.map((p) => p.id)],
  );
  const byPayment = new Map<string, LineRow[]>();
  for (const line of lines) byPayment.set(line.transaction_id, [...(byPayment.get(line.transaction_id) ?? []), line]);
  return { payments, lines: byPayment };
}

function writePayment(w: XmlWriter, company: SaftCompany, payment: PaymentRow, lines: LineRow[]): Decimal {
  const transaction = payment.number ?? payment.id;
  const { year } = fiscalPeriod(payment.date, company.fiscalYearStartMonth);
  w.open("Payment")
    .text("PaymentRefNo", cut(payment.reference ?? transaction, 35))
    .text("PeriodYear", year)
    .text("TransactionID", cut(transaction, 70))
    .text("TransactionDate", payment.date)
    .text("PaymentMethod", "BP");
  if (payment.counterparty_iban) w.open("BankAccount").text("IBANNumber", cut(payment.counterparty_iban, 35)).close("BankAccount");
  w.text("Description", cut(payment.description || `Mokėjimas / Payment ${transaction}`, 256)).open("Lines");
  let debits = new Decimal(0);
  for (const line of lines) {
    const credit = line.debit === "0.00";
    const partner = line.partner_code ?? "";
    const customer = line.partner_code !== null && line.account_type === "asset";
    w.open("Line").text("LineNumber", line.line_no);
    if (line.partner_code && line.description) w.text("SourceDocumentID", cut(line.description, 35));
    w.text("AccountID", line.account_code)
      .text("CustomerID", customer ? cut(partner, 35) : "")
      .text("SupplierID", customer ? "" : cut(partner, 35));
    if (line.description) w.text("Description", cut(line.description, 256));
    w.text("DebitCreditIndicator", credit ? "K" : "D")
      .open("PaymentLineAmount")
      .text("Amount", credit ? line.credit : line.debit);
    if (line.currency && line.currency_amount) w.text("CurrencyCode", line.currency).text("CurrencyAmount", line.currency_amount);
    w.close("PaymentLineAmount").close("Line");
    if (!credit) debits = debits.plus(line.debit);
  }
  w.close("Lines")
    .text("GrossTotal", money(new Decimal(payment.total)))
    .close("Payment")
    .newline();
  return debits;
}

/** Writes every part of a PA file in order (`plan`: planSaftPaymentParts in the same transaction), each to `onPart`. */
export async function writeSaftPayments(
  db: Db,
  companyId: string,
  company: SaftCompany,
  request: SaftRequest,
  frame: SaftFrame,
  plan: SaftPaymentPartPlan[],
  sizes: SaftSizes,
  onPart: (part: SaftPartWritten) => Promise<void>,
): Promise<void> {
  const parts = plan.length;
  let after: { date: string; id: string } | undefined;
  for (let partNumber = 1; partNumber <= parts; partNumber++) {
    const { payments, total } = plan[partNumber - 1];
    const w = openPart(company, request, frame, partNumber);
    const totals = money(new Decimal(total));
    if (payments) {
      w.open("SourceDocuments").open("Payments").text("NumberOfEntries", payments).text("TotalDebit", totals).text("TotalCredit", totals).newline();
    }
    let written = 0;
    let debits = new Decimal(0);
    while (written < payments) {
      const page = await readPage(db, companyId, request, after, Math.min(sizes.fetchRows, payments - written));
      if (!page.payments.length) break;
      for (const payment of page.payments) {
        debits = debits.plus(writePayment(w, company, payment, page.lines.get(payment.id) ?? []));
        written++;
      }
      const last = page.payments[page.payments.length - 1];
      after = { date: last.date, id: last.id };
    }
    if (written !== payments || !debits.equals(total)) {
      throw new Error(`writeSaftPayments: part ${partNumber} wrote ${written} payments (${debits}), its plan ${payments} (${total})`);
    }
    if (payments) w.close("Payments").close("SourceDocuments").newline();
    await onPart(closePart(w, company, request, frame, partNumber, written));
  }
}
