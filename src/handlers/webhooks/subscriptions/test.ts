import { pingSubscription } from "../../../webhooks/ping.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("webhooks_subscriptions_test", (ctx) => pingSubscription(ctx.db, ctx.config, requireCompany(ctx).id, ctx.body.id));
