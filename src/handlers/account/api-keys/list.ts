import { listApiKeys } from "../../../account/api-keys.js";
import { defineHandler } from "../../types.js";

export default defineHandler("account_api_keys_list", ({ db, principal, body }) => listApiKeys(db, principal, body));
