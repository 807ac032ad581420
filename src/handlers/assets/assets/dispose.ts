import { disposeAsset } from "../../../assets/disposal.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("assets_assets_dispose", (ctx) => disposeAsset(ctx.db, requireCompany(ctx).id, ctx.principal.keyId, ctx.body));
