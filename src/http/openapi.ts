// Loads the generated OpenAPI 3.0 document and prepares openapi-backend, which routes and validates every /v1
// request before a handler runs. Operation metadata lives in the contract as extensions:
//   x-required-scope  the scope the key needs (`<module>:read|write`)
//   x-company-scoped  the operation acts on one company (X-Company-Id)
//   x-body-limit      the operation's body size limit in bytes (default 1 MB)
//   x-sensitive-response  the response carries a secret (stored sealed for idempotent replays)
//   x-writes-nothing  a write-scoped operation that writes nothing (no transaction, idempotency or audit record)
//   x-large-body      one at a time per account, its body parsed and validated in a worker thread (./large-bodies.ts)
import { OpenAPIBackend, OpenAPIValidator, ValidationContext, type Document, type Operation } from "openapi-backend";
import type { ErrorObject } from "ajv";
import addFormatsModule from "ajv-formats";
import { loadDocument } from "../contract-document.js";
import { DEFAULT_BODY_LIMIT } from "./body.js";

type AddFormats = (ajv: unknown, formats: string[]) => unknown;
// ajv-formats is CommonJS; under ESM its function sits on `.default`.
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;

export { DOCUMENT_PATH, loadDocument } from "../contract-document.js";

export interface OperationInfo {
  operationId: string;
  path: string;
  requiredScope: string;
  mutating: boolean;
  companyScoped: boolean;
  bodyLimit: number;
  /** `x-large-body`: admitted one at a time per account, its body kept in a worker thread (./large-bodies.ts). */
  largeBody: boolean;
  /** lower-case header name -> declared name, for naming header fields in errors */
  headerNames: Record<string, string>;
  /** The response carries a secret (`x-sensitive-response`): an idempotent replay stores it sealed. */
  sensitiveResponse: boolean;
  /** `/v1/declarations/{cc}/...`: the jurisdiction of a country-specific operation */
  jurisdiction: string | undefined;
  operation: Operation;
}

export interface ContractApi {
  backend: OpenAPIBackend;
  document: Document;
  operations: Map<string, OperationInfo>;
}

function describeOperation(operation: Operation): OperationInfo {
  const ext = operation as unknown as Record<string, unknown>;
  const requiredScope = ext["x-required-scope"];
  if (typeof requiredScope !== "string" || !/^[a-z]+:(read|write)$/.test(requiredScope)) {
    throw new Error(`operation ${operation.operationId} declares no valid x-required-scope`);
  }
  const headerNames: Record<string, string> = {};
  for (const p of operation.parameters ?? []) {
    if ("in" in p && p.in === "header") headerNames[p.name.toLowerCase()] = p.name;
  }
  const jurisdiction = /^\/v1\/declarations\/([a-z]{2})\//.exec(operation.path)?.[1];
  return {
    operationId: operation.operationId!,
    path: operation.path,
    requiredScope,
    mutating: requiredScope.endsWith(":write") && ext["x-writes-nothing"] !== true,
    companyScoped: ext["x-company-scoped"] === true || jurisdiction !== undefined,
    bodyLimit: typeof ext["x-body-limit"] === "number" ? (ext["x-body-limit"] as number) : DEFAULT_BODY_LIMIT,
    largeBody: ext["x-large-body"] === true,
    headerNames,
    sensitiveResponse: ext["x-sensitive-response"] === true,
    jurisdiction,
    operation,
  };
}

export interface ContractApiOptions {
  /**
   * Compile every operation's request validator now (a server: its first requests pay nothing) rather than on
   * first use (tests: a file calls a few operations). Response validators are always compiled on first use; only
   * tests validate responses.
   */
  precompileRequestValidators?: boolean;
}

// ajv checks `uniqueItems` by comparing every pair of items, and with `allErrors` it does so whatever `maxItems` says:
// an array of 20,000 items where 20 are allowed took six minutes of the event loop (the contract fuzzer, issue 22).
// The validating copy of the contract carries `x-distinct-items: <maxItems>` instead: items are compared through a
// set, and only when the array is within its bound (past it `maxItems` already refuses it). The published document
// keeps `uniqueItems`.
const DISTINCT_KEYWORD = "x-distinct-items";

