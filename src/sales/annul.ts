// `sales/invoices/annul` (issue 24, item 7; i.SAF InvoiceType AN): an issued invoice (or debit note) that was never
// valid — nothing paid on it, no credit or debit note correcting it — keeps its number, its posting is reversed on its
// own issue date (a reversal transaction through the ledger's one reversal, postReversal, which posts through the one
// posting function), and it becomes `annulled` with nothing outstanding. The database lets an issued document become
// annulled once and then never change (invoice_frozen, sale_invoices_annulled_complete).
//
// Goods: an invoice that took stock is refused (409 sale_invoice.annul_stock_taken). Reversing its posting would undo
// the cost of sales in the ledger while the goods stayed out of stock; the credit note's return (returnToStock)
// brings them back at the cost they were taken at, through the stock module's own path, and is the way to undo such
// a sale.
import type { CompanyContext } from "../auth/principal.js";
import type { Db } from "../db/connection.js";
import type { SaleInvoicesRow } from "../db/rows.js";
import { emitEvent } from "../events/index.js";
import { linesOf, livePartners } from "../invoicing/index.js";
import { postReversal } from "../ledger/index.js";
import { conflict, notFound } from "../shared/errors.js";
import { saleInvoiceToApi, type SaleInvoice, withSendState } from "./invoices.js";

// What decides whether the document may be annulled, read with the document locked: a live bank allocation to it
// (a payment matched and not unmatched), an issued credit or debit note correcting it, a stock operation of its issue.
const ANNUL_READ_SQL = `
  select exists (select 1 from bank_allocations a join bank_matches m on m.company_id = a.company_id and m.id = a.match_id
                  where a.company_id = :company and a.sale_invoice_id = :id and m.unmatched_at is null) as paid,
         (select min(n.number) from sale_invoices n
           where n.company_id = :company and n.credited_invoice_id = :id and n.status <> 'draft') as corrected_by,
         exists (select 1 from stock_operations o
                  where o.company_id = :company and o.journal_transaction_id = :journal) as took_stock`;

export async function annulSaleInvoice(trx: Db, company: CompanyContext, keyId: string, id: string): Promise<SaleInvoice> {
  const row = await trx<SaleInvoicesRow>("sale_invoices").where({ company_id: company.id, id }).forUpdate().first();
  if (!row) throw notFound("The sales invoice", "sale_invoice.not_found", { id });
  const params = { id, number: row.number, status: row.status };
  if (row.status === "draft")
    throw conflict("The invoice is a draft: delete it (sales/invoices/delete); only an issued invoice is annulled.", "sale_invoice.not_issued", params);
  if (row.status === "annulled") throw conflict(`The invoice ${row.number} is annulled already.`, "sale_invoice.already_annulled", params);
  if (row.migrated) {
    // An open item of the historical books: its posting is the opening balance it shares with every other item.
    throw conflict(
      `${row.number} was imported with the historical books (its posting is the opening balance): correct it with a credit note.`,
      "sale_invoice.annul_migrated",
      params,
    );
  }
  if (row.type === "credit_note") {
    throw conflict(
      `${row.number} is a credit note: it is corrected by another document (an invoice or debit note), never annulled.`,
      "sale_invoice.annul_credit_note",
      params,
    );
  }
  const {
    rows: [read],
  } = await trx.raw<{ rows: { paid: boolean; corrected_by: string | null; took_stock: boolean }[] }>(ANNUL_READ_SQL, {
    company: company.id,
    id,
    journal: row.journal_transaction_id,
  });
  if (read.paid || Number(row.paid_amount) > 0) {
    throw conflict(
      `A payment is matched to ${row.number}: an invoice that was paid was valid; unmatch the payment (bank/transactions/unmatch) or credit the invoice.`,
      "sale_invoice.annul_paid",
      { ...params, paidAmount: row.paid_amount },
    );
  }
  if (read.corrected_by !== null || Number(row.credited_amount) > 0) {
    throw conflict(
      `${row.number} is corrected by ${read.corrected_by ?? "a credit note"}: an invoice that was corrected was valid.`,
      "sale_invoice.annul_credited",
      {
        ...params,
        correctedBy: read.corrected_by,
      },
    );
  }
  if (read.took_stock) {
    throw conflict(
      `${row.number} took goods out of stock: credit it with returnToStock instead, which brings them back at the cost they were taken at.`,
      "sale_invoice.annul_stock_taken",
      params,
    );
  }
  // The reversal of the invoice's posting, dated on its issue date: the month it was declared in (409 period.locked
  // when that month is locked).
  const reversal = await postReversal(trx, company.id, keyId, {
    id: row.journal_transaction_id!,
    date: row.issue_date,
    description: `Annulment of sales ${row.type === "debit_note" ? "debit note" : "invoice"} ${row.number}`,
  });
  const [annulled] = await trx<SaleInvoicesRow>("sale_invoices")
    .where({ company_id: company.id, id })
    .update({ status: "annulled", outstanding: "0.00", annulled_at: trx.fn.now(), annulment_transaction_id: reversal.id, updated_at: trx.fn.now() })
    .returning("*");
  const [lines, partners] = await Promise.all([linesOf(trx, "sale_invoice_lines", company.id, [id]), livePartners(trx, company.id, [annulled])]);
  const [api] = await withSendState(trx, company.id, [saleInvoiceToApi(annulled, lines.get(id)!, partners.get(annulled.partner_code))]);
  await emitEvent(trx, company.id, "sale_invoice.annulled", api);
  return api;
}
