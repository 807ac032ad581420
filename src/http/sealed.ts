// Sealing of stored responses that carry a secret (operations marked `x-sensitive-response`, e.g. the new API
// key of account/api-keys/create). The idempotency store must not keep the secret readable, yet a retry by the
// same caller must get it back. So the stored response is encrypted (AES-256-GCM) under a key derived (HKDF) from
// the caller's own bearer token, which the service never stores, and the idempotency key: only a retry presenting
// both can open it.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const INFO = Buffer.from("accounting-api idempotent replay v1");

function deriveKey(bearerToken: string, idempotencyKey: string): Buffer {
  return Buffer.from(hkdfSync("sha256", Buffer.from(bearerToken), Buffer.from(idempotencyKey), INFO, 32));
}

export interface Sealed {
  sealed: string;
}

export function seal(value: unknown, bearerToken: string, idempotencyKey: string): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", deriveKey(bearerToken, idempotencyKey), iv);
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
  return { sealed: Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64") };
}

/** The sealed value, or undefined when this token and key cannot open it. */
export function unseal(stored: Sealed, bearerToken: string, idempotencyKey: string): unknown {
  const raw = Buffer.from(stored.sealed, "base64");
  try {
    const decipher = createDecipheriv("aes-256-gcm", deriveKey(bearerToken, idempotencyKey), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8"));
  } catch {
    return undefined;
  }
}

export const isSealed = (value: unknown): value is Sealed =>
  typeof value === "object" && value !== null && typeof (value as Sealed).sealed === "string" && Object.keys(value).length === 1;
