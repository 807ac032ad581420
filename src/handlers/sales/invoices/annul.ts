import { annulSaleInvoice } from "../../../sales/annul.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("sales_invoices_annul", (ctx) => annulSaleInvoice(ctx.db, requireCompany(ctx), ctx.principal.keyId, ctx.body.id));
