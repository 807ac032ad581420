import { createWarehouse } from "../../../inventory/warehouses.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("inventory_warehouses_create", (ctx) => createWarehouse(ctx.db, requireCompany(ctx).id, ctx.body));
