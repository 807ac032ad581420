import { matchTransaction } from "../../../bank/matching.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("bank_transactions_match", (ctx) => matchTransaction(ctx.db, requireCompany(ctx), ctx.principal.keyId, ctx.body));
