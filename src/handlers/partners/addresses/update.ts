import { updatePartnerAddress } from "../../../partners/addresses.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("partners_addresses_update", (ctx) => updatePartnerAddress(ctx.db, requireCompany(ctx).id, ctx.body));
