import { createGroup } from "../../../assets/groups.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("assets_groups_create", (ctx) => createGroup(ctx.db, requireCompany(ctx).id, ctx.body));
