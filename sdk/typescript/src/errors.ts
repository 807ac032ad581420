// Every answer other than 200 becomes an AccountingApiError carrying the contract's error envelope
// (`{"error": {"code", "message", "requestId", "key"?, "params"?, "fieldErrors"?}}`); a request that got no answer at
// all (refused, reset, DNS) becomes an AccountingApiConnectionError, one of them with `status` 0.
import { ERROR_CODES, ERROR_KEYS, type ErrorCode, type ErrorKey } from "./generated/errors.js";
import type { components } from "./generated/schema.js";

export type ErrorEnvelope = components["schemas"]["ErrorEnvelope"];
type ErrorBody = ErrorEnvelope["error"];

const CODES: ReadonlySet<string> = new Set(ERROR_CODES);
const KEYS: ReadonlySet<string> = new Set(ERROR_KEYS);

/** What an error says, whichever way it came about. */
interface ErrorParts {
  status: number;
  code: AccountingApiError["code"];
  message: string;
  key?: ErrorKey;
  params?: ErrorBody["params"];
  fieldErrors?: ErrorBody["fieldErrors"];
  requestId?: string;
  headers: Headers;
  body: unknown;
  cause?: unknown;
}

/**
 * An answer other than 200 (`status`, and the envelope's `code`, `key`, `params` and `fieldErrors`), or, as an
 * {@link AccountingApiConnectionError}, no answer at all.
 */
export class AccountingApiError extends Error {
  /** HTTP status; 0 when no answer arrived (an {@link AccountingApiConnectionError}). */
  readonly status: number;
  /**
   * The contract's error class (`validation`, `not_found`, `conflict`, …); `http_error` when the body is not the
   * contract's envelope (a proxy's 502 page), `connection_error` when no answer arrived.
   */
  readonly code: ErrorCode | "http_error" | "connection_error";
  /**
   * The specific reason, e.g. `partner.code_taken`: one of the contract's keys. A key this SDK does not know (a newer
   * server's) is left out, as the contract asks of clients; it is still in {@link body}.
   */
  readonly key?: ErrorKey;
  readonly params?: ErrorBody["params"];
  /** Per field (a JSON path such as `lines[0].quantity`), what is wrong with it. */
  readonly fieldErrors?: ErrorBody["fieldErrors"];
  /** `X-Request-Id` (the one this client sent, which the server keeps): quote it when reporting a problem. */
  readonly requestId?: string;
  readonly headers: Headers;
  /** The parsed body (the envelope, or the text of a body that is not JSON); undefined when no answer arrived. */
  readonly body: unknown;

  constructor(response: Response, body: unknown);
  /** @internal */
  constructor(parts: ErrorParts);
  constructor(source: Response | ErrorParts, body?: unknown) {
    const parts = source instanceof Response ? fromResponse(source, body) : source;
    super(parts.message, parts.cause === undefined ? undefined : { cause: parts.cause });
    this.name = "AccountingApiError";
    this.status = parts.status;
    this.code = parts.code;
    this.key = parts.key;
    this.params = parts.params;
    this.fieldErrors = parts.fieldErrors;
    this.requestId = parts.requestId;
    this.headers = parts.headers;
    this.body = parts.body;
  }
}

/**
 * A request that got no answer: the connection was refused or reset, the name did not resolve, TLS failed. `status` is
 * 0, `code` `connection_error`, `cause` the runtime's own error (Node: a `TypeError` whose `cause` has the system
 * `code`, e.g. `ECONNREFUSED`), `requestId` the `X-Request-Id` the request carried. A write may or may not have been
 * executed: send it again with the same `Idempotency-Key` (the client already did so `maxRetries` times). A call
 * aborted through its `signal` rejects with the signal's reason instead.
 */
export class AccountingApiConnectionError extends AccountingApiError {
  /** The method and URL of the request. */
  readonly request: { method: string; url: string };

  /** @internal */
  constructor(request: Request, cause: unknown) {
    const detail = describeCause(cause);
    super({
      status: 0,
      code: "connection_error",
      message: `No answer from ${new URL(request.url).origin} to ${request.method} ${new URL(request.url).pathname}${detail ? `: ${detail}` : ""}`,
      requestId: request.headers.get("x-request-id") ?? undefined,
      headers: new Headers(),
      body: undefined,
      cause,
    });
    this.name = "AccountingApiConnectionError";
    this.request = { method: request.method, url: request.url };
  }
}

function fromResponse(response: Response, body: unknown): ErrorParts {
  const error = isEnvelope(body) ? body.error : undefined;
  return {
    status: response.status,
    code: error ? (error.code as ErrorCode) : "http_error",
    message: error?.message ?? `HTTP ${response.status}${typeof body === "string" && body ? `: ${body.slice(0, 200)}` : ""}`,
    key: typeof error?.key === "string" && KEYS.has(error.key) ? (error.key as ErrorKey) : undefined,
    params: error?.params,
    fieldErrors: error?.fieldErrors,
    requestId: error?.requestId ?? response.headers.get("x-request-id") ?? undefined,
    headers: response.headers,
    body,
  };
}

/** The contract's envelope: an `error` whose `code` is one of the contract's codes. */
function isEnvelope(body: unknown): body is ErrorEnvelope {
  const error = (body as { error?: unknown } | null)?.error;
  return typeof error === "object" && error !== null && CODES.has((error as { code?: unknown }).code as string);
}

/**
 * Node's fetch says "fetch failed" and keeps the reason (`connect ECONNREFUSED 127.0.0.1:1`, or only a `code` when
 * several addresses were tried) in its cause. Read by shape: an error of another realm is no `instanceof Error` here.
 */
function describeCause(cause: unknown): string {
  const inner = (cause as { cause?: unknown } | null)?.cause as { message?: unknown; code?: unknown } | undefined;
  const message = (e: unknown) =>
    typeof e === "string" ? e : typeof (e as { message?: unknown })?.message === "string" ? (e as { message: string }).message : "";
  const reason = message(inner) || (typeof inner?.code === "string" ? inner.code : "");
  return [message(cause), reason].filter(Boolean).join(": ");
}
