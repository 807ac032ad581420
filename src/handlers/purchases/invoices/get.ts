import { getPurchaseInvoice } from "../../../purchases/invoices.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("purchases_invoices_get", (ctx) => getPurchaseInvoice(ctx.db, requireCompany(ctx).id, ctx.body.id));
