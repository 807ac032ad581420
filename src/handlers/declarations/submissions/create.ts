import { createSubmission, isafSizes } from "../../../declarations/index.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("declarations_submissions_create", async (ctx) => {
  const submission = await createSubmission(ctx.db, requireCompany(ctx).id, ctx.principal.keyId, ctx.body, isafSizes(ctx.config));
  ctx.audit.summary = {
    declaration: submission.declaration,
    period: submission.period,
    dataType: submission.dataType,
    version: submission.version,
    sha256: submission.sha256,
  };
  return submission;
});
