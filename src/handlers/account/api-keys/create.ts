import { createApiKey } from "../../../account/api-keys.js";
import { defineHandler } from "../../types.js";

export default defineHandler("account_api_keys_create", ({ db, principal, body }) => createApiKey(db, principal, body));
