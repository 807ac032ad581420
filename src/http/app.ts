import { randomBytes } from "node:crypto";
import Koa from "koa";
import type { Config } from "../config.js";
import type { Db } from "../db/connection.js";
import { ApiError } from "../shared/errors.js";
import type { Handler } from "../handlers/types.js";
import type { Logger } from "../log.js";
import { ClientAbortedError } from "./body.js";
import { internalError, toEnvelope } from "./envelope.js";
import type { ContractApi } from "./openapi.js";
import { apiPipeline } from "./pipeline.js";
import { publicRoutes } from "./public-routes.js";

export interface AppDeps {
  db: Db;
  config: Config;
  log: Logger;
  contract: ContractApi;
  handlers: Map<string, Handler>;
}

export const REQUEST_ID = /^[A-Za-z0-9_-]{1,64}$/;

export const newRequestId = () => `req_${randomBytes(12).toString("base64url")}`;

/** Logged for a request whose client went away before it was answered (nginx's convention). */
const CLIENT_CLOSED_REQUEST = 499;
const RATE_LIMIT_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "Retry-After"];

export function createApp(deps: AppDeps): Koa {
  // Behind N trusted proxies the client is the address the outermost of them added to X-Forwarded-For (the N-th
  // entry from the right); entries further left are whatever the client sent, and would give it a fresh rate-limit
  // budget with every request.
  const hops = deps.config.trustProxyHops;
  const app = new Koa({ proxy: hops > 0, maxIpsCount: hops });
  app.silent = true;
  app.use(requestEnvelope(deps.log, (deps.contract.document.info as { version: string }).version));
  app.use(publicRoutes(deps));
  app.use(apiPipeline(deps));
  return app;
}

/** Request id, API version, the error envelope for every failure, and one structured log line per request. */
function requestEnvelope(log: Logger, apiVersion: string): Koa.Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const offered = ctx.get("x-request-id");
    const requestId = REQUEST_ID.test(offered) ? offered : newRequestId();
    ctx.state.requestId = requestId;
    ctx.set("X-Request-Id", requestId);
    // On every answer, a 500 too: the version is public (/health/live says it) and tells a client which contract it
    // talks to (CHANGELOG.md).
    ctx.set("X-Api-Version", apiVersion);
    // Every answer is JSON (or a page) that no browser should sniff as something else, and none may be cached:
    // several carry secrets (a new API key, a webhook signing secret). Static assets override the cache policy.
    ctx.set("X-Content-Type-Options", "nosniff");
    ctx.set("Cache-Control", "no-store");
    let aborted = false;
    try {
      await next();
    } catch (caught) {
      if (caught instanceof ClientAbortedError) {
        // Not a server error: there is nobody to answer, and the metrics must not count it as a 500.
        aborted = true;
        ctx.respond = false;
        ctx.res.destroy();
      } else {
        let error: ApiError;
        if (caught instanceof ApiError) {
          error = caught;
        } else {
          // Logged with its stack for the operator; the client sees only the requestId.
          log.error({ requestId, operationId: ctx.state.operationId, err: caught }, "unhandled error");
          error = internalError();
        }
        ctx.status = error.status;
        ctx.body = toEnvelope(error, requestId);
        // The unread rest of an oversized body would otherwise be taken for the next request on the connection; so
        // too that of a large upload refused before its body was read (429 upload.in_progress): close rather than
        // read megabytes only to discard them.
        if (error.status === 413 || (error.status === 429 && !ctx.req.complete)) ctx.set("Connection", "close");
        if (error.status === 500) for (const header of RATE_LIMIT_HEADERS) ctx.remove(header);
      }
    }
    log.info({
      requestId,
      operationId: ctx.state.operationId,
      keyId: ctx.state.keyId,
      method: ctx.method,
      path: ctx.path,
      // Which client (and SDK version) sent it: the SDK sends both, a browser only its own User-Agent.
      userAgent: ctx.get("user-agent") || undefined,
      clientName: ctx.get("x-client-name") || undefined,
      status: aborted ? CLIENT_CLOSED_REQUEST : ctx.status,
      ...(aborted ? { clientAborted: true } : {}),
      durationMs: Number(process.hrtime.bigint() - started) / 1e6,
    });
  };
}
