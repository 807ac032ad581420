import { requireSectionScopes, validateBooks } from "../../../migration/books.js";
import { defineHandler, requireCompany, requireOffloaded } from "../../types.js";
import { offloadedBooks } from "./offload.js";

export default defineHandler("migration_books_validate", (ctx) => {
  // The package stays in the worker thread that parsed it (x-large-body); the handler holds its digest.
  const input = offloadedBooks(requireOffloaded(ctx));
  requireSectionScopes(ctx.principal.scopes, input.digest.sections);
  return validateBooks(ctx.db, requireCompany(ctx), input);
});
