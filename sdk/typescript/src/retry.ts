// Retries of answers that say "try again" and of requests that never got an answer, as Stripe's SDKs do: 429 (after
// its Retry-After), 502/503/504, 409 `idempotency.in_progress` (the first attempt is still running), and network
// errors. A write is retried only under an Idempotency-Key (the client adds one when the caller gave none), so the
// server executes it at most once; a read is safe to repeat.

/** The longest Retry-After honoured; a longer one is returned to the caller as it is. */
const MAX_RETRY_AFTER_MS = 60_000;
const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;

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
  if (value === null) return undefined;
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

/**
 * A fetch that sends `request` up to `1 + maxRetries` times. `safe(request)` says whether it may be sent again (a
 * read, or a write under an Idempotency-Key).
 */
export function retryingFetch(fetcher: (request: Request) => Promise<Response>, maxRetries: number, safe: (request: Request) => boolean) {
  return async (request: Request): Promise<Response> => {
    const retries = safe(request) ? maxRetries : 0;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await fetcher(request.clone());
      } catch (error) {
        if (attempt >= retries || request.signal.aborted) throw error;
        await sleep(backoff(attempt), request.signal);
        continue;
      }
      if (attempt >= retries || !(await shouldRetry(response))) return response;
      const wait = retryAfterMs(response) ?? backoff(attempt);
      if (wait > MAX_RETRY_AFTER_MS) return response;
      await response.body?.cancel();
      await sleep(wait, request.signal);
    }
  };
}
