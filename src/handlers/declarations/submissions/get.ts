import { getSubmission } from "../../../declarations/index.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("declarations_submissions_get", (ctx) =>
  getSubmission(ctx.db, requireCompany(ctx).id, ctx.body.id, ctx.body.includeContent ?? false),
);
