import { generalLedger } from "../../../ledger/reports/general-ledger.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("ledger_reports_general_ledger", (ctx) => generalLedger(ctx.db, requireCompany(ctx).id, ctx.body));
