import { getSaleInvoice } from "../../../sales/invoices.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("sales_invoices_get", (ctx) => getSaleInvoice(ctx.db, requireCompany(ctx).id, ctx.body.id));
