import { listPurchaseInvoiceAttachments } from "../../../../purchases/attachments.js";
import { defineHandler, requireCompany } from "../../../types.js";

export default defineHandler("purchases_invoices_attachments_list", (ctx) => listPurchaseInvoiceAttachments(ctx.db, requireCompany(ctx).id, ctx.body));
