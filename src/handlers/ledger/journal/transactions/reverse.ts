import { reverseTransaction } from "../../../../ledger/journal.js";
import { defineHandler, requireCompany } from "../../../types.js";

export default defineHandler("ledger_journal_transactions_reverse", (ctx) => reverseTransaction(ctx.db, requireCompany(ctx).id, ctx.principal.keyId, ctx.body));
