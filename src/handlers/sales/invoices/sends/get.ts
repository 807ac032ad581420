import { getSaleInvoiceSend } from "../../../../sales/send.js";
import { defineHandler, requireCompany } from "../../../types.js";

export default defineHandler("sales_invoices_sends_get", (ctx) => getSaleInvoiceSend(ctx.db, requireCompany(ctx).id, ctx.body.id));
