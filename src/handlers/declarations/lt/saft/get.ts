import { getSaft } from "../../../../declarations/index.js";
import { defineHandler, requireCompany } from "../../../types.js";

export default defineHandler("declarations_lt_saft_get", (ctx) => getSaft(ctx.db, requireCompany(ctx).id, ctx.body.id));
