import { updateCatalogItem } from "../../../catalog/items.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("catalog_items_update", (ctx) => updateCatalogItem(ctx.db, requireCompany(ctx), ctx.body));
