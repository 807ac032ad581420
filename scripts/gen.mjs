// Compiles spec/ (TypeSpec) to generated/openapi.yaml (OpenAPI 3.0, what openapi-backend validates against; its JSON
// copy generated/openapi.json is what the server loads),
// generated/openapi.3.1.yaml (a published copy) and generated/types.ts (openapi-typescript).
//
// Three rewrites are applied after the TypeSpec emitter, each because the emitted form is wrong for our
// validator or generated types (see ../shared/TOOLCHAIN.md):
//  1. `additionalProperties: {not: {}}` (sealed objects; in 3.1 `unevaluatedProperties`) -> `false`, so ajv names the
//     unknown property and openapi-typescript emits no index signature.
//  2. `x-max-properties` / `x-unique-items` / `x-no-items` extensions -> the JSON Schema keywords TypeSpec cannot emit
//     (`maxProperties`, `uniqueItems`, `items: {type: string, not: {}}` for an array that must stay empty).
//  3. (3.0 only) a nullable `allOf: [$ref]` -> the referenced schema inlined with `nullable: true`, because
//     `nullable` does not reach into an `allOf` branch (ajv would refuse `null`) and an anyOf would blur the
//     validation messages of the non-null branch.
//  6. The examples of spec/examples/*.yaml (operationId -> {request, response}) become the request body's and the
//     200 response's `example` (test/contract/contract-examples.test.ts validates them against their schemas).
//  5. (see shareComponents) reusable `components.headers` and `components.responses`, and each error response's
//     `x-error-keys`: the keys every operation shares, those of the operation's traits, and its own.
//  4. Schemas that neither an operation nor an event reaches are pruned (tspconfig: omit-unreachable-types is off
//     so that the event schemas, which no operation references, are emitted), and (3.1 only) every schema marked
//     `x-event-type` becomes an entry of the top-level `webhooks` section, which TypeSpec cannot emit.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import YAML from "yaml";
import openapiTS, { astToString } from "openapi-typescript";
import { contractTypes } from "./openapi-ts-transform.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const tspOut = join(root, ".tsp-output");
const out = join(root, "generated");

rmSync(tspOut, { recursive: true, force: true });
execFileSync(
  join(root, "node_modules/.bin/tsp"),
  ["compile", "spec/main.tsp", "--output-dir", tspOut, "--option", `@typespec/openapi3.emitter-output-dir=${tspOut}`],
  {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
  },
);

function rewrite(node, options) {
  if (Array.isArray(node)) return node.map((n) => rewrite(n, options));
  if (node === null || typeof node !== "object") return node;
  const result = {};
  for (const [k, v] of Object.entries(node)) result[k] = rewrite(v, options);
  // (3.1 writes a sealed object's `unevaluatedProperties` so; `false` says the same, and is what linters look for.)
  for (const keyword of ["additionalProperties", "unevaluatedProperties"]) {
    const ap = result[keyword];
    if (ap && typeof ap === "object" && Object.keys(ap).length === 1 && ap.not && Object.keys(ap.not).length === 0) result[keyword] = false;
  }
  if ("x-max-properties" in result) {
    result.maxProperties = result["x-max-properties"];
    delete result["x-max-properties"];
  }
  if ("x-unique-items" in result) {
    result.uniqueItems = result["x-unique-items"];
    delete result["x-unique-items"];
  }
  // An array that must stay empty (the `totals` of a list that totals nothing): items that match nothing, which
  // generated clients type as `never[]`, so a field name there does not compile. TypeSpec cannot say `never[]`.
  if ("x-no-items" in result) {
    result.items = { type: "string", not: {} };
    delete result["x-no-items"];
  }
  // TypeSpec writes `variables: {}` on a server without variables; linters flag the empty object.
  if (result.variables && typeof result.variables === "object" && Object.keys(result.variables).length === 0 && typeof result.url === "string") {
    delete result.variables;
  }
  if (options.schemas && result.nullable === true && Array.isArray(result.allOf) && result.allOf.length === 1 && result.allOf[0].$ref) {
    const { allOf, ...rest } = result;
    const target = rewrite(options.schemas[allOf[0].$ref.replace("#/components/schemas/", "")], options);
    const inlined = { ...target, ...rest };
    // The property's description replaces the scalar's; validation messages say what a pattern expects in the
    // scalar's words (src/http/validation.ts), so the copy keeps them.
    if (target.pattern && target.description && inlined.description !== target.description) inlined["x-scalar-description"] = target.description;
    if (Array.isArray(inlined.enum) && !inlined.enum.includes(null)) inlined.enum = [...inlined.enum, null];
    return inlined;
  }
  return result;
}

