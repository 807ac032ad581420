// Configuration comes from the environment only; see the README's "Configuration" table.
import { resolve } from "node:path";
import { DEFAULT_ECB_URL } from "./reference/ecb.js";

function int(name: string, fallback: number, min = 0): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  return value;
}

function bool(name: string, fallback: boolean): boolean {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

function oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return undefined;
  if (!(allowed as readonly string[]).includes(raw)) throw new Error(`${name} must be one of ${allowed.join(", ")}, got "${raw}"`);
  return raw as T;
}

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /** A connection with a session (migrations, the worker); default DATABASE_URL. */
  directDatabaseUrl: string | undefined;
  /** How DATABASE_URL pools: `transaction` (PgBouncer pool_mode=transaction) allows no session state. */
  databasePooling: "session" | "transaction" | undefined;
  dataDir: string;
  embeddedPgPort: number;
  rateLimitPerMinute: number;
  dbPoolMax: number;
  workerConcurrency: number;
  /** How often a worker looks for the jobs of worker processes that died, to run them again (src/worker-recovery.ts). */
  workerSweepIntervalMs: number;
  logLevel: string;
  trustProxy: boolean;
  shutdownTimeoutMs: number;
  /** A request's headers and body must have arrived within this (Node's server.requestTimeout). */
  requestTimeoutMs: number;
  /** A request's headers must have arrived within this (Node's server.headersTimeout). */
  headersTimeoutMs: number;
  /** The ECB rates feed: its folder, or its daily file (src/reference/ecb.ts). */
  exchangeRatesUrl: string;
}

export function loadConfig(): Config {
  return {
    port: int("PORT", 3000),
    host: process.env.HOST || "0.0.0.0",
    databaseUrl: process.env.DATABASE_URL || undefined,
    directDatabaseUrl: process.env.DIRECT_DATABASE_URL || undefined,
    databasePooling: oneOf("DATABASE_POOLING", ["session", "transaction"] as const),
    dataDir: resolve(process.env.DATA_DIR || ".data"),
    embeddedPgPort: int("EMBEDDED_PG_PORT", 54329, 1),
    rateLimitPerMinute: int("RATE_LIMIT_PER_MINUTE", 300, 1),
    dbPoolMax: int("DB_POOL_MAX", 10, 2),
    workerConcurrency: int("WORKER_CONCURRENCY", 2, 1),
    workerSweepIntervalMs: int("WORKER_SWEEP_INTERVAL_MS", 15_000, 100),
    logLevel: process.env.LOG_LEVEL || "info",
    trustProxy: bool("TRUST_PROXY", false),
    shutdownTimeoutMs: int("SHUTDOWN_TIMEOUT_MS", 10_000, 0),
    requestTimeoutMs: int("REQUEST_TIMEOUT_MS", 60_000, 1000),
    headersTimeoutMs: int("HEADERS_TIMEOUT_MS", 15_000, 1000),
    exchangeRatesUrl: process.env.EXCHANGE_RATES_URL || DEFAULT_ECB_URL,
  };
}
