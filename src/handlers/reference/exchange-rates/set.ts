import { setOverride } from "../../../reference/exchange-rates.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("reference_exchange_rates_set", (ctx) => setOverride(ctx.db, requireCompany(ctx).id, ctx.principal.keyId, ctx.body));
