import { createOwner } from "../../../ledger/owners.js";
import { defineHandler, requireCompany } from "../../types.js";

export default defineHandler("ledger_owners_create", (ctx) => createOwner(ctx.db, requireCompany(ctx).id, ctx.body));
