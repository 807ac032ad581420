import { updateSubscription } from "../../../webhooks/subscriptions.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("webhooks_subscriptions_update", async (ctx) => {
  const updated = await updateSubscription(ctx.db, ctx.config, requireCompany(ctx).id, ctx.body);
  ctx.audit.summary = { status: updated.status };
  return updated;
});
