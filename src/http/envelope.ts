// Builds the spec's error envelope ("Error envelope"), keeping every bound the spec sets:
// message <= 2000, at most 100 fieldErrors properties of at most 100 strings of at most 2000 characters.
import { ApiError, type FieldErrors } from "../shared/errors.js";

const MAX_MESSAGE = 2000;
const MAX_FIELDS = 100;
const MAX_MESSAGES_PER_FIELD = 100;

export interface ErrorEnvelope {
  error: {
    code: string;
    message: string;
    requestId: string;
    key?: string;
    params?: Record<string, unknown>;
    fieldErrors?: FieldErrors;
  };
}

const clip = (text: string) => (text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text);

// Built with Object.fromEntries: a field may be named by a client's own property name, `__proto__` included, which
// an assignment would take for the prototype (and lose).
const boundFieldErrors = (fieldErrors: FieldErrors): FieldErrors =>
  Object.fromEntries(
    Object.entries(fieldErrors)
      .slice(0, MAX_FIELDS)
      .map(([field, messages]) => [field, messages.slice(0, MAX_MESSAGES_PER_FIELD).map(clip)]),
  );

export function toEnvelope(error: ApiError, requestId: string): ErrorEnvelope {
  const body: ErrorEnvelope["error"] = { code: error.code, message: clip(error.message), requestId };
  if (error.key) body.key = error.key;
  if (error.params) body.params = error.params;
  if (error.fieldErrors && Object.keys(error.fieldErrors).length) body.fieldErrors = boundFieldErrors(error.fieldErrors);
  return { error: body };
}

/** What any error that is not an ApiError becomes: no stack, no SQL, nothing internal. */
export const internalError = () => new ApiError("internal", "An unexpected error occurred. Quote the requestId when reporting it.", { key: "internal" });
