import { listGroups } from "../../../assets/groups.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("assets_groups_list", (ctx) => listGroups(ctx.db, requireCompany(ctx).id, ctx.body));
