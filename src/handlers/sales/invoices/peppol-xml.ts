import { saleInvoicePeppolXml } from "../../../sales/peppol.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("sales_invoices_peppol_xml", (ctx) =>
  saleInvoicePeppolXml(ctx.db, requireCompany(ctx).id, ctx.body.id, { attachPdf: ctx.body.attachPdf ?? false, issuer: ctx.body.issuer }),
);
