import { requireSectionScopes, validateBooks } from "../../../migration/books.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("migration_books_validate", (ctx) => {
  requireSectionScopes(ctx.principal.scopes, ctx.body);
  return validateBooks(ctx.db, requireCompany(ctx), ctx.body);
});
