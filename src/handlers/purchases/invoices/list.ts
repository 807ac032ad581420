import { listPurchaseInvoices } from "../../../purchases/invoices.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("purchases_invoices_list", (ctx) => listPurchaseInvoices(ctx.db, requireCompany(ctx).id, ctx.body));
