import { createAsset } from "../../../assets/assets.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("assets_assets_create", (ctx) => createAsset(ctx.db, requireCompany(ctx).id, ctx.body));
