import { listCompanies } from "../../../account/companies.js";
import { defineHandler } from "../../types.js";

export default defineHandler("account_companies_list", ({ db, principal, body }) => listCompanies(db, principal, body));
