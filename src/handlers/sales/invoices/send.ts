import { queueSaleInvoiceSend } from "../../../sales/send.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("sales_invoices_send", (ctx) => queueSaleInvoiceSend(ctx.db, ctx.config, requireCompany(ctx).id, ctx.principal.keyId, ctx.body));
