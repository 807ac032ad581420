import { updatePostingRule } from "../../../ledger/posting-rules.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("ledger_posting_rules_update", (ctx) => updatePostingRule(ctx.db, requireCompany(ctx).id, ctx.body));
