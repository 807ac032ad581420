// What the service accepts as JSON input, wherever it comes from — a request body (src/http/body.ts) or a package
// file the operator CLI reads (src/migration/package-file.ts): UTF-8, nested at most MAX_BODY_DEPTH levels, and no
// string PostgreSQL cannot store. Below both layers (STYLE.md, practice 16).
import { validationError, type FieldErrors } from "./errors.js";

/**
 * How deep a body may nest. The deepest request of the contract nests 6 levels (a list filter's `in` values); the
 * cap keeps every later recursive step (validation, hashing, storing) far from the stack's limit (issue 7, defect 3).
 */
export const MAX_BODY_DEPTH = 32;

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Why a string cannot be stored (U+0000, a lone UTF-16 surrogate: valid JSON escapes, never valid input), or undefined. */
export function badString(text: string): string | undefined {
  if (text.includes("\u0000")) return "must not contain the character U+0000";
  if (!text.isWellFormed()) return "must not contain a lone UTF-16 surrogate (an unpaired \\uD800-\\uDFFF escape)";
  return undefined;
}

/**
 * Decodes and parses JSON input; every failure is a 400 `validation` naming `body` or the offending path: not
 * UTF-8, not JSON, nested deeper than MAX_BODY_DEPTH, or holding a string PostgreSQL cannot store (issue 7,
 * defects 3 and 7). `what` names the input in the messages ("The request body", "The package").
 */
export function parseJsonInput(raw: Buffer, what: string): unknown {
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw validationError({ body: ["is not valid UTF-8"] }, `${what} is not valid UTF-8.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw validationError({ body: [`is not valid JSON: ${(error as Error).message}`] }, `${what} is not valid JSON.`);
  }
  const problems = inspect(value);
  if (Object.keys(problems).length) throw validationError(problems);
  return value;
}

/**
 * One iterative walk over the parsed value (a recursive one overflows the stack on deep input): depth, and strings
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
