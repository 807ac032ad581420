import { stockLevels } from "../../../inventory/reports.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("inventory_stock_levels", (ctx) => stockLevels(ctx.db, requireCompany(ctx).id, ctx.body));
