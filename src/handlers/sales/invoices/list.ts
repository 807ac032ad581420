import { listSaleInvoices } from "../../../sales/invoices.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("sales_invoices_list", (ctx) => listSaleInvoices(ctx.db, requireCompany(ctx).id, ctx.body));
