import { listOverrides } from "../../../../reference/exchange-rates.js";
import { defineHandler, requireCompany } from "../../../types.js";

export default defineHandler("reference_exchange_rates_overrides_list", (ctx) => listOverrides(ctx.db, requireCompany(ctx).id, ctx.body));
