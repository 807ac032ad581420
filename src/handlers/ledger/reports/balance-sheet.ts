import { balanceSheet } from "../../../ledger/reports/balance-sheet.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("ledger_reports_balance_sheet", (ctx) => balanceSheet(ctx.db, requireCompany(ctx).id, ctx.body.date));
