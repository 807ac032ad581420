// Time bounds of tests, derived from jest's test timeout (jest.config.js: 60 s) rather than from how fast this
// machine is (another machine here runs the same code at about half the speed; TEST-AUDIT item 6).
export const TEST_TIMEOUT_MS = 60_000;

/**
 * "At once", as opposed to "waits on a lock until another transaction lets go": far above what any request takes on
 * a slow, loaded machine, far below the test timeout that a request stuck on a lock would run into.
 */
export const AT_ONCE_MS = TEST_TIMEOUT_MS / 6;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
