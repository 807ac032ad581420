import { importBooks, requireSectionScopes } from "../../../migration/books.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("migration_books_import", async (ctx) => {
  requireSectionScopes(ctx.principal.scopes, ctx.body);
  const result = await importBooks(ctx.db, requireCompany(ctx), ctx.principal.keyId, ctx.body);
  // Rule 13: the audit record carries the result as its summary.
  ctx.audit.operation = "migration.imported";
  ctx.audit.targetIds = result.openingBalances?.journalTransactionId ? [result.openingBalances.journalTransactionId] : [];
  ctx.audit.summary = result;
  return result;
});
