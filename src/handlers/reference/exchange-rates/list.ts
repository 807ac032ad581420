import { listEffectiveRates } from "../../../reference/exchange-rates.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("reference_exchange_rates_list", (ctx) => listEffectiveRates(ctx.db, requireCompany(ctx).id, ctx.body));
