import { updateGroup } from "../../../assets/groups.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("assets_groups_update", (ctx) => updateGroup(ctx.db, requireCompany(ctx).id, ctx.body));
