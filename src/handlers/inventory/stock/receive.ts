import { receiveStock } from "../../../inventory/stock.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("inventory_stock_receive", (ctx) => receiveStock(ctx.db, requireCompany(ctx).id, ctx.principal.keyId, ctx.body));
