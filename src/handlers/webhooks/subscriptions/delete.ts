import { deleteSubscription } from "../../../webhooks/subscriptions.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("webhooks_subscriptions_delete", (ctx) => deleteSubscription(ctx.db, requireCompany(ctx).id, ctx.body.id));
