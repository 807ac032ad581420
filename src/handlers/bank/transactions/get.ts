import { getTransaction } from "../../../bank/transactions.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("bank_transactions_get", (ctx) => getTransaction(ctx.db, requireCompany(ctx).id, ctx.body.id));
