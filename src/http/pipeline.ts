// The path of every request that is not one of the fixed routes (/health, /openapi.*, /docs):
//   rate limit (per key, or per client address without a valid key) -> route (404) -> 401 -> scope (403)
//   -> billing (402) -> [x-large-body: admission (429)] -> body (413, 400) -> contract validation (400)
//   -> company (400/404) -> jurisdiction (422) -> handler, in one transaction with idempotency for a mutating operation.
// An x-large-body operation's body is parsed, validated and kept in a worker thread (./large-bodies.ts).
import { Readable } from "node:stream";
import type Koa from "koa";
import type { Config } from "../config.js";
import type { Db } from "../db/connection.js";
import { preparedQuery } from "../db/prepared.js";
import { commitBehindLastStatement, retryOnLostConnection, withTransaction } from "../db/transaction.js";
import { recordAudit, type AuditNote } from "../account/audit.js";
import { ApiError, unprocessable, validationError } from "../shared/errors.js";
import type { Handler, OffloadedBody } from "../handlers/types.js";
import type { Logger } from "../log.js";
import { bearerToken } from "../auth/keys.js";
import type { CompanyContext, Principal } from "../auth/principal.js";
import { grants } from "../auth/scopes.js";
import type { ErrorEnvelope } from "./envelope.js";
import { gate } from "./gate.js";
import { readBody, parseJsonBody } from "./body.js";
import { resolveCompany } from "./company.js";
import { requestHash, runIdempotent } from "./idempotency.js";
import { LargeBodies, UPLOAD_RETRY_AFTER_SECONDS } from "./large-bodies.js";
import type { ContractApi, OperationInfo } from "./openapi.js";
import type { RateLimitState } from "./rate-limit.js";
import { toFieldErrors } from "./validation.js";

export interface PipelineDeps {
  db: Db;
  config: Config;
  contract: ContractApi;
  handlers: Map<string, Handler>;
  log?: Logger;
}

