import { listEvents } from "../../events/store.js";
import { defineHandler, requireCompany } from "../types.js";

export default defineHandler("events_list", (ctx) => listEvents(ctx.db, requireCompany(ctx).id, ctx.body));
