import { listAccounts } from "../../../ledger/accounts.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("ledger_accounts_list", (ctx) => listAccounts(ctx.db, requireCompany(ctx).id, ctx.body));
