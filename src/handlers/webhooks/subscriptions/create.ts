import { createSubscription } from "../../../webhooks/subscriptions.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("webhooks_subscriptions_create", async (ctx) => {
  const created = await createSubscription(ctx.db, ctx.config, requireCompany(ctx).id, ctx.principal.accountId, ctx.body);
  ctx.audit.summary = { status: created.status, eventTypes: created.eventTypes };
  return created;
});
