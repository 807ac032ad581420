import { getGroup } from "../../../assets/groups.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("assets_groups_get", (ctx) => getGroup(ctx.db, requireCompany(ctx).id, ctx.body.id));
