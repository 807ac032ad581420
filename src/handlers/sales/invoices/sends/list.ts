import { listSaleInvoiceSends } from "../../../../sales/send.js";
import { defineHandler, requireCompany } from "../../../types.js";

export default defineHandler("sales_invoices_sends_list", (ctx) => listSaleInvoiceSends(ctx.db, requireCompany(ctx).id, ctx.body));
