import { reverseDepreciation } from "../../../assets/reversal.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("assets_depreciation_reverse", (ctx) => reverseDepreciation(ctx.db, requireCompany(ctx).id, ctx.principal.keyId, ctx.body.month));
