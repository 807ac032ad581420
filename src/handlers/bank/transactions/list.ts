import { listTransactions } from "../../../bank/transactions.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("bank_transactions_list", (ctx) => listTransactions(ctx.db, requireCompany(ctx).id, ctx.body));
