import { updateWarehouse } from "../../../inventory/warehouses.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("inventory_warehouses_update", (ctx) => updateWarehouse(ctx.db, requireCompany(ctx).id, ctx.body));
