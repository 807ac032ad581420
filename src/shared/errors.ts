// The one set of error classes domain code throws. src/http/envelope.ts turns them into the spec's envelope.
// Spec: "Errors" (codes and statuses) and "Error envelope" (shape and bounds).

export type ErrorCode =
  | "validation"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "payload_too_large"
  | "unprocessable"
  | "idempotency_key_reuse"
  | "idempotency_in_progress"
  | "rate_limited"
  | "payment_required"
  | "internal";

export const STATUS_OF: Record<ErrorCode, number> = {
  validation: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  idempotency_in_progress: 409,
  payload_too_large: 413,
  unprocessable: 422,
  idempotency_key_reuse: 422,
  rate_limited: 429,
  internal: 500,
};

export type FieldErrors = Record<string, string[]>;

export interface ApiErrorOptions {
  key?: string;
  params?: Record<string, unknown>;
  fieldErrors?: FieldErrors;
}

export class ApiError extends Error {
  readonly status: number;
  readonly key?: string;
  readonly params?: Record<string, unknown>;
  readonly fieldErrors?: FieldErrors;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: ApiErrorOptions = {},
  ) {
    super(message);
    this.status = STATUS_OF[code];
    this.key = options.key;
    this.params = options.params;
    this.fieldErrors = options.fieldErrors;
  }
}

export const validationError = (fieldErrors: FieldErrors, message = "The request is not valid.") =>
  new ApiError("validation", message, { key: "request.invalid", fieldErrors });

export const notFound = (what: string, key: string, params?: Record<string, unknown>) => new ApiError("not_found", `${what} was not found.`, { key, params });

export const conflict = (message: string, key: string, params?: Record<string, unknown>) => new ApiError("conflict", message, { key, params });

export const unprocessable = (message: string, key: string, params?: Record<string, unknown>) => new ApiError("unprocessable", message, { key, params });

export const forbidden = (message: string, key: string, params?: Record<string, unknown>) => new ApiError("forbidden", message, { key, params });
