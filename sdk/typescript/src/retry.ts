// Retries of answers that say "try again" and of requests that never got an answer, as Stripe's SDKs do: 429 (after
// its Retry-After), 502/503/504, 409 `idempotency.in_progress` (the first attempt is still running), and network
// errors. A write is retried only under an Idempotency-Key (the client adds one when the caller gave none), so the
// server executes it at most once; a read is safe to repeat. Every attempt and every retry is told to the client's
// hooks (`onRequest`, `onRetry`), so that a wait is never silent; a request that got no answer in the end becomes an
// AccountingApiConnectionError.
import { AccountingApiConnectionError } from "./errors.js";

/** The longest Retry-After honoured; a longer one is returned to the caller as it is. */
const MAX_RETRY_AFTER_MS = 60_000;
const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;

/** One attempt about to be sent. */
export interface RequestEvent {
  /** The request as it is sent (a copy: reading its body does not consume the call's). */
  request: Request;
  /** 0 for the first attempt, 1 for the first retry, … */
  attempt: number;
}

/** A retry about to be waited for: why, and how long. */
export interface RetryEvent {
  /** The request being retried. */
  request: Request;
  /** Which retry this will be: 1 for the first. */
  attempt: number;
  /** How long the client waits before sending it, in milliseconds: the answer's `Retry-After`, else a backoff. */
  delayMs: number;
  /** The status of the answer that asked for the retry (429, 502, 503, 504, or 409 `idempotency.in_progress`). */
  status?: number;
  /** The headers of the answer that asked for the retry (`Retry-After`, `X-Request-Id`, the rate-limit headers). */
  headers?: Headers;
  /** The error of an attempt that got no answer (a refused or reset connection). */
  error?: unknown;
}

export interface RetryOptions {
  maxRetries: number;
  /** Whether `request` may be sent again (a read, or a write under an Idempotency-Key). */
  safe: (request: Request) => boolean;
  onRequest?: (event: RequestEvent) => void | Promise<void>;
  /** `false` gives the caller the answer (or the error) at hand instead of retrying. */
  onRetry?: (event: RetryEvent) => void | boolean | Promise<void | boolean>;
}

const sleep = (ms: number, signal: AbortSignal | null) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

/** Exponential backoff with jitter: about 0.5 s, 1 s, 2 s, … up to 8 s. */
const backoff = (attempt: number) => Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt) * (0.75 + Math.random() * 0.5);

function retryAfterMs(response: Response): number | undefined {
  const value = response.headers.get("retry-after");
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

async function shouldRetry(response: Response): Promise<boolean> {
  if ([429, 502, 503, 504].includes(response.status)) return true;
  if (response.status !== 409) return false;
  try {
    const body = (await response.clone().json()) as { error?: { key?: string } };
    return body?.error?.key === "idempotency.in_progress";
  } catch {
    return false;
  }
}

/** A fetch that sends `request` up to `1 + maxRetries` times (fewer when `safe` says no, or `onRetry` returns false). */
export function retryingFetch(fetcher: (request: Request) => Promise<Response>, options: RetryOptions) {
  return async (request: Request): Promise<Response> => {
    const retries = options.safe(request) ? options.maxRetries : 0;
    for (let attempt = 0; ; attempt++) {
      const sent = request.clone();
      await options.onRequest?.({ request: sent.clone(), attempt });
      let response: Response;
      try {
        response = await fetcher(sent);
      } catch (error) {
        // An abort is the caller's own doing: it keeps its reason.
        if (request.signal.aborted) throw error;
        const delayMs = backoff(attempt);
        if (attempt >= retries || (await options.onRetry?.({ request, attempt: attempt + 1, delayMs, error })) === false) {
          throw new AccountingApiConnectionError(request, error);
        }
        await sleep(delayMs, request.signal);
        continue;
      }
      if (attempt >= retries || !(await shouldRetry(response))) return response;
      const delayMs = retryAfterMs(response) ?? backoff(attempt);
      if (delayMs > MAX_RETRY_AFTER_MS) return response;
      if ((await options.onRetry?.({ request, attempt: attempt + 1, delayMs, status: response.status, headers: response.headers })) === false) return response;
      await response.body?.cancel();
      await sleep(delayMs, request.signal);
    }
  };
}
