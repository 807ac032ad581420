import { getBankAccount } from "../../../bank/accounts.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("bank_accounts_get", (ctx) => getBankAccount(ctx.db, requireCompany(ctx).id, ctx.body.id));
