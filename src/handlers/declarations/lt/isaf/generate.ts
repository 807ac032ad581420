import { generateIsaf, isafSizes } from "../../../../declarations/index.js";
import { defineHandler, requireCompany } from "../../../types.js";

export default defineHandler("declarations_lt_isaf_generate", (ctx) => generateIsaf(ctx.db, requireCompany(ctx).id, ctx.body, isafSizes(ctx.config)));
