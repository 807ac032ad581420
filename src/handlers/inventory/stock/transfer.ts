import { transferStock } from "../../../inventory/stock.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("inventory_stock_transfer", (ctx) => transferStock(ctx.db, requireCompany(ctx).id, ctx.principal.keyId, ctx.body));
