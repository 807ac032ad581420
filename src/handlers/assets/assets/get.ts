import { getAsset } from "../../../assets/assets.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("assets_assets_get", (ctx) => getAsset(ctx.db, requireCompany(ctx).id, ctx.body.id));
