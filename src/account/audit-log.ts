import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import type { AuditLogRow } from "../db/rows.js";
import type { Principal } from "../auth/principal.js";
import { runList, type ListRequest, type ListSpec } from "../shared/list-engine.js";

type AuditRecord = components["schemas"]["Account.AuditRecord"];

const listSpec: ListSpec = {
  fields: {
    id: { column: "id", type: "integer" },
    occurredAt: { column: "occurred_at", type: "timestamp" },
    operation: { column: "operation", type: "string" },
    companyId: { column: "company_id", type: "uuid" },
    keyId: { column: "key_id", type: "uuid" },
    requestId: { column: "request_id", type: "string" },
    targetId: { column: "target_ids", type: "textArray", sort: false },
  },
  tieBreaker: "id",
  defaultSort: [{ field: "id", dir: "desc" }],
};

/** The account's audit records; a key restricted to some companies sees only theirs. */
export async function listAuditLog(db: Db, principal: Principal, request: ListRequest) {
  const result = await runList<AuditLogRow>(
    db,
    () => {
      const q = db("audit_log").where("account_id", principal.accountId);
      if (principal.companyIds) q.whereIn("company_id", principal.companyIds);
      return q;
    },
    listSpec,
    request,
    ["*"],
  );
  const rows: AuditRecord[] = result.rows.map((r) => ({
    id: Number(r.id),
    occurredAt: r.occurred_at.toISOString(),
    operation: r.operation,
    companyId: r.company_id,
    keyId: r.key_id,
    targetIds: r.target_ids,
    summary: r.summary as AuditRecord["summary"],
    requestId: r.request_id,
  }));
  return { ...result, rows };
}
