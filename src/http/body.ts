import type { IncomingMessage } from "node:http";
import { ApiError, validationError } from "../errors.js";

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

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
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch (error) {
    throw validationError({ body: [`is not valid JSON: ${(error as Error).message}`] }, "The request body is not valid JSON.");
  }
}
