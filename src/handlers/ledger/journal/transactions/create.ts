import { createManualTransaction } from "../../../../ledger/journal.js";
import { defineHandler, requireCompany } from "../../../types.js";

export default defineHandler("ledger_journal_transactions_create", (ctx) =>
  createManualTransaction(ctx.db, requireCompany(ctx).id, ctx.principal.keyId, ctx.body, ctx.audit),
);
