// The client: configuration (API key, base URL, default company), one openapi-fetch client underneath, and the
// generated operation tree (generated/resources.ts) bound to it.
import createFetchClient, { type Client as FetchClient, type Middleware } from "openapi-fetch";
import { AccountingApiError } from "./errors.js";
import { RESOURCE_PATHS, type Resources } from "./generated/resources.js";
import type { paths } from "./generated/schema.js";
import type { ListOperationId, ListRow, Operation, OperationId, RequestBody, RequestOptions, WithResponse } from "./operation.js";
import { paginate, type PageOptions } from "./pagination.js";
import { retryingFetch, type RequestEvent, type RetryEvent } from "./retry.js";
import { clientHeaders } from "./user-agent.js";

export interface ClientOptions {
  /** The API key (`ak_…`), sent as `Authorization: Bearer <key>`. */
  apiKey: string;
  /**
   * Where the API is served, e.g. `https://api.example.lt` (with a path, if the API is served under one). Required:
   * there is no default that could send production calls to the wrong place.
   */
  baseUrl: string;
  /**
   * The company company-scoped operations act on (`X-Company-Id`); a call's `companyId` option overrides it. May be
   * left out when the key is restricted to exactly one company.
   */
  companyId?: string;
  /**
   * Headers sent with every call. Every call also sends `X-Request-Id` (a new `sdk_…` per call, the same on its
   * retries), `X-Client-Name: accounting-api-sdk/<version>` and, outside browsers, `User-Agent:
   * accounting-api-sdk/<version> (node <version>)`; a header given here replaces the client's own.
   */
  headers?: Record<string, string>;
  /** The fetch to use (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
  /** openapi-fetch middleware (`onRequest` / `onResponse`), run on every call: logging, tracing, checks. */
  middleware?: Middleware[];
  /**
   * How many times a call is sent again after a network error, 429 (after its Retry-After), 502/503/504, or 409
   * `idempotency.in_progress` (default 2; 0 = never). A write is retried only under an Idempotency-Key: when the call
   * gives none, the client adds a random one, so the server executes the write at most once.
   */
  maxRetries?: number;
  /** Called before every attempt of every call (`attempt` 0, then 1, 2, … for its retries): logging, tracing. */
  onRequest?: (event: RequestEvent) => void | Promise<void>;
  /**
   * Called before the client waits to send a call again: the status that asked for it (a 429 with its Retry-After, a
   * 503, …) or the network error, and `delayMs`. Return `false` to get that answer (or an
   * `AccountingApiConnectionError`) at once instead of waiting.
   */
  onRetry?: (event: RetryEvent) => void | boolean | Promise<void | boolean>;
}

const DEFAULT_MAX_RETRIES = 2;

type Bound = Record<string, unknown>;

export interface AccountingApi extends Resources {}

