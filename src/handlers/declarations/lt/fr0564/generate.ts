import { generateFr0564 } from "../../../../declarations/index.js";
import { defineHandler, requireCompany } from "../../../types.js";

export default defineHandler("declarations_lt_fr0564_generate", (ctx) => generateFr0564(ctx.db, requireCompany(ctx).id, ctx.body.period, ctx.principal.keyId));
