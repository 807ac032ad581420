import { listAuditLog } from "../../../account/audit-log.js";
import { defineHandler } from "../../types.js";

export default defineHandler("account_audit_log_list", ({ db, principal, body }) => listAuditLog(db, principal, body));
