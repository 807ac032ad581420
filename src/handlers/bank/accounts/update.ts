import { updateBankAccount } from "../../../bank/accounts.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("bank_accounts_update", (ctx) => updateBankAccount(ctx.db, requireCompany(ctx).id, ctx.body));
