import { listBankAccounts } from "../../../bank/accounts.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("bank_accounts_list", (ctx) => listBankAccounts(ctx.db, requireCompany(ctx).id, ctx.body));
