import { createCompanyAddress } from "../../../../partners/index.js";
import { defineHandler, requireCompany } from "../../../types.js";

export default defineHandler("account_companies_addresses_create", (ctx) => createCompanyAddress(ctx.db, requireCompany(ctx).id, ctx.body));
