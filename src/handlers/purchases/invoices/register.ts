import { registerPurchaseInvoice } from "../../../purchases/invoices.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("purchases_invoices_register", async (ctx) => {
  const invoice = await registerPurchaseInvoice(ctx.db, requireCompany(ctx), ctx.principal.keyId, ctx.body.id);
  ctx.audit.summary = {
    documentNumber: invoice.documentNumber,
    partnerCode: invoice.partnerCode,
    type: invoice.type,
    grossTotal: invoice.grossTotal,
    currency: invoice.currency,
  };
  return invoice;
});
