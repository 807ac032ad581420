// The hash an Idempotency-Key's record keeps of its request (./idempotency.ts): the operation and the body in one
// canonical JSON (properties sorted). Apart, so that a worker thread parsing a large body (./body-worker.ts) computes
// it there without loading the database code.
import { createHash } from "node:crypto";

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export function requestHash(operationId: string, body: unknown): string {
  return createHash("sha256").update(operationId).update("\n").update(canonicalJson(body)).digest("hex");
}
