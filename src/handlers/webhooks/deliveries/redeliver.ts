import { redeliver } from "../../../webhooks/deliveries.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("webhooks_deliveries_redeliver", (ctx) => redeliver(ctx.db, requireCompany(ctx).id, ctx.body));
