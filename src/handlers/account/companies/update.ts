import { updateCompany } from "../../../account/companies.js";
import { defineHandler } from "../../types.js";

export default defineHandler("account_companies_update", ({ db, principal, body }) => updateCompany(db, principal, body));
