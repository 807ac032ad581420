// Idempotent execution of a mutating operation (spec: "Limits", idempotency; issue 2).
//
// The whole exchange runs in the operation's own transaction:
//   0. Records belong to the API key that made them (account, company, API key id, Idempotency-Key): a replay
//      never gives a key anything it could not get by running the request itself — another key's stored response
//      (perhaps of a company this key cannot reach, or of an operation it may not call) is never replayed to it,
//      and a 422 never tells a caller that some other key used the same Idempotency-Key (issue 7, defect 1).
//   1. pg_try_advisory_xact_lock on that scope. Failing to get it means a request with
//      the same key is running now: 409 `idempotency_in_progress` at once, without waiting.
//   2. A stored record with the same payload hash is replayed; a different hash is 422 `idempotency_key_reuse`.
//   3. Otherwise the handler runs (in a savepoint, so a 4xx it throws leaves nothing behind), and its response
//      is stored in the same transaction as its writes. A crash before commit leaves neither; 5xx is not stored.
//      A response that carries a secret is stored sealed to the caller's own token (./sealed.ts).
// The lock ends with the transaction, so a retry after commit always finds the record.
import { createHash } from "node:crypto";
import type { Db, Trx } from "../db/connection.js";
import { commitBehindLastStatement, withTransaction } from "../db/transaction.js";
import { ApiError } from "../shared/errors.js";
import { toEnvelope } from "./envelope.js";
import { isSealed, seal, unseal } from "./sealed.js";

export { requestHash } from "./request-hash.js";

export const NO_COMPANY = "00000000-0000-0000-0000-000000000000";

export interface WriteOutcome {
  status: number;
  body: unknown;
  replay: boolean;
}

export interface IdempotencyScope {
  accountId: string;
  companyId: string | null;
  /** The API key sending the request: records are never shared between keys. */
  keyId: string;
  key: string;
  operationId: string;
  requestId: string;
  /** Set for an operation whose response carries a secret: the stored response is sealed with it (./sealed.ts). */
  sealWith?: string;
}

function lockId(scope: IdempotencyScope): string {
  const digest = createHash("sha256")
    .update(`${scope.accountId}|${scope.companyId ?? NO_COMPANY}|${scope.keyId}|${scope.key}`)
    .digest();
  return digest.readBigInt64BE(0).toString();
}

/** `hash`: requestHash of the operation and body (computed where the body is: a worker thread for a large one). */
export async function runIdempotent(db: Db, scope: IdempotencyScope, hash: string, execute: (trx: Trx) => Promise<unknown>): Promise<WriteOutcome> {
  const companyId = scope.companyId ?? NO_COMPANY;
  return withTransaction(db, async (trx) => {
    const { rows: lock } = await trx.raw<{ rows: { locked: boolean }[] }>("select pg_try_advisory_xact_lock(?::bigint) as locked", [lockId(scope)]);
    if (!lock[0].locked) {
      throw new ApiError("idempotency_in_progress", "A request with this Idempotency-Key is still being processed. Retry after it completes.", {
        key: "idempotency.in_progress",
      });
    }
    const stored = await trx("idempotency_keys")
      .where({ account_id: scope.accountId, company_id: companyId, key_id: scope.keyId, key: scope.key })
      .first("request_hash", "status_code", "response_body");
    if (stored) {
      if (stored.request_hash !== hash) {
        throw new ApiError("idempotency_key_reuse", "This Idempotency-Key was used with a different request. Use a new key for a new request.", {
          key: "idempotency.key_reuse",
        });
      }
      let body = stored.response_body as unknown;
      if (isSealed(body)) {
        body = scope.sealWith ? unseal(body, scope.sealWith, scope.key) : undefined;
        if (body === undefined) {
          throw new ApiError("conflict", "The first response to this Idempotency-Key holds a secret; only the API key that sent the request can replay it.", {
            key: "idempotency.replay_sealed",
          });
        }
      }
      return { status: stored.status_code as number, body, replay: true };
    }
    let outcome: WriteOutcome;
    try {
      outcome = { status: 200, body: await trx.transaction((savepoint) => execute(savepoint)), replay: false };
    } catch (error) {
      // A 5xx is not an outcome (a retry must execute), nor is a 401: the key was revoked while the request ran.
      if (!(error instanceof ApiError) || error.status >= 500 || error.status === 401) throw error;
      outcome = { status: error.status, body: toEnvelope(error, scope.requestId), replay: false };
    }
    // The transaction's last statement, with COMMIT right behind it.
    const record = JSON.stringify(scope.sealWith ? seal(outcome.body, scope.sealWith, scope.key) : outcome.body);
    await commitBehindLastStatement(trx, async () => {
      await trx("idempotency_keys").insert({
        account_id: scope.accountId,
        company_id: companyId,
        key_id: scope.keyId,
        key: scope.key,
        operation_id: scope.operationId,
        request_hash: hash,
        status_code: outcome.status,
        response_body: record,
      });
    });
    return outcome;
  });
}