function boundUniqueItems(node: unknown, seen = new Set<object>()): void {
  if (node === null || typeof node !== "object" || seen.has(node)) return;
  seen.add(node);
  const schema = node as Record<string, unknown>;
  if (schema.uniqueItems === true) {
    delete schema.uniqueItems;
    schema[DISTINCT_KEYWORD] = typeof schema.maxItems === "number" ? schema.maxItems : 1000;
  }
  for (const value of Object.values(schema)) boundUniqueItems(value, seen);
}

type KeywordValidate = ((bound: number, data: unknown[]) => boolean) & { errors?: Partial<ErrorObject>[] };

const distinctItems: KeywordValidate = (bound: number, data: unknown[]): boolean => {
  if (data.length > bound) return true;
  const first = new Map<string, number>();
  for (const [j, item] of data.entries()) {
    const key = typeof item === "string" ? `s${item}` : `j${JSON.stringify(item)}`;
    const i = first.get(key);
    if (i !== undefined) {
      distinctItems.errors = [{ keyword: "uniqueItems", message: `must NOT have duplicate items (items ## ${i} and ${j} are identical)`, params: { i, j } }];
      return false;
    }
    first.set(key, j);
  }
  return true;
};

// With `allErrors`, an array of 100,000 wrong items gives ajv 100,000 errors or more, and openapi-backend collects them with
// `push(...errors)`, which overflows the call stack (a 500). Every validator keeps its first MAX_ERRORS: the envelope
// names at most 100 fields anyway. The ones kept are the shallowest (an array's own maxItems over its items'), in
// ajv's order.
const MAX_ERRORS = 1000;

function shallowest(errors: { instancePath?: string }[]): typeof errors {
  if (errors.length <= MAX_ERRORS) return errors;
  const depth = (e: { instancePath?: string }) => (e.instancePath ?? "").split("/").length;
  return errors
    .map((e, i) => [e, i, depth(e)] as const)
    .sort((a, b) => a[2] - b[2] || a[1] - b[1])
    .slice(0, MAX_ERRORS)
    .sort((a, b) => a[1] - b[1])
    .map(([e]) => e);
}

function boundErrors(ajv: { compile: (...args: never[]) => unknown }): void {
  const compile = ajv.compile.bind(ajv) as (...args: unknown[]) => ((...a: unknown[]) => boolean) & { errors?: unknown[] | null };
  ajv.compile = ((...args: unknown[]) => {
    const validate = compile(...args);
    const bounded = Object.assign((...a: unknown[]) => {
      const valid = validate(...a);
      bounded.errors = validate.errors ? shallowest(validate.errors as { instancePath?: string }[]) : validate.errors;
      return valid;
    }, validate);
    return bounded;
  }) as never;
}

export async function createContractApi(document: Document = loadDocument(), options: ContractApiOptions = {}): Promise<ContractApi> {
  const backend = new OpenAPIBackend({
    // openapi-backend dereferences the definition in place; the original is kept intact for serving.
    definition: structuredClone(document),
    strict: true,
    // The validator is made below: openapi-backend's own would compile the request, response and response-header
    // validators of every operation up front (about 17 s for this contract on these machines), which a server
    // does not need (it validates requests only) and a test file pays for every time.
    validate: false,
  });
  await backend.init();
  boundUniqueItems(backend.definition);
  backend.validator = new OpenAPIValidator({
    definition: backend.definition,
    router: backend.router,
    ajvOpts: { allErrors: true, useDefaults: true, strict: false },
    customizeAjv: (ajv, _options, context) => {
      addFormats(ajv, ["date", "date-time", "uuid", "email"]);
      ajv.addKeyword({ keyword: DISTINCT_KEYWORD, type: "array", schemaType: "number", errors: true, validate: distinctItems });
      boundErrors(ajv);
      // A request's errors carry the schema that holds each failed keyword, whose description says in words what a
      // pattern or format expects (src/http/validation.ts). Read when a validator is compiled, which is later.
      if (context === ValidationContext.RequestBody || context === ValidationContext.Params) (ajv.opts as { verbose?: boolean }).verbose = true;
      return ajv;
    },
    lazyCompileValidators: true,
  });
  if (options.precompileRequestValidators) backend.validator.preCompileRequestValidators();
  const operations = new Map<string, OperationInfo>();
  for (const operation of backend.getOperations()) {
    if (operation.method !== "post" || !operation.path.startsWith("/v1/")) {
      throw new Error(`operation ${operation.operationId} must be POST /v1/...`);
    }
    operations.set(operation.operationId!, describeOperation(operation));
  }
  return { backend, document, operations };
}
