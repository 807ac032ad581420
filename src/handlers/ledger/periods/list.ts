import { listPeriods } from "../../../ledger/periods.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("ledger_periods_list", (ctx) => listPeriods(ctx.db, requireCompany(ctx).id, ctx.body));
