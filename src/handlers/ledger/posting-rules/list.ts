import { listPostingRules } from "../../../ledger/posting-rules.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("ledger_posting_rules_list", (ctx) => listPostingRules(ctx.db, requireCompany(ctx).id, ctx.body));
