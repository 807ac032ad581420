import { getSubscription } from "../../../webhooks/subscriptions.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("webhooks_subscriptions_get", (ctx) => getSubscription(ctx.db, requireCompany(ctx).id, ctx.body.id));
