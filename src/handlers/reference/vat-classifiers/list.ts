import { listVatClassifiers } from "../../../reference/vat-classifiers.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("reference_vat_classifiers_list", (ctx) => listVatClassifiers(ctx.db, requireCompany(ctx).countryCode, ctx.body));
