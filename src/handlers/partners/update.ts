import { updatePartner } from "../../partners/partners.js";
import { defineHandler, requireCompany } from "../types.js";

export default defineHandler("partners_update", (ctx) => updatePartner(ctx.db, requireCompany(ctx).id, ctx.body));
