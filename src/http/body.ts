import type { IncomingMessage } from "node:http";
import { ApiError, validationError } from "../shared/errors.js";
import { parseJsonInput } from "../shared/json-input.js";

export { badString, MAX_BODY_DEPTH } from "../shared/json-input.js";

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Thrown before the body is read: the connection must close, since its unread remainder cannot be skipped. */
const tooLarge = (limit: number) =>
  new ApiError("payload_too_large", `The request body exceeds ${limit} bytes, the limit of this operation.`, {
    key: "request.body_too_large",
    params: { limitBytes: limit },
  });

/** The client went away while its body was arriving: nothing to answer, and not a server error (logged as such). */
export class ClientAbortedError extends Error {
  constructor() {
    super("the client closed the connection before its request body arrived");
  }
}

/** A body of a declared length at least this large is copied into one buffer as it arrives (see readBody). */
const PREALLOCATE_FROM = 1024 * 1024;

/**
 * Reads the raw body, refusing (413) as soon as it is known to exceed `limit` bytes. A large body of a declared
 * length goes straight into one buffer of that length, chunk by chunk as it arrives: joining 32 MB of chunks at the
 * end would hold the event loop for a memcpy of all of it at once (issue 22, item 4). That buffer is its own memory
 * (not Node's shared pool), so it can be moved to a worker thread.
 */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const into = Number.isInteger(declared) && declared >= PREALLOCATE_FROM ? Buffer.allocUnsafeSlow(declared) : undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req) {
      const bytes = chunk as Buffer;
      if (size + bytes.length > limit || (into && size + bytes.length > into.length)) throw tooLarge(limit);
      if (into) bytes.copy(into, size);
      else chunks.push(bytes);
      size += bytes.length;
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    // `aborted` / ECONNRESET: the socket closed under the stream.
    if (req.destroyed || (error as NodeJS.ErrnoException).code === "ECONNRESET") throw new ClientAbortedError();
    throw error;
  }
  if (req.readableAborted) throw new ClientAbortedError();
  return into ? into.subarray(0, size) : Buffer.concat(chunks);
}

/**
 * Parses a JSON request body; every failure is a 400 `validation` naming `body` or the offending path: sent as
 * something other than application/json, empty, or not what src/shared/json-input.ts accepts.
 */
export function parseJsonBody(contentType: string | undefined, raw: Buffer): unknown {
  const mediaType = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (mediaType !== "application/json") {
    throw validationError({ body: ["must be sent with Content-Type: application/json"] }, "The request body must be JSON.");
  }
  if (raw.length === 0) throw validationError({ body: ["is required (send {} when there is nothing to say)"] }, "The request body is empty.");
  return parseJsonInput(raw, "The request body");
}
