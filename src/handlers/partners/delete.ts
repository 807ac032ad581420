import { deletePartner } from "../../partners/partners.js";
import { defineHandler, requireCompany } from "../types.js";

export default defineHandler("partners_delete", (ctx) => deletePartner(ctx.db, requireCompany(ctx).id, ctx.body));
