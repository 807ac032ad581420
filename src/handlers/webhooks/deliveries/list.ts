import { listDeliveries } from "../../../webhooks/deliveries.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("webhooks_deliveries_list", (ctx) => listDeliveries(ctx.db, requireCompany(ctx).id, ctx.body));
