import { createCatalogItem } from "../../../catalog/items.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("catalog_items_create", (ctx) => createCatalogItem(ctx.db, requireCompany(ctx), ctx.body));
