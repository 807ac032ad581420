import { issueSaleInvoice } from "../../../sales/invoices.js";
import { defineHandler, requireCompany } from "../../types.js";

// The numbering statement is the request's last and writes the audit record (ctx.audit, taken as data by the issue).
export default defineHandler("sales_invoices_issue", async (ctx) => issueSaleInvoice(ctx.db, requireCompany(ctx), ctx.principal.keyId, ctx.body.id, ctx.audit));
