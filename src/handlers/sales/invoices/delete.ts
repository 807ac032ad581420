import { deleteSaleInvoice } from "../../../sales/invoices.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("sales_invoices_delete", (ctx) => deleteSaleInvoice(ctx.db, requireCompany(ctx).id, ctx.body.id));
