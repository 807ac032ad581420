import { computeFr0600 } from "../../../../declarations/index.js";
import { defineHandler, requireCompany } from "../../../types.js";

export default defineHandler("declarations_lt_fr0600_compute", (ctx) => computeFr0600(ctx.db, requireCompany(ctx).id, ctx.body, ctx.principal.keyId));
