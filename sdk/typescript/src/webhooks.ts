// Verifying a webhook delivery (README: "Events and webhooks"). Both signatures are hex HMAC-SHA256 keyed with the
// whole signing secret (`whsec_…`, UTF-8):
//   x-service-signature-v2: t=<unix seconds>,v1=<hex of HMAC over "<t>.<raw body>">
//   x-service-signature:    sha256=<hex of HMAC over the raw body>          (the original header; no timestamp)
// During a secret rotation each header carries one value per live secret, newest first; a delivery is genuine when
// any value matches any secret the receiver holds. Web Crypto only, so this runs on Node, Deno, Bun and edge runtimes.
import type { components } from "./generated/schema.js";

/** A delivery's body: the event envelope, discriminated by `eventType`. */
export type WebhookEvent = components["schemas"]["Webhooks.Event"];

export const SIGNATURE_HEADER = "x-service-signature-v2";
export const LEGACY_SIGNATURE_HEADER = "x-service-signature";
/** How far `t` may be from now, by default (as Stripe's): 5 minutes. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export type WebhookFailure = "missing_signature" | "malformed_signature" | "timestamp_outside_tolerance" | "no_matching_signature";

export class WebhookSignatureError extends Error {
  constructor(
    readonly reason: WebhookFailure,
    message: string,
  ) {
    super(message);
    this.name = "WebhookSignatureError";
  }
}

/**
 * Request headers as Node (`req.headers`), the Fetch API (`request.headers`) or any plain object of header names
 * (any case) to a string or an array of strings gives them.
 */
export type HeadersLike = Headers | object;

export interface VerifyOptions {
  /** Seconds `t` may differ from now (default 300). Deliveries older than that are refused as possible replays. */
  toleranceSeconds?: number;
  /** Now, in unix seconds (default: the clock). */
  now?: number;
  /**
   * Accept a delivery that carries only the original `x-service-signature` (no timestamp, so no replay window).
   * Default false: the v2 header is required. When the v2 header is present it is always the one checked.
   */
  allowLegacy?: boolean;
}

const encoder = new TextEncoder();

function header(headers: HeadersLike, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, unknown>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  if (Array.isArray(value)) return value.join(",");
  return typeof value === "string" ? value : undefined;
}

const bytes = (payload: string | Uint8Array) => (typeof payload === "string" ? encoder.encode(payload) : payload);

async function hmacHex(secret: string, parts: Uint8Array[]): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const data = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    data.set(p, at);
    at += p.length;
  }
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, data));
  return Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Compares in time that depends only on the length (the lengths of hex HMACs are public). */
function equal(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Checks a delivery's signature and throws {@link WebhookSignatureError} unless it is genuine. `payload` is the raw
 * body exactly as received (a string or bytes: never a re-serialised parse). `secret` may be several secrets, e.g.
 * the old and the new one while you roll yours over.
 */
export async function verifyWebhookSignature(
  payload: string | Uint8Array,
  headers: HeadersLike,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): Promise<void> {
  const secrets = [secret].flat().filter((s) => s);
  if (secrets.length === 0) throw new TypeError("verifyWebhookSignature: a signing secret is required");
  const body = bytes(payload);
  const v2 = header(headers, SIGNATURE_HEADER);
  if (v2 === undefined) {
    const legacy = header(headers, LEGACY_SIGNATURE_HEADER);
    if (legacy === undefined || !options.allowLegacy) {
      throw new WebhookSignatureError(
        "missing_signature",
        legacy === undefined
          ? `no ${SIGNATURE_HEADER} header`
          : `no ${SIGNATURE_HEADER} header (${LEGACY_SIGNATURE_HEADER} alone is accepted only with allowLegacy)`,
      );
    }
    const values = legacy
      .split(",")
      .map((v) => v.trim())
      .filter((v) => v.startsWith("sha256="))
      .map((v) => v.slice("sha256=".length));
    if (values.length === 0) throw new WebhookSignatureError("malformed_signature", `${LEGACY_SIGNATURE_HEADER} has no sha256= value`);
    for (const s of secrets) {
      const expected = await hmacHex(s, [body]);
      if (values.some((v) => equal(v, expected))) return;
    }
    throw new WebhookSignatureError("no_matching_signature", `no ${LEGACY_SIGNATURE_HEADER} value matches the secret`);
  }

  const pairs = v2.split(",").map((part) => {
    const at = part.indexOf("=");
    return at < 0 ? [part.trim(), ""] : [part.slice(0, at).trim(), part.slice(at + 1).trim()];
  });
  const ts = pairs.filter(([k]) => k === "t").map(([, v]) => v);
  const signatures = pairs.filter(([k, v]) => k === "v1" && v).map(([, v]) => v);
  if (ts.length !== 1 || !/^[0-9]{1,12}$/.test(ts[0]) || signatures.length === 0) {
    throw new WebhookSignatureError("malformed_signature", `${SIGNATURE_HEADER} must be t=<unix seconds>,v1=<hex>[,v1=<hex>…]`);
  }
  const t = Number(ts[0]);
  const now = options.now ?? Date.now() / 1000;
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(now - t) > tolerance) {
    throw new WebhookSignatureError("timestamp_outside_tolerance", `the signature's timestamp ${t} is more than ${tolerance} s from now (${Math.floor(now)})`);
  }
  const prefix = encoder.encode(`${ts[0]}.`);
  for (const s of secrets) {
    const expected = await hmacHex(s, [prefix, body]);
    if (signatures.some((v) => equal(v, expected))) return;
  }
  throw new WebhookSignatureError("no_matching_signature", `no ${SIGNATURE_HEADER} value matches the secret`);
}

/**
 * Verifies a delivery ({@link verifyWebhookSignature}) and returns its event, typed by `eventType`. De-duplicate on
 * `event.id` (also the `webhook-id` header): the same event may be delivered more than once.
 */
export async function constructWebhookEvent(
  payload: string | Uint8Array,
  headers: HeadersLike,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): Promise<WebhookEvent> {
  await verifyWebhookSignature(payload, headers, secret, options);
  return JSON.parse(typeof payload === "string" ? payload : new TextDecoder().decode(payload)) as WebhookEvent;
}
