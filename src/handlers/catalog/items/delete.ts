import { deleteCatalogItem } from "../../../catalog/items.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("catalog_items_delete", (ctx) => deleteCatalogItem(ctx.db, requireCompany(ctx).id, ctx.body));
