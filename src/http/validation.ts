// Turns ajv errors (as openapi-backend reports them) into the envelope's `fieldErrors`: one entry per offending
// field, named as a path into the body (`entries[2].debit`) or by the header's declared name (`Idempotency-Key`).
//
// Two things make the messages readable (issue 28):
//  - A value that breaks a scalar's `pattern` or `format` is told what the scalar is, in the words of the scalar's own
//    description in the contract (`expected a monetary amount as a decimal string: …`), never the regular expression.
//    The request validators run with ajv's `verbose`, so each error carries the schema that holds the keyword: a
//    scalar's component, or a copy scripts/gen.mjs inlined and gave the scalar's description as
//    `x-scalar-description` (gen refuses a pattern anywhere else).
//  - A `oneOf`/`anyOf` of objects is reported by the branch the body meant (the one whose properties it has), as if
//    that branch were the schema; when it meant none or several of single-property objects ("exactly one of `id` and
//    `code`"), each of those properties is told so.
import type { ErrorObject } from "ajv";
import type { FieldErrors } from "../shared/errors.js";

function fieldPath(segments: string[]): string {
  let path = "";
  for (const segment of segments) {
    if (/^\d+$/.test(segment)) path += `[${segment}]`;
    else path += path ? `.${segment}` : segment;
  }
  return path;
}

/** What a format expects, where no scalar's description says it. */
const FORMAT_WORDS: Record<string, string> = {
  int32: "an integer from -2147483648 to 2147483647",
  int64: "an integer from -9223372036854775808 to 9223372036854775807",
  date: "a real calendar date, `YYYY-MM-DD`",
  "date-time": "a timestamp (RFC 3339)",
  uuid: "a UUID",
  email: "an e-mail address",
};

/**
 * A scalar's description as the end of "expected …": its first paragraph, on one line, without the full stop. Only a
 * schema holding a `pattern` is a scalar's (scripts/gen.mjs refuses a pattern anywhere else); another schema's
 * description is its property's, which says what the field is for, not what it must look like.
 */
