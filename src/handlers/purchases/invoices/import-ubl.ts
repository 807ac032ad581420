import { importUblPurchaseInvoice } from "../../../purchases/ubl-import.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("purchases_invoices_import_ubl", (ctx) => importUblPurchaseInvoice(ctx.db, requireCompany(ctx), ctx.body));
