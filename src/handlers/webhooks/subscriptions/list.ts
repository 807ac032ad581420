import { listSubscriptions } from "../../../webhooks/subscriptions.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("webhooks_subscriptions_list", (ctx) => listSubscriptions(ctx.db, requireCompany(ctx).id, ctx.body));
