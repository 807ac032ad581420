import { updateAsset } from "../../../assets/assets.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("assets_assets_update", (ctx) => updateAsset(ctx.db, requireCompany(ctx).id, ctx.body));
