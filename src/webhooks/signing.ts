// Webhook signatures (spec: "Events", delivery rules 1-2). Three headers sign each delivery:
//   x-service-signature-v2: t=<unix seconds>,v1=<hex of HMAC over "<t>.<body>">   (the timestamp is signed, so a
//                           receiver can refuse replays outside a tolerance window, as Stripe's scheme does)
//   x-service-signature:    sha256=<hex of HMAC over the body>                     (the original header, kept)
//   webhook-signature:      v1,<base64 of HMAC over "<webhook-id>.<t>.<body>">     (Standard Webhooks, issue 28;
//                           standardwebhooks.com: what its libraries verify)
// The first two are keyed with the whole signing secret (`whsec_…` as UTF-8), as they always were. The Standard
// Webhooks header is keyed as that specification says: with the bytes the base64 after `whsec_` encodes (secrets
// issued since issue 28 are `whsec_` + standard base64 of 32 random bytes, which its libraries decode; older ones
// are base64url, whose bytes Node reads the same way). During a rotation each header carries one value per live
// secret, newest first: comma-separated in the first two, space-separated in `webhook-signature`.
import { createHmac, timingSafeEqual } from "node:crypto";

const hmac = (secret: string, text: string) => createHmac("sha256", secret).update(text, "utf8").digest("hex");

/** The HMAC key of `webhook-signature`: the bytes of the base64 (or base64url) text after `whsec_`. */
export const standardWebhooksKey = (secret: string): Buffer => Buffer.from(secret.replace(/^whsec_/, ""), "base64");

export interface SignatureHeaders {
  "x-service-signature-v2": string;
  "x-service-signature": string;
}

/** The service's own signature headers of `body` at `timestamp` (unix seconds) under the live secrets, newest first. */
export function signatureHeaders(secrets: string[], timestamp: number, body: string): SignatureHeaders {
  return {
    "x-service-signature-v2": [`t=${timestamp}`, ...secrets.map((s) => `v1=${hmac(s, `${timestamp}.${body}`)}`)].join(","),
    "x-service-signature": secrets.map((s) => `sha256=${hmac(s, body)}`).join(","),
  };
}

/** The Standard Webhooks `webhook-signature` of a delivery: `v1,<base64>` per live secret, newest first, space-separated. */
export function standardWebhooksSignature(secrets: string[], webhookId: string, timestamp: number, body: string): string {
  return secrets
    .map((s) => `v1,${createHmac("sha256", standardWebhooksKey(s)).update(`${webhookId}.${timestamp}.${body}`, "utf8").digest("base64")}`)
    .join(" ");
}

export const USER_AGENT = "AccountingAPI-Webhooks/0.3.6";

/**
 * Every header of one delivery attempt (README: "Delivery"), for the worker's deliveries and for the ping of
 * `webhooks/subscriptions/test` alike: `body` is the envelope exactly as sent.
 */
export function deliveryHeaders(d: {
  eventId: string;
  eventType: string;
  attempt: number;
  timestamp: number;
  body: string;
  secrets: string[];
}): Record<string, string> {
  return {
    "content-type": "application/json",
    "user-agent": USER_AGENT,
    "webhook-id": d.eventId,
    "webhook-attempt": String(d.attempt),
    "webhook-timestamp": String(d.timestamp),
    "webhook-event-type": d.eventType,
    "webhook-signature": standardWebhooksSignature(d.secrets, d.eventId, d.timestamp, d.body),
    ...signatureHeaders(d.secrets, d.timestamp, d.body),
  };
}

const equalHex = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * What a receiver does with the v2 header (README: "Verifying a delivery"): true when one `v1=` value is the HMAC
 * of `<t>.<body>` under `secret` and `t` is within `toleranceSeconds` of `now`.
 */
export function verifySignatureV2(header: string, body: string, secret: string, toleranceSeconds = 300, now = Date.now() / 1000): boolean {
  const parts = header.split(",").map((p) => p.trim().split("="));
  const t = Number(parts.find(([k]) => k === "t")?.[1]);
  if (!Number.isInteger(t) || Math.abs(now - t) > toleranceSeconds) return false;
  const expected = hmac(secret, `${t}.${body}`);
  return parts.some(([k, v]) => k === "v1" && v !== undefined && equalHex(v, expected));
}