export function expectedWords(schema: unknown): string | undefined {
  const s = schema as { "x-scalar-description"?: unknown; description?: unknown; pattern?: unknown } | undefined;
  const text = s?.["x-scalar-description"] ?? (typeof s?.pattern === "string" ? s.description : undefined);
  if (typeof text !== "string" || !text.trim()) return undefined;
  const paragraph = text
    .trim()
    .split(/\n\s*\n/)[0]
    .replace(/\s+/g, " ")
    .replace(/\.$/, "");
  // "A monetary amount …" -> "a monetary amount …", but "IBAN …" stays.
  return /^[A-Z][A-Z0-9]+\b/.test(paragraph) ? paragraph : paragraph[0].toLowerCase() + paragraph.slice(1);
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return "is required";
    case "additionalProperties":
      return "is not a known property";
    case "enum":
      return `must be one of: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "anyOf":
    case "oneOf":
      return "does not match any of the allowed forms";
    case "not":
      // `items: {not: {}}`: an array that must stay empty (the totals of a list that totals nothing).
      return "is not allowed here";
    case "pattern":
    case "format": {
      const words = expectedWords(error.parentSchema) ?? (error.keyword === "format" ? FORMAT_WORDS[String(params.format)] : undefined);
      return words ? `expected ${words}` : "does not have the expected form";
    }
    default:
      return error.message ?? `fails ${error.keyword}`;
  }
}

/** An error to report: ajv's, or one this file makes (a message of its own at a path). */
type Reported = Pick<ErrorObject, "instancePath" | "keyword" | "params" | "parentSchema" | "message"> & { text?: string };

type ObjectSchema = { type?: unknown; properties?: Record<string, unknown>; required?: string[]; additionalProperties?: unknown };

const isUnion = (e: ErrorObject) => e.keyword === "anyOf" || e.keyword === "oneOf";
const pointer = (name: string) => name.replace(/~/g, "~0").replace(/\//g, "~1");
const within = (e: ErrorObject, path: string) => e.instancePath === path || e.instancePath.startsWith(`${path}/`);

/**
 * A union of objects (`oneOf: [{id}, {code}]`) judged by the body's own keys, not by ajv's errors (ajv reports a
 * schema shared by two branches under the first branch's path, so its paths do not tell the branches apart): the
 * branch whose required properties the body has and whose (closed) properties hold every key the union knows.
 * One such branch: its errors are reported as if it were the schema (`keep`), and keys no branch knows as unknown.
 * None or several, where each branch requires one property: "send exactly one of …" on each of those properties.
 * Anything else (a union of scalars or arrays, a body that is not an object): undefined, and the union is reported
 * as one message.
 */
function objectUnion(union: ErrorObject, under: ErrorObject[]): { report: Reported[]; keep: ErrorObject[] } | undefined {
  const branches = union.schema as ObjectSchema[] | undefined;
  const data = union.data as Record<string, unknown> | undefined;
  if (!Array.isArray(branches) || !branches.every((b) => b?.type === "object" && b.properties)) return undefined;
  if (data === null || typeof data !== "object" || Array.isArray(data)) return undefined;
  const keys = Object.keys(data);
  const known = new Set(branches.flatMap((b) => Object.keys(b.properties!)));
  const unknown: Reported[] = keys
    .filter((k) => !known.has(k))
    .map((k) => ({ instancePath: union.instancePath, keyword: "additionalProperties", params: { additionalProperty: k } }));
  const fitting = branches.filter(
    (b) => (b.required ?? []).every((r) => keys.includes(r)) && (b.additionalProperties !== false || keys.every((k) => !known.has(k) || k in b.properties!)),
  );
  if (fitting.length === 1) {
    const paths = Object.keys(fitting[0].properties!).map((p) => `${union.instancePath}/${pointer(p)}`);
    return { report: unknown, keep: under.filter((e) => paths.some((path) => within(e, path))) };
  }
  if (!branches.every((b) => b.required?.length === 1)) return undefined;
  const names = branches.map((b) => b.required![0]);
  const text = `send exactly one of ${names.length === 2 ? names.join(" and ") : names.join(", ")}`;
  const choice: Reported[] = names.map((name) => ({ instancePath: `${union.instancePath}/${pointer(name)}`, keyword: "oneOf", params: {}, text }));
  return { report: [...choice, ...unknown], keep: [] };
}

/**
 * A look-up of the errors at a path or below it, in ajv's order. An array of thousands of items each failing a union
 * makes thousands of unions; scanning every error for each of them took seconds of the event loop (the contract
 * fuzzer: 20,000 event types, six minutes), so the errors are sorted by path once and each look-up is two binary
 * searches: the path itself, then the contiguous run of paths that begin with it and a `/`.
 */
function errorsWithin(errors: ErrorObject[]): (path: string) => ErrorObject[] {
  const order = new Map(errors.map((e, i) => [e, i]));
  const sorted = [...errors].sort((a, b) => (a.instancePath < b.instancePath ? -1 : a.instancePath > b.instancePath ? 1 : order.get(a)! - order.get(b)!));
  const firstAtOrAfter = (path: string) => {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid].instancePath < path) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return (path) => {
    const found: ErrorObject[] = [];
    for (let i = firstAtOrAfter(path); i < sorted.length && sorted[i].instancePath === path; i++) found.push(sorted[i]);
    const prefix = `${path}/`;
    for (let i = firstAtOrAfter(prefix); i < sorted.length && sorted[i].instancePath.startsWith(prefix); i++) found.push(sorted[i]);
    return found.sort((a, b) => order.get(a)! - order.get(b)!);
  };
}

/**
 * The errors to report. Each union, outermost first, becomes what objectUnion makes of it, or one message at its path
 * with the messages of everything under it folded in ("does not match any of the allowed forms (…)").
 */
function resolveAll(errors: ErrorObject[]): Reported[] {
  const consumed = new Set<ErrorObject>();
  const reported: Reported[] = [];
  const unions = errors.filter(isUnion).sort((a, b) => a.instancePath.length - b.instancePath.length);
  const under = errorsWithin(errors);
  for (const union of unions) {
    if (consumed.has(union)) continue;
    consumed.add(union);
    const inside = under(union.instancePath).filter((e) => !consumed.has(e));
    const plan = objectUnion(union, inside);
    const keep = new Set(plan?.keep);
    for (const e of inside) if (!keep.has(e)) consumed.add(e);
    if (plan) {
      reported.push(...plan.report);
      continue;
    }
    const messages = new Set(inside.filter((e) => !isUnion(e)).map(describe));
    reported.push({ ...union, text: describe(union) + (messages.size ? ` (${[...messages].join("; ")})` : "") });
  }
  return [...reported, ...errors.filter((e) => !consumed.has(e))];
}

/**
 * @param headerNames lower-case header name -> name as declared in the contract
 */
export function toFieldErrors(errors: ErrorObject[], headerNames: Record<string, string>): FieldErrors {
  const byField = new Map<string, Set<string>>();
  for (const error of resolveAll(errors)) {
    const segments = error.instancePath
      .split("/")
      .slice(1)
      .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
    const params = error.params as Record<string, unknown>;
    if (error.keyword === "required") segments.push(String(params.missingProperty));
    if (error.keyword === "additionalProperties") segments.push(String(params.additionalProperty));
    let field: string;
    if (segments[0] === "requestBody") field = fieldPath(segments.slice(1)) || "body";
    else if (segments[0] === "header" && segments.length > 1) field = headerNames[segments[1].toLowerCase()] ?? segments[1];
    else field = fieldPath(segments) || "body";
    const message = error.text ?? describe(error as ErrorObject);
    byField.set(field, (byField.get(field) ?? new Set<string>()).add(message));
  }
  // The envelope keeps 100 fields: past that, the shallowest first (an array's own bound before its items').
  const fields = [...byField];
  const depth = (field: string) => field.split(/[.[]/).length;
  if (fields.length > 100) fields.sort((a, b) => depth(a[0]) - depth(b[0]));
  return Object.fromEntries(fields.map(([field, messages]) => [field, [...messages]]));
}