export function apiPipeline({ db, config, contract, handlers, log }: PipelineDeps): Koa.Middleware {
  const byPath = new Map<string, OperationInfo>();
  for (const op of contract.operations.values()) byPath.set(op.path, op);
  const largeBodies = new LargeBodies(db, { slots: config.largeBodySlots, workers: config.largeBodyWorkers, document: contract.document }, log);

  return async (ctx) => {
    // The gate's one statement counts the request; on a lost connection it is sent again (a count that did commit
    // before the loss is then counted twice, which errs on the safe side).
    const { principal, rateLimit } = await retryOnLostConnection(() =>
      gate(
        db,
        { authorization: ctx.get("authorization") || undefined, companyHeader: ctx.get("x-company-id") || undefined, clientAddress: ctx.ip },
        config.rateLimitPerMinute,
      ),
    );
    applyRateLimit(ctx, rateLimit);

    const op = ctx.method === "POST" ? byPath.get(ctx.path) : undefined;
    if (!op) {
      throw new ApiError("not_found", `No operation ${ctx.method} ${ctx.path}. Every operation is POST /v1/{module}/{resource}/{action}.`, {
        key: "route.not_found",
        params: { method: ctx.method, path: ctx.path.slice(0, 200) },
      });
    }
    ctx.state.operationId = op.operationId;

    if (!principal) {
      const missing = !ctx.get("authorization");
      throw new ApiError("unauthorized", missing ? "An API key is required: send Authorization: Bearer <key>." : "The API key is not valid.", {
        key: missing ? "auth.key_missing" : "auth.key_invalid",
      });
    }
    ctx.state.keyId = principal.keyId;
    if (!grants(principal.scopes, op.requiredScope)) {
      throw new ApiError("forbidden", `This API key lacks the scope ${op.requiredScope}.`, {
        key: "auth.scope_missing",
        params: { requiredScope: op.requiredScope },
      });
    }
    if (principal.paymentRequired) {
      throw new ApiError("payment_required", "The account's trial has ended and its prepaid credit is used up.", { key: "billing.payment_required" });
    }

    if (!op.largeBody) {
      const body = parseJsonBody(ctx.get("content-type"), await readBody(ctx.req, op.bodyLimit));
      const validation = contract.backend.validator.validateRequest(
        { method: "post", path: ctx.path, headers: ctx.headers as Record<string, string>, body },
        op.operation,
      );
      if (!validation.valid) throw validationError(toFieldErrors(validation.errors ?? [], op.headerNames));
      return execute(ctx, op, principal, body, undefined);
    }
    // Before a byte of the body is read: one at a time per account (429), then the body into a worker thread.
    const endAdmission = await largeBodies.admit(principal.accountId).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 429) ctx.set("Retry-After", String(UPLOAD_RETRY_AFTER_SECONDS));
      throw error;
    });
    let offloaded: Awaited<ReturnType<LargeBodies["prepare"]>> | undefined;
    try {
      const raw = await readBody(ctx.req, op.bodyLimit);
      const withHash = op.mutating && !!ctx.get("idempotency-key");
      offloaded = await largeBodies.prepare(op, {
        contentType: ctx.get("content-type") || undefined,
        headers: ctx.headers as Record<string, string>,
        raw,
        withHash,
      });
      await execute(ctx, op, principal, undefined, offloaded);
    } finally {
      offloaded?.release();
      await endAdmission();
    }
  };

  async function execute(
    ctx: Koa.Context,
    op: OperationInfo,
    principal: Principal,
    body: unknown,
    offloaded: (OffloadedBody & { requestHash?: string }) | undefined,
  ): Promise<void> {
    const company = op.companyScoped ? resolveCompany(principal, ctx.get("x-company-id") || undefined) : null;
    if (op.jurisdiction && company!.countryCode.toLowerCase() !== op.jurisdiction) {
      throw unprocessable(`This operation is for companies registered in ${op.jurisdiction.toUpperCase()}.`, "jurisdiction.mismatch", {
        jurisdiction: op.jurisdiction.toUpperCase(),
        companyCountry: company!.countryCode,
      });
    }

    const handler = handlers.get(op.operationId)!;
    const requestId: string = ctx.state.requestId;
    const auditContext = { accountId: principal.accountId, companyId: company?.id ?? null, keyId: principal.keyId, requestId, operationPath: op.path };
    const call = (handlerDb: Db, audit: AuditNote) => handler({ body: body as never, offloaded, db: handlerDb, principal, company, requestId, config, audit });
    if (!op.mutating) {
      const answer = await retryOnLostConnection(() => call(db, { context: auditContext }));
      ctx.body = answer;
      // A large answer streamed as JSON text (src/shared/json-stream.ts); Koa would call a stream octets.
      if (answer instanceof Readable) ctx.type = "application/json";
      return;
    }
    // A mutation and its audit record commit together, or neither does.
    const run = async (trx: Db) => {
      await assertKeyStillValid(trx, principal.keyId);
      const note: AuditNote = { context: auditContext };
      const result = await call(trx, note);
      // The record is the transaction's last statement, with COMMIT right behind it (with an Idempotency-Key this is
      // a savepoint, and the idempotency record is the last statement: runIdempotent). A mutation whose own last
      // statement must be the transaction's (a document's numbering, which holds its series row locked until commit)
      // took the record as data and wrote it there (auditRecordOf).
      if (!note.written) await commitBehindLastStatement(trx, () => recordAudit(trx, auditContext, note, result));
      return result;
    };
    const idempotencyKey = ctx.get("idempotency-key");
    if (!idempotencyKey) {
      ctx.body = await withTransaction(db, run);
      return;
    }
    const scope = {
      ...scopeOf(principal, company, idempotencyKey, op, ctx.state.requestId),
      sealWith: op.sensitiveResponse ? bearerToken(ctx.get("authorization")) : undefined,
    };
    const hash = offloaded ? offloaded.requestHash! : requestHash(op.operationId, body);
    const outcome = await runIdempotent(db, scope, hash, run);
    ctx.status = outcome.status;
    ctx.body = outcome.replay && outcome.status !== 200 ? withRequestId(outcome.body as ErrorEnvelope, ctx.state.requestId) : outcome.body;
    if (outcome.replay) ctx.set("x-idempotent-replay", "true");
  }
}

/**
 * The gate checked the key before the body was read, which may take long; a key revoked meanwhile must not write.
 * So the key is read again as the operation's transaction begins (issue 7, defect 8), under the key's advisory lock
 * in shared mode (api_key_write_guard, migration 20261124000510): a revocation that committed before this point
 * stops the write, and a revocation that comes later waits for this write's commit before it answers.
 */
async function assertKeyStillValid(trx: Db, keyId: string): Promise<void> {
  const [row] = await preparedQuery<{ valid: boolean }>(trx, "key_write_guard", "select api_key_write_guard($1) as valid", [keyId]);
  if (!row?.valid) throw new ApiError("unauthorized", "The API key was revoked while this request was arriving.", { key: "auth.key_revoked" });
}

/** A replayed error keeps everything it said, but names this request (as its X-Request-Id header does). */
const withRequestId = (envelope: ErrorEnvelope, requestId: string): ErrorEnvelope => ({ error: { ...envelope.error, requestId } });

const scopeOf = (principal: Principal, company: CompanyContext | null, key: string, op: OperationInfo, requestId: string) => ({
  accountId: principal.accountId,
  companyId: company?.id ?? null,
  keyId: principal.keyId,
  key,
  operationId: op.operationId,
  requestId,
});

function applyRateLimit(ctx: Koa.Context, state: RateLimitState): void {
  ctx.set("X-RateLimit-Limit", String(state.limit));
  ctx.set("X-RateLimit-Remaining", String(state.remaining));
  ctx.set("X-RateLimit-Reset", String(state.reset));
  if (state.exceeded) {
    ctx.set("Retry-After", String(state.reset));
    throw new ApiError("rate_limited", `Rate limit of ${state.limit} requests per minute exceeded. Retry after ${state.reset} seconds.`, {
      key: "rate_limit.exceeded",
      params: { limit: state.limit, retryAfterSeconds: state.reset },
    });
  }
}
