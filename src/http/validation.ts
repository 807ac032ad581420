// Turns ajv errors (as openapi-backend reports them) into the envelope's `fieldErrors`: one entry per offending
// field, named as a path into the body (`entries[2].debit`) or by the header's declared name (`Idempotency-Key`).
import type { ErrorObject } from "ajv";
import type { FieldErrors } from "../errors.js";

function fieldPath(segments: string[]): string {
  let path = "";
  for (const segment of segments) {
    if (/^\d+$/.test(segment)) path += `[${segment}]`;
    else path += path ? `.${segment}` : segment;
  }
  return path;
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
    default:
      return error.message ?? `fails ${error.keyword}`;
  }
}

/**
 * @param headerNames lower-case header name -> name as declared in the contract
 */
export function toFieldErrors(errors: ErrorObject[], headerNames: Record<string, string>): FieldErrors {
  // The branches of a failed anyOf each report their own failure; they are folded into the anyOf's message.
  const anyOfPaths = errors.filter((e) => e.keyword === "anyOf" || e.keyword === "oneOf").map((e) => e.instancePath);
  const branchOf = (e: ErrorObject) =>
    e.keyword !== "anyOf" && e.keyword !== "oneOf" ? anyOfPaths.find((p) => e.instancePath === p || e.instancePath.startsWith(p + "/")) : undefined;
  const branchMessages = new Map<string, Set<string>>();
  for (const error of errors) {
    const path = branchOf(error);
    if (path !== undefined) branchMessages.set(path, (branchMessages.get(path) ?? new Set()).add(describe(error)));
  }

  const byField = new Map<string, Set<string>>();
  for (const error of errors) {
    if (branchOf(error) !== undefined) continue;
    const segments = error.instancePath.split("/").slice(1).map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
    const params = error.params as Record<string, unknown>;
    if (error.keyword === "required") segments.push(String(params.missingProperty));
    if (error.keyword === "additionalProperties") segments.push(String(params.additionalProperty));
    let field: string;
    if (segments[0] === "requestBody") field = fieldPath(segments.slice(1)) || "body";
    else if (segments[0] === "header" && segments.length > 1) field = headerNames[segments[1].toLowerCase()] ?? segments[1];
    else field = fieldPath(segments) || "body";
    let message = describe(error);
    const branches = branchMessages.get(error.instancePath);
    if (branches?.size) message += ` (${[...branches].join("; ")})`;
    byField.set(field, (byField.get(field) ?? new Set<string>()).add(message));
  }
  return Object.fromEntries([...byField].map(([field, messages]) => [field, [...messages]]));
}
