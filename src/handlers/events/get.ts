import { getEvent } from "../../events/store.js";
import { defineHandler, requireCompany } from "../types.js";

export default defineHandler("events_get", (ctx) => getEvent(ctx.db, requireCompany(ctx).id, ctx.body.id));
