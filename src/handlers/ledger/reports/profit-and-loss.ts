import { profitAndLoss } from "../../../ledger/reports/profit-and-loss.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("ledger_reports_profit_and_loss", (ctx) => profitAndLoss(ctx.db, requireCompany(ctx).id, ctx.body));
