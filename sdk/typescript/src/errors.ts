// Every answer other than 200 becomes an AccountingApiError carrying the contract's error envelope
// (`{"error": {"code", "message", "requestId", "key"?, "params"?, "fieldErrors"?}}`).
import type { components } from "./generated/schema.js";

export type ErrorEnvelope = components["schemas"]["ErrorEnvelope"];
type ErrorBody = ErrorEnvelope["error"];

/** An answer other than 200: `status`, and the envelope's `code`, `key`, `params` and `fieldErrors`. */
export class AccountingApiError extends Error {
  /** HTTP status. */
  readonly status: number;
  /** The error class (`validation`, `not_found`, `conflict`, …); `http_error` when the body is not the envelope. */
  readonly code: string;
  /** The specific reason, e.g. `partner.code_taken`, when the server gives one. */
  readonly key?: string;
  readonly params?: ErrorBody["params"];
  /** Per field (a JSON path such as `lines[0].quantity`), what is wrong with it. */
  readonly fieldErrors?: ErrorBody["fieldErrors"];
  /** `X-Request-Id`: quote it when reporting a problem. */
  readonly requestId?: string;
  readonly headers: Headers;
  /** The parsed body (the envelope, or the text of a body that is not JSON). */
  readonly body: unknown;

  constructor(response: Response, body: unknown) {
    const error = isEnvelope(body) ? body.error : undefined;
    super(error?.message ?? `HTTP ${response.status}${typeof body === "string" && body ? `: ${body.slice(0, 200)}` : ""}`);
    this.name = "AccountingApiError";
    this.status = response.status;
    this.code = error?.code ?? "http_error";
    this.key = error?.key ?? undefined;
    this.params = error?.params;
    this.fieldErrors = error?.fieldErrors;
    this.requestId = error?.requestId ?? response.headers.get("x-request-id") ?? undefined;
    this.headers = response.headers;
    this.body = body;
  }
}

function isEnvelope(body: unknown): body is ErrorEnvelope {
  const error = (body as { error?: unknown } | null)?.error;
  return typeof error === "object" && error !== null && typeof (error as { code?: unknown }).code === "string";
}
