import { rotateSecret } from "../../../webhooks/subscriptions.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("webhooks_subscriptions_rotate_secret", async (ctx) => {
  const rotated = await rotateSecret(ctx.db, ctx.config, requireCompany(ctx).id, ctx.body.id);
  // Never the secret: only that a rotation happened and until when the old one signs.
  ctx.audit.summary = { previousSecretExpiresAt: rotated.previousSecretExpiresAt };
  return rotated;
});
