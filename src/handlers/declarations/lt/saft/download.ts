import { downloadSaft } from "../../../../declarations/index.js";
import { defineHandler, requireCompany } from "../../../types.js";

export default defineHandler("declarations_lt_saft_download", (ctx) => downloadSaft(ctx.db, requireCompany(ctx).id, ctx.body.id, ctx.body.part));
