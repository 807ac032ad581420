import { createCompany } from "../../../account/companies.js";
import { defineHandler } from "../../types.js";

export default defineHandler("account_companies_create", ({ db, principal, body }) => createCompany(db, principal, body));
