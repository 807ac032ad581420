import { updatePurchaseInvoice } from "../../../purchases/invoices.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("purchases_invoices_update", (ctx) => updatePurchaseInvoice(ctx.db, requireCompany(ctx), ctx.body));
