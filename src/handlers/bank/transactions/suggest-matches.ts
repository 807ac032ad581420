import { suggestMatches } from "../../../bank/suggestions.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("bank_transactions_suggest_matches", (ctx) => suggestMatches(ctx.db, requireCompany(ctx).id, ctx.body));
