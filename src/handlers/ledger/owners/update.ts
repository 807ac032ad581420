import { updateOwner } from "../../../ledger/owners.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("ledger_owners_update", (ctx) => updateOwner(ctx.db, requireCompany(ctx).id, ctx.body));
