import { listCompanyAddresses } from "../../../../partners/index.js";
import { defineHandler, requireCompany } from "../../../types.js";

export default defineHandler("account_companies_addresses_list", (ctx) => listCompanyAddresses(ctx.db, requireCompany(ctx).id, ctx.body));
