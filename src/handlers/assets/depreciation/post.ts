import { postDepreciation } from "../../../assets/depreciation.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("assets_depreciation_post", (ctx) => postDepreciation(ctx.db, requireCompany(ctx).id, ctx.principal.keyId, ctx.body.month));
