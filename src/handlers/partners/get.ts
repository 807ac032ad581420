import { getPartner } from "../../partners/partners.js";
import { defineHandler, requireCompany } from "../types.js";

export default defineHandler("partners_get", (ctx) => getPartner(ctx.db, requireCompany(ctx).id, ctx.body));
