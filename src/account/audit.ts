// The audit log: every successful mutation of every module writes one record in the mutation's own transaction
// (src/http/pipeline.ts calls recordAudit; handlers may refine the note). Records cannot be changed (trigger).
import type { Db } from "../db/connection.js";
import { preparedQuery } from "../db/prepared.js";

/** What a handler may say about its mutation; the defaults are derived from the operation and its result. */
export interface AuditNote {
  /** Defaults to the operation's path as dotted words (`partners.create`). */
  operation?: string;
  /** Defaults to the result's `id`. */
  targetIds?: string[];
  /** Defaults to the identifying scalars of the result (code, number, name, date...). */
  summary?: Record<string, unknown>;
  /**
   * The operation's last statement, run right before commit, which writes the audit record itself (`row`, the
   * columns recordAudit would insert). For a document numbered from a series (src/sales/numbering.ts): its
   * series row stays locked from that statement to the commit, so nothing else may run in between.
   */
  finish?: (trx: Db, row: AuditRow) => Promise<void>;
}

/** The columns of one audit_log row as recordAudit writes it. */
export interface AuditRow {
  account_id: string;
  company_id: string | null;
  key_id: string | null;
  operation: string;
  target_ids: string[];
  summary: Record<string, unknown>;
  request_id: string;
}

export interface AuditContext {
  accountId: string;
  companyId: string | null;
  /** null for the operator CLI. */
  keyId: string | null;
  requestId: string;
  operationPath: string;
}

const SUMMARY_FIELDS = [
  "code",
  "number",
  "name",
  "date",
  "documentType",
  "currencyCode",
  "rate",
  "month",
  "template",
  "imported",
  "created",
  "existing",
  "rule",
  "accountCode",
  "prefix",
  "year",
];

export function defaultOperation(operationPath: string): string {
  return operationPath
    .replace(/^\/v1\//, "")
    .split("/")
    .join(".");
}

export function auditRow(context: AuditContext, note: AuditNote, result: unknown): AuditRow {
  const r = (result && typeof result === "object" ? result : {}) as Record<string, unknown>;
  const targetIds = note.targetIds ?? (typeof r.id === "string" ? [r.id] : []);
  const summary = note.summary ?? Object.fromEntries(SUMMARY_FIELDS.filter((f) => ["string", "number", "boolean"].includes(typeof r[f])).map((f) => [f, r[f]]));
  return {
    account_id: context.accountId,
    company_id: context.companyId,
    key_id: context.keyId,
    operation: note.operation ?? defaultOperation(context.operationPath),
    target_ids: targetIds,
    summary,
    request_id: context.requestId,
  };
}

// Every mutation's last statement (src/http/pipeline.ts): prepared once per connection, not built and planned anew.
const AUDIT_INSERT_SQL = `
  insert into audit_log (account_id, company_id, key_id, operation, target_ids, summary, request_id)
  values ($1::uuid, $2::uuid, $3::uuid, $4::text, $5::text[], $6::jsonb, $7::text)`;

export async function recordAudit(trx: Db, context: AuditContext, note: AuditNote, result: unknown): Promise<void> {
  const row = auditRow(context, note, result);
  await preparedQuery(trx, "audit_insert", AUDIT_INSERT_SQL, [
    row.account_id,
    row.company_id,
    row.key_id,
    row.operation,
    row.target_ids,
    JSON.stringify(row.summary),
    row.request_id,
  ]);
}
