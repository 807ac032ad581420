import { trialBalance } from "../../../ledger/reports/trial-balance.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("ledger_reports_trial_balance", (ctx) => trialBalance(ctx.db, requireCompany(ctx).id, ctx.body));
