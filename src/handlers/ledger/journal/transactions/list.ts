import { listTransactions } from "../../../../ledger/journal.js";
import { defineHandler, requireCompany } from "../../../types.js";

export default defineHandler("ledger_journal_transactions_list", (ctx) => listTransactions(ctx.db, requireCompany(ctx).id, ctx.body));