function load(version) {
  return YAML.parse(readFileSync(join(tspOut, version, "openapi.yaml"), "utf8"));
}

const SCHEMA_REF = "#/components/schemas/";
const isEvent = (name, schema) => name === "Webhooks.Event" || (schema && typeof schema === "object" && "x-event-type" in schema);

function collectRefs(node, found) {
  if (Array.isArray(node)) node.forEach((n) => collectRefs(n, found));
  else if (node && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string" && v.startsWith(SCHEMA_REF)) found.push(v.slice(SCHEMA_REF.length));
      else collectRefs(v, found);
    }
  }
}

/** Drops the schemas that no operation and no event reaches. */
function prune(doc) {
  const schemas = doc.components.schemas;
  const queue = [];
  collectRefs({ paths: doc.paths, parameters: doc.components.parameters }, queue);
  for (const [name, schema] of Object.entries(schemas)) if (isEvent(name, schema)) queue.push(name);
  const reached = new Set();
  while (queue.length) {
    const name = queue.pop();
    if (reached.has(name) || !schemas[name]) continue;
    reached.add(name);
    collectRefs(schemas[name], queue);
  }
  for (const name of Object.keys(schemas)) if (!reached.has(name)) delete schemas[name];
  return doc;
}

/** The 3.1 `webhooks` section: one POST per event type, its body the event's schema (src/events/deliver.ts). */
function addWebhooks(doc) {
  const header = (name, description, example) => ({ name, in: "header", required: true, description, schema: { type: "string" }, example });
  const webhooks = {};
  for (const [name, schema] of Object.entries(doc.components.schemas)) {
    const eventType = schema["x-event-type"];
    if (!eventType) continue;
    webhooks[eventType] = {
      post: {
        operationId: `webhook_${eventType.replace(/\./g, "_")}`,
        summary: eventType,
        description: schema.description,
        parameters: [
          header(
            "x-service-signature-v2",
            "`t=<unix seconds>,v1=<hex>`: hex HMAC-SHA256 over `<t>.<body>` keyed with the signing secret; during a rotation two `v1=` values (new secret first).",
            "t=1795000000,v1=5f2b…",
          ),
          header(
            "x-service-signature",
            "`sha256=<hex>`: hex HMAC-SHA256 over the body keyed with the signing secret (the original header; during a rotation comma-separated, new secret first).",
            "sha256=9a0c…",
          ),
          header(
            "webhook-signature",
            "Standard Webhooks: `v1,<base64>`, base64 HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<body>` keyed with the bytes the base64 after `whsec_` encodes (what Standard Webhooks libraries verify); during a rotation two values, space-separated, new secret first.",
            "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
          ),
          header("webhook-id", "The event's id (the envelope's `id`): the same in every attempt; de-duplicate on it.", "3f1c…"),
          header("webhook-attempt", "Which attempt this is for this event and subscription, from 1.", "1"),
          header("webhook-timestamp", "`t` of the v2 signature (unix seconds).", "1795000000"),
        ],
        requestBody: { required: true, content: { "application/json": { schema: { $ref: SCHEMA_REF + name } } } },
        responses: {
          "2XX": { description: "Received. Any 2xx within 10 seconds counts as delivered." },
          410: { description: "Gone: no more attempts are made for this event." },
          default: { description: "Anything else (or no answer within 10 seconds) is retried on the schedule, for about 24 hours." },
        },
      },
    };
  }
  return { ...doc, webhooks };
}

/** The keys an operation's traits add, by status, with the sentence that says so where its description does not. */
function traitKeys(path, op) {
  // An operation that writes nothing (`x-writes-nothing`, e.g. migration/books/validate) has no idempotency.
  const write = String(op["x-required-scope"] ?? "").endsWith(":write") && op["x-writes-nothing"] !== true;
  const jurisdiction = /^\/v1\/declarations\/([a-z]{2})\//.exec(path)?.[1];
  const traits = {};
  const add = (status, key, sentence) => (traits[status] ??= []).push({ key, sentence });
  if (op["x-company-scoped"] === true || jurisdiction) {
    add("404", "company.not_found", "Also `company.not_found`: the company of `X-Company-Id` does not exist, or this key may not reach it.");
  }
  if (write) {
    add(
      "409",
      "idempotency.in_progress",
      "Also `idempotency.in_progress` (code `idempotency_in_progress`): a request with this `Idempotency-Key` is still being processed; retry after it completes.",
    );
    if (op["x-sensitive-response"] === true) {
      add(
        "409",
        "idempotency.replay_sealed",
        "Also `idempotency.replay_sealed`: the stored response to this `Idempotency-Key` holds a secret that only the API key that sent the request can replay.",
      );
    }
    add(
      "422",
      "idempotency.key_reuse",
      "Also `idempotency.key_reuse` (code `idempotency_key_reuse`): this `Idempotency-Key` was used with a different request.",
    );
  }
  if (jurisdiction) add("422", "jurisdiction.mismatch", `Also \`jurisdiction.mismatch\`: the company is not registered in ${jurisdiction.toUpperCase()}.`);
  return traits;
}

