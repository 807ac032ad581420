import { markSubmission } from "../../../declarations/index.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("declarations_submissions_mark", async (ctx) => {
  const submission = await markSubmission(ctx.db, requireCompany(ctx).id, ctx.principal.keyId, ctx.body);
  ctx.audit.summary = { declaration: submission.declaration, period: submission.period, version: submission.version, status: submission.status };
  return submission;
});
