import { pino, type Logger } from "pino";

// Structured JSON logs. Nothing that could carry a secret (headers, bodies) is ever passed to the logger.
export function createLogger(level: string): Logger {
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime });
}

export type { Logger };
