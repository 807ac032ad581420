// The audit log: every successful mutation of every module writes one record in the mutation's own transaction
// (src/http/pipeline.ts calls recordAudit; handlers may refine the note). Records cannot be changed (trigger).
import type { Db } from "../db/connection.js";
import { preparedQuery } from "../db/prepared.js";
import { SqlParams } from "../db/sql-params.js";

/** What a mutation may say about itself; the defaults are derived from the operation and its result. */
export interface AuditDetails {
  /** Defaults to the operation's path as dotted words (`partners.create`). */
  operation?: string;
  /** Defaults to the result's `id`. */
  targetIds?: string[];
  /** Defaults to the identifying scalars of the result (code, number, name, date...). */
  summary?: Record<string, unknown>;
}

/** A request's audit note, as a mutating handler receives it (`ctx.audit`): the details it may refine, and who asks. */
export interface AuditNote extends AuditDetails {
  /** The account, company, key, request and operation of the request: set by the pipeline. */
  readonly context: AuditContext;
  /**
   * Set by auditRecordOf when the mutation writes the record itself, in its own last statement: the pipeline then
   * writes none.
   */
  written?: boolean;
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

export function auditRow(context: AuditContext, note: AuditDetails, result: unknown): AuditRow {
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

/**
 * The insert of `row` into audit_log, with its values as parameters of `p`: the one text of an audit record's
 * write, for recordAudit and for a statement that writes the record among its own writes. `summary` may rewrite the
 * summary's SQL (jsonb) and `targetIds` give the targets' SQL (text[]: a row the statement itself creates), reading
 * the tables of `from`.
 */
export function auditInsertSql(p: SqlParams, row: AuditRow, options: { summary?: (json: string) => string; targetIds?: string; from?: string } = {}): string {
  const summary = p.jsonb(row.summary);
  return `insert into audit_log (account_id, company_id, key_id, operation, target_ids, summary, request_id)
    select ${p.uuid(row.account_id)}, ${p.uuid(row.company_id)}, ${p.uuid(row.key_id)}, ${p.text(row.operation)}, ${options.targetIds ?? p.texts(row.target_ids)},
           ${options.summary ? options.summary(summary) : summary}, ${p.text(row.request_id)}${options.from ? `\n      from ${options.from}` : ""}`;
}

// Every mutation's last statement (src/http/pipeline.ts): prepared once per connection, not built and planned anew.
export async function recordAudit(trx: Db, context: AuditContext, note: AuditDetails, result: unknown): Promise<void> {
  const p = new SqlParams();
  await preparedQuery(trx, "audit_insert", auditInsertSql(p, auditRow(context, note, result)), p.values);
}

/**
 * The record of a mutation that writes it in its own last statement, as data for that statement: a document's
 * issue, whose numbering statement holds its series row locked until commit, so that nothing may run after it
 * (src/sales/numbering.ts), and a sales draft's create (one write). The mutation names its targets and summary
 * (`details`, over what the handler set); the note is marked written, so the pipeline adds no record of its own, and
 * the statement must then be the transaction's last, as the pipeline's insert would have been
 * (commitBehindLastStatement, src/db/transaction.ts).
 */
export function auditRecordOf(note: AuditNote, details: AuditDetails): AuditRow {
  note.written = true;
  return auditRow(note.context, { ...note, ...details }, undefined);
}
