import { listSubmissions } from "../../../declarations/index.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("declarations_submissions_list", (ctx) => listSubmissions(ctx.db, requireCompany(ctx).id, ctx.body));
