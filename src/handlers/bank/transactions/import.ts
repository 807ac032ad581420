import { importTransactions } from "../../../bank/transactions.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("bank_transactions_import", (ctx) => importTransactions(ctx.db, requireCompany(ctx).id, ctx.body));
