import { deleteCompanyAddress } from "../../../../partners/index.js";
import { defineHandler, requireCompany } from "../../../types.js";

export default defineHandler("account_companies_addresses_delete", (ctx) => deleteCompanyAddress(ctx.db, requireCompany(ctx).id, ctx.body.id));
