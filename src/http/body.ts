import type { IncomingMessage } from "node:http";
import { ApiError, validationError, type FieldErrors } from "../errors.js";

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * How deep a body may nest. The deepest request of the contract nests 6 levels (a list filter's `in` values); the
 * cap keeps every later recursive step (validation, hashing, storing) far from the stack's limit (issue 7, defect 3).
 */
export const MAX_BODY_DEPTH = 32;

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

/** Reads the raw body, refusing (413) as soon as it is known to exceed `limit` bytes. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > limit) throw tooLarge(limit);
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    // `aborted` / ECONNRESET: the socket closed under the stream.
    if (req.destroyed || (error as NodeJS.ErrnoException).code === "ECONNRESET") throw new ClientAbortedError();
    throw error;
  }
  if (req.readableAborted) throw new ClientAbortedError();
  return Buffer.concat(chunks);
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Parses a JSON request body; every failure is a 400 `validation` naming `body` or the offending path: not JSON,
 * not UTF-8, nested deeper than MAX_BODY_DEPTH, or holding a string PostgreSQL cannot store (U+0000, a lone UTF-16
 * surrogate — both are valid JSON escapes, never valid input; issue 7, defect 7).
 */
export function parseJsonBody(contentType: string | undefined, raw: Buffer): unknown {
  const mediaType = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (mediaType !== "application/json") {
    throw validationError({ body: ["must be sent with Content-Type: application/json"] }, "The request body must be JSON.");
  }
  if (raw.length === 0) throw validationError({ body: ["is required (send {} when there is nothing to say)"] }, "The request body is empty.");
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw validationError({ body: ["is not valid UTF-8"] }, "The request body is not valid UTF-8.");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw validationError({ body: [`is not valid JSON: ${(error as Error).message}`] }, "The request body is not valid JSON.");
  }
  const problems = inspect(value);
  if (Object.keys(problems).length) throw validationError(problems);
  return value;
}

/** Why a string cannot be stored, or undefined when it can. */
export function badString(text: string): string | undefined {
  if (text.includes("\u0000")) return "must not contain the character U+0000";
  if (!text.isWellFormed()) return "must not contain a lone UTF-16 surrogate (an unpaired \\uD800-\\uDFFF escape)";
  return undefined;
}

/**
 * One iterative walk over the parsed body (a recursive one overflows the stack on deep input): depth, and strings
 * PostgreSQL cannot store, in values and in property names. At most 100 paths are named.
 */
function inspect(root: unknown): FieldErrors {
  // A Map, not an object: paths are made of the client's property names, `__proto__` included.
  const errors = new Map<string, string[]>();
  const fail = (path: string, message: string) => {
    const field = path || "body";
    const messages = errors.get(field) ?? [];
    if (!errors.has(field) && errors.size >= 100) return;
    if (!messages.includes(message)) messages.push(message);
    errors.set(field, messages);
  };
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: root, path: "", depth: 0 }];
  while (stack.length) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === "string") {
      const problem = badString(value);
      if (problem) fail(path, problem);
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    if (depth >= MAX_BODY_DEPTH) {
      return { body: [`nests deeper than ${MAX_BODY_DEPTH} levels`] };
    }
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: `${path}[${i}]`, depth: depth + 1 });
      continue;
    }
    for (const [key, child] of Object.entries(value)) {
      const problem = badString(key);
      if (problem) {
        fail(path, `has a property name that ${problem}`);
        continue;
      }
      stack.push({ value: child, path: path ? `${path}.${key}` : key, depth: depth + 1 });
    }
  }
  return Object.fromEntries(errors);
}
