import { getAccount } from "../../../ledger/accounts.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("ledger_accounts_get", (ctx) => getAccount(ctx.db, requireCompany(ctx).id, ctx.body));
