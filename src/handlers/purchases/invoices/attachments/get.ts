import { getPurchaseInvoiceAttachment } from "../../../../purchases/attachments.js";
import { defineHandler, requireCompany } from "../../../types.js";

export default defineHandler("purchases_invoices_attachments_get", (ctx) => getPurchaseInvoiceAttachment(ctx.db, requireCompany(ctx).id, ctx.body.id));
