import { importBooks, requireSectionScopes } from "../../../migration/books.js";
import { defineHandler, requireCompany, requireOffloaded } from "../../types.js";
import { offloadedBooks } from "./offload.js";

export default defineHandler("migration_books_import", async (ctx) => {
  // The package stays in the worker thread that parsed it (x-large-body); the handler holds its digest.
  const input = offloadedBooks(requireOffloaded(ctx));
  requireSectionScopes(ctx.principal.scopes, input.digest.sections);
  const result = await importBooks(ctx.db, requireCompany(ctx), { keyId: ctx.principal.keyId, requestId: ctx.requestId }, input);
  // Rule 13: the audit record carries the result as its summary.
  ctx.audit.operation = "migration.imported";
  ctx.audit.targetIds = result.openingBalances?.journalTransactionId ? [result.openingBalances.journalTransactionId] : [];
  ctx.audit.summary = result;
  return result;
});
