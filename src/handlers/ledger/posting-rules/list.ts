import { listPostingRules } from "../../../domain/posting-rules.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("ledger_posting_rules_list", (ctx) => listPostingRules(ctx.db, requireCompany(ctx).id, ctx.body));
