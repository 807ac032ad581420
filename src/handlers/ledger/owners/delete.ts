import { deleteOwner } from "../../../ledger/owners.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("ledger_owners_delete", (ctx) => deleteOwner(ctx.db, requireCompany(ctx).id, ctx.body.id));