const SHARED_HEADERS = [
  "X-Request-Id",
  "X-Api-Version",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "Retry-After",
  "x-idempotent-replay",
];
const SHARED_RESPONSE_NAMES = {
  400: "BadRequest",
  401: "Unauthorized",
  402: "PaymentRequired",
  403: "Forbidden",
  413: "PayloadTooLarge",
  429: "TooManyRequests",
  500: "InternalError",
};
const TRAIT_RESPONSE_NAMES = { 404: "CompanyNotFound", 409: "IdempotencyConflict", 422: "IdempotencyKeyReuse" };
const pascal = (key) =>
  key
    .split(/[._]/)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join("");

/**
 * Gives every error response its `x-error-keys` (refusing an operation-specific response that declares none, and
 * keys declared for a status the operation does not answer with), then moves the headers and the responses that
 * several operations share into `components.headers` and `components.responses` (issue 14: the inline copies made
 * the document 2.5 times its size).
 */
function shareComponents(doc) {
  const common = doc["x-error-keys"] ?? {};
  const problems = [];
  const errorResponses = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const op of Object.values(item)) {
      const own = op["x-error-keys"] ?? {};
      delete op["x-error-keys"];
      const traits = traitKeys(path, op);
      for (const status of Object.keys(own))
        if (!op.responses[status]) problems.push(`${op.operationId}: x-error-keys names ${status}, which it does not answer with`);
      for (const status of Object.keys(traits))
        if (!op.responses[status])
          problems.push(`${op.operationId}: answers ${status} (${traits[status].map((t) => t.key).join(", ")}) but declares no ${status} response`);
      for (const [status, response] of Object.entries(op.responses)) {
        if (status.startsWith("2")) continue;
        const keys = [...new Set([...(common[status] ?? []), ...(traits[status] ?? []).map((t) => t.key), ...(own[status] ?? [])])];
        if (!keys.length) {
          problems.push(
            `${op.operationId}: its ${status} response declares no error keys: give the operation's own keys with @extension("x-error-keys", #{ \`${status}\`: #[…] }), or drop the response (README, "Working on it")`,
          );
          continue;
        }
        const sentences = (traits[status] ?? []).filter((t) => !response.description.includes(`\`${t.key}\``)).map((t) => t.sentence);
        if (sentences.length) response.description = [response.description, ...sentences].join(" ");
        response["x-error-keys"] = keys;
        const ownKeys = keys.filter((k) => !(common[status] ?? []).includes(k) && !(traits[status] ?? []).some((t) => t.key === k));
        const traitOnly = keys.length > (common[status] ?? []).length && ownKeys.length === 0;
        const name =
          ownKeys.length === 0
            ? traitOnly
              ? TRAIT_RESPONSE_NAMES[status]
              : SHARED_RESPONSE_NAMES[status]
            : ownKeys.length === 1
              ? pascal(ownKeys[0])
              : undefined;
        errorResponses.push({ responses: op.responses, status, name });
      }
    }
  }
  if (problems.length) throw new Error(`the contract's error responses:\n  ${problems.join("\n  ")}`);
  // What each trait adds, for the reader (and test/contract/contract-errors.test.ts).
  doc["x-trait-error-keys"] = {
    "x-company-scoped": { 404: ["company.not_found"] },
    mutating: { 409: ["idempotency.in_progress"], 422: ["idempotency.key_reuse"] },
    "x-sensitive-response": { 409: ["idempotency.replay_sealed"] },
    "/v1/declarations/{cc}/": { 422: ["jurisdiction.mismatch"] },
  };

  // Headers: the first copy of each becomes the component; copies equal to it become references.
  const headers = {};
  const allResponses = Object.values(doc.paths).flatMap((item) => Object.values(item).flatMap((op) => Object.values(op.responses)));
  for (const response of allResponses) {
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      if (!SHARED_HEADERS.includes(name)) continue;
      headers[name] ??= header;
      if (JSON.stringify(headers[name]) === JSON.stringify(header)) response.headers[name] = { $ref: `#/components/headers/${name}` };
    }
  }

  // Responses: a named response that two operations or more give alike becomes a component (the most common form
  // of it, when forms differ).
  const groups = new Map();
  for (const entry of errorResponses) {
    if (!entry.name) continue;
    const text = JSON.stringify(entry.responses[entry.status]);
    const byText = groups.get(entry.name) ?? new Map();
    byText.set(text, [...(byText.get(text) ?? []), entry]);
    groups.set(entry.name, byText);
  }
  const responses = {};
  for (const [name, byText] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    const [text, entries] = [...byText].sort((a, b) => b[1].length - a[1].length)[0];
    if (entries.length < 2) continue;
    responses[name] = JSON.parse(text);
    for (const entry of entries) entry.responses[entry.status] = { $ref: `#/components/responses/${name}` };
  }
  doc.components = { ...doc.components, headers, responses };
  return doc;
}

