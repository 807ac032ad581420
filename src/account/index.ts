// The face of the account module: what other modules may use of it (issue 23; STYLE 20). Anything not exported here is
// the module's own business; dependency-cruiser (.dependency-cruiser.cjs) refuses an import past this file.
export { auditInsertSql, auditRecordOf, recordAudit, type AuditNote, type AuditRow } from "./audit.js";
