import { updateSaleInvoice } from "../../../sales/invoices.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("sales_invoices_update", (ctx) => updateSaleInvoice(ctx.db, requireCompany(ctx), ctx.body));
