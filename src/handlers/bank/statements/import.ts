import { importStatement } from "../../../bank/statements.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("bank_statements_import", (ctx) => importStatement(ctx.db, requireCompany(ctx).id, ctx.principal.keyId, ctx.body));
