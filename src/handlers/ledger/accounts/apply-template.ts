import { applyTemplate } from "../../../ledger/accounts.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("ledger_accounts_apply_template", (ctx) => applyTemplate(ctx.db, requireCompany(ctx).id, ctx.body.template));
