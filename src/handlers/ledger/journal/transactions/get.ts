import { getTransaction } from "../../../../ledger/journal.js";
import { defineHandler, requireCompany } from "../../../types.js";

export default defineHandler("ledger_journal_transactions_get", (ctx) => getTransaction(ctx.db, requireCompany(ctx).id, ctx.body.id));
