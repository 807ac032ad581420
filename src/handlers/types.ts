// What a handler is. One file per operation at src/handlers/<path after /v1>.ts, default-exporting
// `defineHandler("<operationId>", fn)`. The pipeline (src/http/pipeline.ts) has already authenticated,
// rate-limited, checked the scope, validated the body against the contract, resolved the company and,
// for a mutating operation, opened the transaction `db` (committed after the handler returns).
import type { operations } from "../../generated/types.js";
import type { AuditNote } from "../account/audit.js";
import type { Config } from "../config.js";
import type { Db } from "../db/connection.js";
import type { CompanyContext, Principal } from "../auth/principal.js";
import type { StreamedJson } from "../shared/json-stream.js";

export type OperationId = keyof operations;

type JsonContent<T> = T extends { content: { "application/json": infer B } } ? B : never;

export type RequestOf<Op extends OperationId> = JsonContent<NonNullable<operations[Op]["requestBody"]>>;
export type ResponseOf<Op extends OperationId> = JsonContent<operations[Op]["responses"][200]>;

/**
 * The body of an operation marked `x-large-body` (src/http/large-bodies.ts): parsed and validated in a worker thread,
 * where it stays for the request (a 32 MB package would hold the event loop for seconds); the handler holds what the
 * operation's offload module (src/handlers/offloaded.ts) digested of it, and runs that module's tasks on it there.
 */
export interface OffloadedBody {
  readonly digest: unknown;
  run<T>(task: string, args: unknown): Promise<T>;
}

export interface HandlerContext<Op extends OperationId> {
  /** The validated body, with the contract's defaults filled in; not set for an `x-large-body` operation (`offloaded`). */
  body: RequestOf<Op>;
  /** The body of an `x-large-body` operation, in its worker thread. */
  offloaded?: OffloadedBody;
  /** The transaction of a mutating operation; the pool for a read. */
  db: Db;
  principal: Principal;
  /** The company of a company-scoped operation (`x-company-scoped`), else null. */
  company: CompanyContext | null;
  requestId: string;
  config: Config;
  /** A mutating handler may refine what the audit log records about it (src/account/audit.ts). */
  audit: AuditNote;
}

/** What a handler answers: the operation's response, or (a large one) the same as a stream of JSON text. */
export type Answer<Op extends OperationId> = ResponseOf<Op> | StreamedJson<ResponseOf<Op>>;

export type Handler<Op extends OperationId = OperationId> = ((ctx: HandlerContext<Op>) => Promise<Answer<Op>>) & {
  operationId: Op;
};

export function defineHandler<Op extends OperationId>(operationId: Op, fn: (ctx: HandlerContext<Op>) => Promise<Answer<Op>>): Handler<Op> {
  return Object.assign(fn, { operationId });
}

/** The company of a company-scoped operation; present whenever the contract says the operation is company-scoped. */
export function requireCompany(ctx: { company: CompanyContext | null }): CompanyContext {
  if (!ctx.company) throw new Error("handler of a company-scoped operation ran without a company");
  return ctx.company;
}

/** The body of an `x-large-body` operation; present whenever the contract marks the operation so. */
export function requireOffloaded(ctx: { offloaded?: OffloadedBody }): OffloadedBody {
  if (!ctx.offloaded) throw new Error("handler of an x-large-body operation ran without its offloaded body");
  return ctx.offloaded;
}

/** What a worker thread does with the body of an `x-large-body` operation (src/handlers/offloaded.ts). */
export interface OffloadModule {
  digest(body: unknown): unknown;
  tasks: Record<string, (body: unknown, args: unknown) => unknown>;
}