/** Puts each operation's request and 200 response example (spec/examples/<module>.yaml) into the document. */
function addExamples(doc) {
  const dir = join(root, "spec/examples");
  const examples = {};
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".yaml"))
    .sort())
    Object.assign(examples, YAML.parse(readFileSync(join(dir, file), "utf8")));
  const byId = new Map(
    Object.values(doc.paths)
      .flatMap((item) => Object.values(item))
      .map((op) => [op.operationId, op]),
  );
  for (const [operationId, example] of Object.entries(examples)) {
    const op = byId.get(operationId);
    if (!op) throw new Error(`spec/examples: no operation ${operationId}`);
    if (example.request !== undefined) op.requestBody.content["application/json"].example = example.request;
    if (example.response !== undefined) op.responses["200"].content["application/json"].example = example.response;
  }
  return doc;
}

/**
 * Every `pattern` sits on a named scalar with a description (or on a copy of one that keeps its description as
 * `x-scalar-description`): a 400 tells the client what the pattern expects in those words, never the regular
 * expression (issue 28). A `@pattern` on a property would say nothing: declare a scalar instead.
 */
function checkPatterns(doc) {
  const problems = [];
  const walk = (node, path) => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${path}/${i}`));
    if (!node || typeof node !== "object") return;
    if (typeof node.pattern === "string") {
      const scalar = /^#\/components\/schemas\/[^/]+$/.test(path);
      if (!(scalar ? node.description : node["x-scalar-description"]))
        problems.push(`${path}: a pattern ${scalar ? "on a scalar without a description" : "outside a named scalar"}`);
    }
    for (const [k, v] of Object.entries(node)) walk(v, `${path}/${k}`);
  };
  walk(doc, "#");
  if (problems.length) throw new Error(`patterns the validation messages cannot put in words (declare a documented scalar):\n  ${problems.join("\n  ")}`);
  return doc;
}

mkdirSync(out, { recursive: true });
const raw30 = load("3.0.0");
// Pruned again after the rewrite: inlining a nullable reference can leave its schema unreferenced.
const doc30 = checkPatterns(addExamples(shareComponents(prune(rewrite(prune(raw30), { schemas: raw30.components.schemas })))));
const doc31 = addWebhooks(addExamples(shareComponents(prune(rewrite(prune(load("3.1.0")), {})))));
const header = "# Generated by `npm run gen` from spec/*.tsp. Do not edit.\n";
writeFileSync(join(out, "openapi.yaml"), header + YAML.stringify(doc30, { lineWidth: 0 }));
writeFileSync(join(out, "openapi.3.1.yaml"), header + YAML.stringify(doc31, { lineWidth: 0 }));
// The same 3.0 document as JSON, which the server loads: parsing the YAML at start-up took about 100 MB of memory
// (the API process's resident size stays at its peak) and most of a second.
writeFileSync(join(out, "openapi.json"), `${JSON.stringify(doc30)}\n`);

const ast = await openapiTS(doc30, { exportType: true, alphabetize: false, transform: contractTypes });
writeFileSync(join(out, "types.ts"), `// Generated by \`npm run gen\` from generated/openapi.yaml. Do not edit.\n${astToString(ast)}`);
rmSync(tspOut, { recursive: true, force: true });
console.log("generated/openapi.yaml, generated/openapi.json, generated/openapi.3.1.yaml, generated/types.ts");
await import("./gen-sdk.mjs"); // the TypeScript SDK (sdk/typescript) from the document just written
