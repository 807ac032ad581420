import { createPurchaseInvoice } from "../../../purchases/invoices.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("purchases_invoices_create", (ctx) => createPurchaseInvoice(ctx.db, requireCompany(ctx), ctx.body));
