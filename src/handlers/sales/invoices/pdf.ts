import { saleInvoicePdf } from "../../../sales/pdf.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("sales_invoices_pdf", (ctx) => saleInvoicePdf(ctx.db, requireCompany(ctx).id, ctx.body.id, { issuer: ctx.body.issuer }));
