// A logger whose lines a test can read: the server's pino logger, writing JSON lines into memory.
import { Writable } from "node:stream";
import { pino } from "pino";
import type { Logger } from "../../src/log.js";

export interface CapturedLogs {
  log: Logger;
  /** Every line logged so far, parsed. */
  lines(): Record<string, unknown>[];
}

export function captureLogs(level = "info"): CapturedLogs {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return {
    log: pino({ level, base: undefined }, sink),
    lines: () =>
      chunks
        .join("")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
