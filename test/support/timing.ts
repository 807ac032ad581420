// Time bounds of tests, derived from jest's test timeout (jest.config.js: 60 s) rather than from how fast this
// machine is (another machine here runs the same code at about half the speed; TEST-AUDIT item 6).
export const TEST_TIMEOUT_MS = 60_000;

/**
 * "At once", as opposed to "waits on a lock until another transaction lets go": far above what any request takes on
 * a slow, loaded machine, far below the test timeout that a request stuck on a lock would run into.
 */
export const AT_ONCE_MS = TEST_TIMEOUT_MS / 6;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface UntilOptions {
  /** Give up after this long (default 30 s, half the test timeout). */
  timeoutMs?: number;
  /** Pause between probes (default 50 ms). */
  intervalMs?: number;
  /** What was last seen, for the error when the wait times out. */
  detail?: () => string;
}

/**
 * Probes until `probe` returns a truthy value and returns it; throws, naming `what`, when the deadline passes, so a
 * test never carries on believing something happened that did not. The one poller of the suite (TEST-AUDIT item 9).
 */
export async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, options: UntilOptions = {}): Promise<T> {
  const { timeoutMs = TEST_TIMEOUT_MS / 2, intervalMs = 50 } = options;
  for (const deadline = Date.now() + timeoutMs; ; await sleep(intervalMs)) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${options.detail ? ` (${options.detail()})` : ""}`);
  }
}
