import { updateCompanyAddress } from "../../../../partners/index.js";
import { defineHandler, requireCompany } from "../../../types.js";

export default defineHandler("account_companies_addresses_update", (ctx) => updateCompanyAddress(ctx.db, requireCompany(ctx).id, ctx.body));
