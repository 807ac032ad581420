import { createSaleInvoice } from "../../../sales/invoices.js";
import { defineHandler, requireCompany } from "../../types.js";

// The draft's write is the request's last statement and writes the audit record (ctx.audit, taken as data by the create).
export default defineHandler("sales_invoices_create", (ctx) => createSaleInvoice(ctx.db, requireCompany(ctx), ctx.body, ctx.audit));
