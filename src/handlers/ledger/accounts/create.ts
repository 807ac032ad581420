import { createAccount } from "../../../ledger/accounts.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("ledger_accounts_create", (ctx) => createAccount(ctx.db, requireCompany(ctx).id, ctx.body));