/**
 * A client of the Accounting API.
 *
 * ```ts
 * const api = new AccountingApi({ apiKey: process.env.ACCOUNTING_API_KEY!, baseUrl: "https://api.example.lt", companyId });
 * const partner = await api.partners.create({ name: "Pirkėjas UAB", code: "P1" }, { idempotencyKey: crypto.randomUUID() });
 * for await (const p of api.paginate(api.partners.list, { sort: [{ field: "name" }] })) console.log(p.code);
 * ```
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the generated resources (interface AccountingApi) are merged into the class on purpose
export class AccountingApi {
  /** The openapi-fetch client underneath, typed by the contract's paths: `raw.POST(path, { body })` gives `{ data, error, response }`. */
  readonly raw: FetchClient<paths>;
  readonly options: Readonly<ClientOptions>;
  private readonly maxRetries: number;

  /** The paths of the operations that take no Idempotency-Key (the reads). */
  private readonly reads = new Set<string>();

  constructor(options: ClientOptions) {
    if (!options?.apiKey) throw new TypeError("AccountingApi: apiKey is required");
    if (!options.baseUrl) throw new TypeError("AccountingApi: baseUrl is required (where the API is served, e.g. https://api.example.lt)");
    this.options = { ...options };
    this.maxRetries = Math.max(0, Math.floor(options.maxRetries ?? DEFAULT_MAX_RETRIES));
    const baseUrl = options.baseUrl.replace(/\/+$/, "");
    const basePath = new URL(baseUrl).pathname.replace(/\/+$/, "");
    // Safe to send again: a known read, or anything under an Idempotency-Key.
    const safe = (request: Request) => this.reads.has(new URL(request.url).pathname.slice(basePath.length)) || request.headers.has("idempotency-key");
    this.raw = createFetchClient<paths>({
      baseUrl,
      headers: { ...clientHeaders(), ...lowerCased(options.headers), authorization: `Bearer ${options.apiKey}` },
      fetch: retryingFetch(options.fetch ?? ((request) => fetch(request)), {
        maxRetries: this.maxRetries,
        safe,
        onRequest: options.onRequest,
        onRetry: options.onRetry,
      }),
    });
    for (const m of options.middleware ?? []) this.raw.use(m);
    Object.assign(this, bind(this, RESOURCE_PATHS as unknown as Bound, this.reads));
  }

  /** The same client acting on another company (`X-Company-Id`). */
  withCompany(companyId: string): AccountingApi {
    return new AccountingApi({ ...this.options, companyId });
  }

  /**
   * Every row of a list operation, fetching page after page as the loop consumes them:
   * `for await (const row of api.paginate(api.sales.invoices.list, { filter }))`. See {@link paginate}.
   */
  paginate<Id extends ListOperationId>(operation: Operation<Id>, request?: Omit<RequestBody<Id>, "page">, options?: PageOptions): AsyncGenerator<ListRow<Id>> {
    return paginate(operation, request, options);
  }

  /** @internal Sends one operation's request; throws AccountingApiError for any answer but 200. */
  async send(path: string, body: unknown, options: RequestOptions = {}, write = false): Promise<WithResponse<unknown>> {
    const headers: Record<string, string> = lowerCased(options.headers);
    // One id per call, kept by the server (its logs, error.requestId) and by its retries: a call that got no answer
    // can still be looked up by it.
    if (!("x-request-id" in headers) && !Object.keys(this.options.headers ?? {}).some((h) => h.toLowerCase() === "x-request-id")) {
      headers["x-request-id"] = `sdk_${crypto.randomUUID()}`;
    }
    const companyId = options.companyId ?? this.options.companyId;
    if (companyId !== undefined) headers["x-company-id"] = companyId;
    if (options.idempotencyKey !== undefined) headers["idempotency-key"] = options.idempotencyKey;
    else if (write && this.maxRetries > 0) headers["idempotency-key"] = `sdk-${crypto.randomUUID()}`;
    // The path and body are typed by the generated operation that calls this; here they are passed through.
    const { data, error, response } = await (this.raw.POST as (path: string, init: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>)(
      path,
      {
        body: body ?? {},
        headers,
        signal: options.signal,
      },
    );
    if (response.status !== 200) throw new AccountingApiError(response, error ?? data);
    return { data, response };
  }
}

/** Header names in lower case, so that a caller's `User-Agent` replaces the client's `user-agent`. */
const lowerCased = (headers: Record<string, string> = {}) => Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));

function bind(client: AccountingApi, node: Bound, reads: Set<string>): Bound {
  const result: Bound = {};
  for (const [name, child] of Object.entries(node)) {
    if (!Array.isArray(child)) {
      result[name] = bind(client, child as Bound, reads);
      continue;
    }
    const [path, operationId, write] = child as [string, OperationId, boolean];
    if (!write) reads.add(path);
    const call = async (body?: unknown, options?: RequestOptions) => (await client.send(path, body, options, write)).data;
    const operation = Object.assign(call, {
      withResponse: (body?: unknown, options?: RequestOptions) => client.send(path, body, options, write),
      operationId,
      path,
    });
    result[name] = operation;
  }
  return result;
}
