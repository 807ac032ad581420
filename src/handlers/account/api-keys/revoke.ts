import { revokeApiKey } from "../../../account/api-keys.js";
import { defineHandler } from "../../types.js";

export default defineHandler("account_api_keys_revoke", ({ db, principal, body }) => revokeApiKey(db, principal, body.id));
