import { listWarehouses } from "../../../inventory/warehouses.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("inventory_warehouses_list", (ctx) => listWarehouses(ctx.db, requireCompany(ctx).id, ctx.body));
