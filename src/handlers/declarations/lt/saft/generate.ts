import { requestSaft } from "../../../../declarations/index.js";
import { defineHandler, requireCompany } from "../../../types.js";

export default defineHandler("declarations_lt_saft_generate", (ctx) => requestSaft(ctx.db, requireCompany(ctx).id, ctx.principal.keyId, ctx.body));
