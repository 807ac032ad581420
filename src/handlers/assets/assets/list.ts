import { listAssets } from "../../../assets/assets.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("assets_assets_list", (ctx) => listAssets(ctx.db, requireCompany(ctx).id, ctx.body));
