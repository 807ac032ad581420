import { listSeries } from "../../../reference/number-series.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("reference_series_list", (ctx) => listSeries(ctx.db, requireCompany(ctx).id, ctx.body));
