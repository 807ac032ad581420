import { unmatchTransaction } from "../../../bank/matching.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("bank_transactions_unmatch", (ctx) => unmatchTransaction(ctx.db, requireCompany(ctx).id, ctx.principal.keyId, ctx.body));
