import { listOwners } from "../../../ledger/owners.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("ledger_owners_list", (ctx) => listOwners(ctx.db, requireCompany(ctx).id, ctx.body));
