import { deletePartnerAddress } from "../../../partners/addresses.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("partners_addresses_delete", (ctx) => deletePartnerAddress(ctx.db, requireCompany(ctx).id, ctx.body.id));
