import { createPartnerAddress } from "../../../partners/addresses.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("partners_addresses_create", (ctx) => createPartnerAddress(ctx.db, requireCompany(ctx).id, ctx.body));
