import { createSaleInvoice } from "../../../invoicing/sales.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("sales_invoices_create", (ctx) => createSaleInvoice(ctx.db, requireCompany(ctx), ctx.body));
