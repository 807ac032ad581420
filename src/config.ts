// Configuration comes from the environment only; see the README's "Configuration" table.
import { resolve } from "node:path";
import { DEFAULT_ECB_URL } from "./reference/ecb.js";
import type { LookupAddress } from "node:dns";

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

/** `false`/`0` (the default), `true` (one proxy) or the number of proxies in front of the service. */
function proxyHops(name: string): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return 0;
  if (/^\d+$/.test(raw) && Number(raw) <= 10) return Number(raw);
  try {
    return bool(name, false) ? 1 : 0;
  } catch {
    throw new Error(`${name} must be true, false or the number of proxies in front of the service (0-10), got "${raw}"`);
  }
}

function oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return undefined;
  if (!(allowed as readonly string[]).includes(raw)) throw new Error(`${name} must be one of ${allowed.join(", ")}, got "${raw}"`);
  return raw as T;
}

/** A duration: `500ms`, `30s`, `5m`, `2h`, or a number of milliseconds. */
export function parseDuration(raw: string): number {
  const m = /^\s*([0-9]+(?:\.[0-9]+)?)\s*(ms|s|m|h)?\s*$/.exec(raw);
  if (!m) throw new Error(`"${raw}" is not a duration (e.g. 500ms, 30s, 5m, 2h)`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] ?? "ms"]!;
  return Math.round(Number(m[1]) * unit);
}

/** Stripe-like: at once, then 1 min, 5 min, 30 min, 1, 2, 4, 8 and 8 hours later (about 23.6 hours in all). */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = "0s,1m,5m,30m,1h,2h,4h,8h,8h";

function durations(name: string, fallback: string): number[] {
  const raw = process.env[name] || fallback;
  try {
    const list = raw.split(",").map(parseDuration);
    if (list.length < 1 || list.length > 30) throw new Error("give 1 to 30 durations");
    return list;
  } catch (error) {
    throw new Error(`${name} must be a comma-separated list of durations (e.g. ${DEFAULT_WEBHOOK_RETRY_SCHEDULE}): ${(error as Error).message}`);
  }
}

/** A comma-separated list of TCP ports (1-65535), e.g. `443,8443`. */
function ports(name: string, fallback: number[]): number[] {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const list = raw.split(",").map((p) => p.trim());
  if (!list.every((p) => /^[0-9]{1,5}$/.test(p) && Number(p) >= 1 && Number(p) <= 65535)) {
    throw new Error(`${name} must be a comma-separated list of ports from 1 to 65535 (e.g. 443,8443), got "${raw}"`);
  }
  return [...new Set(list.map(Number))];
}

function base64Key(name: string): Buffer | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return undefined;
  const key = Buffer.from(raw, "base64");
  if (key.length !== 32 || !/^[A-Za-z0-9+/=_-]+$/.test(raw.trim()))
    throw new Error(`${name} must be 32 bytes in base64 (e.g. the output of: openssl rand -base64 32)`);
  return key;
}

/** The base URL the committed contract names as its server; the served document replaces it with PUBLIC_URL. */
export const DEFAULT_PUBLIC_URL = "http://localhost:3000";

/** An absolute http(s) URL without a trailing slash (it may have a path: `https://example.com/accounting`). */
function publicUrl(name: string): string {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return DEFAULT_PUBLIC_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name} must be an absolute http(s) URL (e.g. https://api.example.com), got "${raw}"`);
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.search || url.hash || url.username || url.password) {
    throw new Error(`${name} must be an absolute http(s) URL without query, fragment or credentials, got "${raw}"`);
  }
  return url.href.replace(/\/+$/, "");
}

/** Resolves a host name to its addresses (the webhook URL guard checks each; tests inject a table, never DNS). */
export type HostResolver = (hostname: string) => Promise<LookupAddress[]>;

