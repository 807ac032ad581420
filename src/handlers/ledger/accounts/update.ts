import { updateAccount } from "../../../ledger/accounts.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("ledger_accounts_update", (ctx) => updateAccount(ctx.db, requireCompany(ctx).id, ctx.body));
