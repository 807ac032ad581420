import { exportPayments } from "../../../bank/payments.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("bank_payments_export", (ctx) => exportPayments(ctx.db, requireCompany(ctx).id, ctx.body));
