// Secrets the product must be able to use again (webhook signing secrets) cannot be hashed like API keys; they are
// stored encrypted with AES-256-GCM under SECRETS_KEY (32 bytes, base64). A sealed value is iv (12) || tag (16) ||
// ciphertext, and names what it belongs to as additional data, so a sealed secret copied to another row does not
// open. With the embedded database and no SECRETS_KEY a key is generated once under DATA_DIR; with DATABASE_URL the
// operator must give one (a key file on one machine would not be shared by the others, and losing it loses every
// secret), so the process refuses to start without it.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./config.js";

const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretsKeyMissing extends Error {}

/** SECRETS_KEY, else (embedded database only) the key file under DATA_DIR, created on first start. */
export function resolveSecretsKey(config: Config): Buffer {
  if (config.secretsKey) return config.secretsKey;
  if (config.databaseUrl) {
    throw new SecretsKeyMissing(
      "SECRETS_KEY is required with DATABASE_URL: webhook signing secrets are stored encrypted with it. " +
        "Generate one with `openssl rand -base64 32`, give every API and worker process the same value, and keep it safe.",
    );
  }
  const file = join(config.dataDir, "secrets.key");
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, `${randomBytes(32).toString("base64")}\n`, { mode: 0o600, flag: "wx" });
  }
  chmodSync(file, 0o600);
  const key = Buffer.from(readFileSync(file, "utf8").trim(), "base64");
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
  return key;
}

export function requireSecretsKey(config: Config): Buffer {
  if (!config.secretsKey) throw new SecretsKeyMissing("no secrets key configured (SECRETS_KEY)");
  return config.secretsKey;
}

export function seal(key: Buffer, plaintext: string, context: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

export function unseal(key: Buffer, sealed: Buffer, context: string): string {
  const decipher = createDecipheriv("aes-256-gcm", key, sealed.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
}
