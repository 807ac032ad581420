import { listPartnerAddresses } from "../../../partners/addresses.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("partners_addresses_list", (ctx) => listPartnerAddresses(ctx.db, requireCompany(ctx).id, ctx.body));
