import { listCatalogItems } from "../../../catalog/items.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("catalog_items_list", (ctx) => listCatalogItems(ctx.db, requireCompany(ctx).id, ctx.body));
