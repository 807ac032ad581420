import { partnerStatement } from "../../partners/balances.js";
import { defineHandler, requireCompany } from "../types.js";

export default defineHandler("partners_statement", (ctx) => partnerStatement(ctx.db, requireCompany(ctx).id, ctx.body));
