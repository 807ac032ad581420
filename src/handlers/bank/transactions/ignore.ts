import { ignoreTransaction } from "../../../bank/transactions.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("bank_transactions_ignore", (ctx) => ignoreTransaction(ctx.db, requireCompany(ctx).id, ctx.body));
