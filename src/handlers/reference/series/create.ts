import { createSeries } from "../../../reference/number-series.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("reference_series_create", (ctx) => createSeries(ctx.db, requireCompany(ctx).id, ctx.body));
