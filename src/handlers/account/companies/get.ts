import { getCompany } from "../../../account/companies.js";
import { defineHandler } from "../../types.js";

export default defineHandler("account_companies_get", ({ db, principal, body }) => getCompany(db, principal, body.id));