export interface Config {
  port: number;
  host: string;
  /** The URL clients reach the API at (PUBLIC_URL): the `servers` entry of the served OpenAPI document. */
  publicUrl: string;
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
  /**
   * How many proxies in front of the service append to X-Forwarded-For (TRUST_PROXY: `true` = 1, or a number):
   * the client address is the entry the outermost trusted proxy added, never one the client wrote itself. 0 = the
   * connection's peer address.
   */
  trustProxyHops: number;
  shutdownTimeoutMs: number;
  /** A request's headers and body must have arrived within this (Node's server.requestTimeout). */
  requestTimeoutMs: number;
  /** A request's headers must have arrived within this (Node's server.headersTimeout). */
  headersTimeoutMs: number;
  /** `x-large-body` requests (the 32 MB migration package) one API process takes at once (src/http/large-bodies.ts). */
  largeBodySlots: number;
  /** Worker threads that parse, validate and check those bodies; undefined: one per CPU but one, at least one. */
  largeBodyWorkers: number | undefined;
  /** The ECB rates feed: its folder, or its daily file (src/reference/ecb.ts). */
  exchangeRatesUrl: string;
  /** AES-256-GCM key of stored secrets (SECRETS_KEY); src/secrets.ts fills it from DATA_DIR for the embedded default. */
  secretsKey: Buffer | undefined;
  /** SMTP server for operator e-mails (nodemailer URL); unset = kept in outbound_emails and logged. */
  smtpUrl: string | undefined;
  /** The sender of operator e-mails. */
  mailFrom: string;
  /** http:// and private, loopback, link-local addresses allowed for webhook URLs (tests, local development). */
  webhookAllowPrivateUrls: boolean;
  /** The ports a webhook URL may name (WEBHOOK_ALLOWED_PORTS, default 443 and 8443); any with webhookAllowPrivateUrls. */
  webhookAllowedPorts: number[];
  /** Resolution of webhook hosts instead of the system resolver: set only by tests, never from the environment. */
  webhookResolve?: HostResolver;
  /** Days an event is kept for events/list and redelivery (EVENT_RETENTION_DAYS), then pruned. */
  eventRetentionDays: number;
  /** Delay before each delivery attempt, in ms: the first is normally 0. */
  webhookRetrySchedule: number[];
  /** How long one delivery attempt may take. */
  webhookTimeoutMs: number;
  /** Deliveries sent at once by one worker process (each subscription's still one at a time). */
  webhookConcurrency: number;
  /** Invoices per part of an i.SAF file (ISAF_PART_SIZE, default 50,000; src/declarations/lt/isaf.ts says why). */
  isafPartSize: number;
  /** Rows an i.SAF part reads from its cursor at a time (ISAF_FETCH_ROWS, default 5,000). */
  isafFetchRows: number;
  /** Journal transactions per part of a SAF-T file (SAFT_PART_SIZE, default 20,000: about 30 MB of XML; src/declarations/lt/saft.ts). */
  saftPartSize: number;
  /** Hours a written SAF-T file is kept before the worker prunes it (SAFT_KEEP_HOURS, default 168: a week). */
  saftKeepHours: number;
}

export function loadConfig(): Config {
  return {
    port: int("PORT", 3000),
    host: process.env.HOST || "0.0.0.0",
    publicUrl: publicUrl("PUBLIC_URL"),
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
    trustProxyHops: proxyHops("TRUST_PROXY"),
    shutdownTimeoutMs: int("SHUTDOWN_TIMEOUT_MS", 10_000, 0),
    requestTimeoutMs: int("REQUEST_TIMEOUT_MS", 60_000, 1000),
    headersTimeoutMs: int("HEADERS_TIMEOUT_MS", 15_000, 1000),
    largeBodySlots: int("LARGE_BODY_SLOTS", 4, 1),
    largeBodyWorkers: process.env.LARGE_BODY_WORKERS ? int("LARGE_BODY_WORKERS", 1, 1) : undefined,
    exchangeRatesUrl: process.env.EXCHANGE_RATES_URL || DEFAULT_ECB_URL,
    secretsKey: base64Key("SECRETS_KEY"),
    smtpUrl: process.env.SMTP_URL || undefined,
    mailFrom: process.env.MAIL_FROM || "Accounting API <no-reply@localhost>",
    webhookAllowPrivateUrls: bool("WEBHOOK_ALLOW_PRIVATE_URLS", false),
    webhookAllowedPorts: ports("WEBHOOK_ALLOWED_PORTS", [443, 8443]),
    eventRetentionDays: int("EVENT_RETENTION_DAYS", 30, 1),
    webhookRetrySchedule: durations("WEBHOOK_RETRY_SCHEDULE", DEFAULT_WEBHOOK_RETRY_SCHEDULE),
    webhookTimeoutMs: int("WEBHOOK_TIMEOUT_MS", 10_000, 100),
    webhookConcurrency: int("WEBHOOK_CONCURRENCY", 16, 1),
    isafPartSize: int("ISAF_PART_SIZE", 50_000, 1),
    isafFetchRows: int("ISAF_FETCH_ROWS", 5_000, 1),
    saftPartSize: int("SAFT_PART_SIZE", 20_000, 1),
    saftKeepHours: int("SAFT_KEEP_HOURS", 168, 1),
  };
}
