import { lockPeriods } from "../../../ledger/periods.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("ledger_periods_lock", async (ctx) => {
  const result = await lockPeriods(ctx.db, requireCompany(ctx).id, ctx.principal.keyId, ctx.body);
  ctx.audit.summary = { months: result.locked.map((p) => p.month) };
  return result;
});
