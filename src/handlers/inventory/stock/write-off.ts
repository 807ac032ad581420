import { writeOffStock } from "../../../inventory/stock.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("inventory_stock_write_off", (ctx) => writeOffStock(ctx.db, requireCompany(ctx).id, ctx.principal.keyId, ctx.body));
