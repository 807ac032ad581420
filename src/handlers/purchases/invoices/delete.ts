import { deletePurchaseInvoice } from "../../../purchases/invoices.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("purchases_invoices_delete", (ctx) => deletePurchaseInvoice(ctx.db, requireCompany(ctx).id, ctx.body.id));
