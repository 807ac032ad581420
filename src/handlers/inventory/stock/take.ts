import { takeStock } from "../../../inventory/stock.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("inventory_stock_take", (ctx) => takeStock(ctx.db, requireCompany(ctx).id, ctx.principal.keyId, ctx.body));
