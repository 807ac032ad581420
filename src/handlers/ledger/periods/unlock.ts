import { unlockPeriod } from "../../../ledger/periods.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("ledger_periods_unlock", (ctx) => unlockPeriod(ctx.db, requireCompany(ctx).id, ctx.body));
