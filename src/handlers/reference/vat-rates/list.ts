import { listVatRates } from "../../../reference/vat-rates.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("reference_vat_rates_list", (ctx) => listVatRates(ctx.db, requireCompany(ctx).countryCode, ctx.body));
