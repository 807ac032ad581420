import { listMovements } from "../../../../inventory/reports.js";
import { defineHandler, requireCompany } from "../../../types.js";

export default defineHandler("inventory_stock_movements_list", (ctx) => listMovements(ctx.db, requireCompany(ctx).id, ctx.body));
