// API key format (used by the gate and by the domain that makes keys). A key is `ak_<key id, 32 hex>_<secret, 43 base64url>`; only the SHA-256 of the secret is stored.
// The secret has 256 bits of entropy, so a fast hash is enough (no password stretching). The gate compares the
// digests (src/http/gate.ts says why that comparison need not be constant-time).
import { createHash, randomBytes, randomUUID } from "node:crypto";

const KEY_PATTERN = /^ak_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;

export interface NewKey {
  id: string;
  key: string;
  prefix: string;
  secretHash: Buffer;
}

export const hashSecret = (secret: string): Buffer => createHash("sha256").update(secret).digest();

export function generateKey(): NewKey {
  const id = randomUUID();
  const secret = randomBytes(32).toString("base64url");
  const key = `ak_${id.replace(/-/g, "")}_${secret}`;
  return { id, key, prefix: key.slice(0, 11), secretHash: hashSecret(secret) };
}

/** Splits a presented key into its id and secret, or returns undefined when it is malformed. */
export function parseKey(presented: string): { id: string; secret: string } | undefined {
  const match = KEY_PATTERN.exec(presented);
  if (!match) return undefined;
  const hex = match[1];
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { id, secret: match[2] };
}

/** Reads the bearer token of an Authorization header; undefined when absent or not a bearer token. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
