import { pino, type Logger } from "pino";

// Structured JSON logs, one object per line on stdout. Nothing that could carry a secret (headers, bodies) is
// ever passed to the logger. Writes are buffered (asynchronous) so that logging stays off the request's path;
// shutdown flushes them.
export function createLogger(level: string): Logger {
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination({ sync: false, minLength: 4096 }));
}

export type { Logger };
