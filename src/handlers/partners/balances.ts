import { listPartnerBalances } from "../../partners/balances.js";
import { defineHandler, requireCompany } from "../types.js";

export default defineHandler("partners_balances", (ctx) => listPartnerBalances(ctx.db, requireCompany(ctx).id, ctx.body));
