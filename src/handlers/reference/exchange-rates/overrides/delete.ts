import { deleteOverride } from "../../../../reference/exchange-rates.js";
import { defineHandler, requireCompany } from "../../../types.js";

export default defineHandler("reference_exchange_rates_overrides_delete", (ctx) => deleteOverride(ctx.db, requireCompany(ctx).id, ctx.body));
