// The types every generated operation shares: what it takes (its request body, typed from the contract) and what it
// gives (its 200 body), plus the per-call options.
import type { operations } from "./generated/schema.js";

export type OperationId = keyof operations;

type JsonContent<T> = T extends { content: { "application/json": infer B } } ? B : never;

/** The request body of an operation, as the contract declares it (a property with a default is optional). */
export type RequestBody<Id extends OperationId> = operations[Id] extends { requestBody: infer R }
  ? JsonContent<R>
  : operations[Id] extends { requestBody?: infer R }
    ? JsonContent<R>
    : never;

/** The body of an operation's 200 response. */
export type ResponseData<Id extends OperationId> = operations[Id] extends { responses: { 200: infer R } } ? JsonContent<R> : never;

/** Options of one call. */
export interface RequestOptions {
  /** `X-Company-Id` for this call (default: the client's `companyId`). */
  companyId?: string;
  /**
   * `Idempotency-Key`: a retry with the same key and body replays the first response instead of executing again
   * (the response then carries `x-idempotent-replay: true`). Use a fresh random value per logical operation.
   */
  idempotencyKey?: string;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
  /** Aborts the call. */
  signal?: AbortSignal;
}

/** A successful call's body together with the raw HTTP response (status, headers such as `x-request-id`). */
export interface WithResponse<T> {
  data: T;
  response: Response;
}

type Args<Id extends OperationId> =
  // biome-ignore lint/complexity/noBannedTypes: `{} extends T` asks whether every property of T is optional
  {} extends RequestBody<Id> ? [body?: RequestBody<Id>, options?: RequestOptions] : [body: RequestBody<Id>, options?: RequestOptions];

/**
 * One operation of the API: call it with the request body to get the 200 body; any other answer throws an
 * `AccountingApiError`.
 */
export interface Operation<Id extends OperationId> {
  (...args: Args<Id>): Promise<ResponseData<Id>>;
  /** The same call, also returning the raw response. */
  withResponse(...args: Args<Id>): Promise<WithResponse<ResponseData<Id>>>;
  /** The operation's id in the contract. */
  readonly operationId: Id;
  /** The operation's path (`POST`). */
  readonly path: string;
}

/** The operations whose 200 body is a page of the shared list engine (`rows`, `page`, `pageSize`, `total`). */
export type ListOperationId = {
  [K in OperationId]: ResponseData<K> extends { rows: unknown[]; page: number; pageSize: number; total: number } ? K : never;
}[OperationId];

/** One row of a list operation. */
export type ListRow<Id extends ListOperationId> = ResponseData<Id> extends { rows: (infer R)[] } ? R : never;
