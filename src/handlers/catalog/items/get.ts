import { getCatalogItem } from "../../../catalog/items.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("catalog_items_get", (ctx) => getCatalogItem(ctx.db, requireCompany(ctx).id, ctx.body));
