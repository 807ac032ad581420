import { balanceSheet } from "../../../ledger/reports/balance-sheet.js";
import { defineHandler, requireCompany } from "../../types.js";

// The day is `asOf`, or the deprecated `date`: the contract's oneOf lets exactly one of them through.
export default defineHandler("ledger_reports_balance_sheet", (ctx) => balanceSheet(ctx.db, requireCompany(ctx).id, (ctx.body.asOf ?? ctx.body.date)!));
