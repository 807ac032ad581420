import type { IncomingMessage } from "node:http";
import { ApiError, validationError } from "../errors.js";

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Thrown before the body is read: the connection must close, since its unread remainder cannot be skipped. */
const tooLarge = (limit: number) =>
  new ApiError("payload_too_large", `The request body exceeds ${limit} bytes, the limit of this operation.`, {
    key: "request.body_too_large",
    params: { limitBytes: limit },
  });

/** Reads the raw body, refusing (413) as soon as it is known to exceed `limit` bytes. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Parses a JSON request body; every failure is a 400 `validation` naming `body`. */
export function parseJsonBody(contentType: string | undefined, raw: Buffer): unknown {
  const mediaType = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (mediaType !== "application/json") {
    throw validationError({ body: ["must be sent with Content-Type: application/json"] }, "The request body must be JSON.");
  }
  if (raw.length === 0) throw validationError({ body: ["is required (send {} when there is nothing to say)"] }, "The request body is empty.");
  let value: unknown;
  try {
    value = JSON.parse(raw.toString("utf8"));
  } catch (error) {
    throw validationError({ body: [`is not valid JSON: ${(error as Error).message}`] }, "The request body is not valid JSON.");
  }
  const withNul = pathsWithNul(value, "");
  if (withNul.length) {
    throw validationError(Object.fromEntries(withNul.map((path) => [path || "body", ["must not contain the character U+0000"]])));
  }
  return value;
}

/** Paths of strings holding U+0000, which PostgreSQL text cannot store (valid JSON, but never valid input). */
function pathsWithNul(value: unknown, path: string): string[] {
  if (typeof value === "string") return value.includes("\u0000") ? [path] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => pathsWithNul(v, `${path}[${i}]`));
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => [...(k.includes("\u0000") ? [path || "body"] : []), ...pathsWithNul(v, path ? `${path}.${k}` : k)]);
  }
  return [];
}
