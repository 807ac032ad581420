import { issueSaleInvoice } from "../../../invoicing/sales.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("sales_invoices_issue", async (ctx) => {
  const invoice = await issueSaleInvoice(ctx.db, requireCompany(ctx), ctx.principal.keyId, ctx.body.id);
  ctx.audit.summary = { number: invoice.number, type: invoice.type, grossTotal: invoice.grossTotal, currency: invoice.currency };
  return invoice;
});
