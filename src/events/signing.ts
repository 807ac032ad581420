// Webhook signatures (spec: "Events", delivery rules 1-2). Both headers are HMAC-SHA256 keyed with the whole signing
// secret (`whsec_…` as UTF-8):
//   x-service-signature-v2: t=<unix seconds>,v1=<hex of HMAC over "<t>.<body>">   (the timestamp is signed, so a
//                           receiver can refuse replays outside a tolerance window, as Stripe's scheme does)
//   x-service-signature:    sha256=<hex of HMAC over the body>                     (the original header, kept)
// During a rotation each header carries one value per live secret, newest first, comma-separated.
import { createHmac, timingSafeEqual } from "node:crypto";

const hmac = (secret: string, text: string) => createHmac("sha256", secret).update(text, "utf8").digest("hex");

export interface SignatureHeaders {
  "x-service-signature-v2": string;
  "x-service-signature": string;
}

/** The signature headers of `body` at `timestamp` (unix seconds) under the live secrets, newest first. */
export function signatureHeaders(secrets: string[], timestamp: number, body: string): SignatureHeaders {
  return {
    "x-service-signature-v2": [`t=${timestamp}`, ...secrets.map((s) => `v1=${hmac(s, `${timestamp}.${body}`)}`)].join(","),
    "x-service-signature": secrets.map((s) => `sha256=${hmac(s, body)}`).join(","),
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
