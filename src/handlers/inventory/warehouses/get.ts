import { getWarehouse } from "../../../inventory/warehouses.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("inventory_warehouses_get", (ctx) => getWarehouse(ctx.db, requireCompany(ctx).id, ctx.body));
