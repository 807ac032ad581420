import { createPartner } from "../../partners/partners.js";
import { defineHandler, requireCompany } from "../types.js";

export default defineHandler("partners_create", (ctx) => createPartner(ctx.db, requireCompany(ctx).id, ctx.body));
