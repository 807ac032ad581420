import { createBankAccount } from "../../../bank/accounts.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("bank_accounts_create", (ctx) => createBankAccount(ctx.db, requireCompany(ctx).id, ctx.body));
