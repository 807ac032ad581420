import { listPartners } from "../../partners/partners.js";
import { defineHandler, requireCompany } from "../types.js";

export default defineHandler("partners_list", (ctx) => listPartners(ctx.db, requireCompany(ctx).id, ctx.body));
