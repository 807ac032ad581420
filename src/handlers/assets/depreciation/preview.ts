import { previewDepreciation } from "../../../assets/depreciation.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("assets_depreciation_preview", (ctx) => previewDepreciation(ctx.db, requireCompany(ctx).id, ctx.body.month));
