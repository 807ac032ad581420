// Compiles spec/ (TypeSpec) to generated/openapi.yaml (OpenAPI 3.0, what openapi-backend validates against),
// generated/openapi.3.1.yaml (a published copy) and generated/types.ts (openapi-typescript).
//
// Three rewrites are applied after the TypeSpec emitter, each because the emitted form is wrong for our
// validator or generated types (see ../shared/TOOLCHAIN.md):
//  1. `additionalProperties: {not: {}}` (sealed objects) -> `additionalProperties: false`, so ajv names the
//     unknown property and openapi-typescript emits no index signature.
//  2. `x-max-properties` / `x-unique-items` extensions -> the JSON Schema keywords TypeSpec cannot emit.
//  3. (3.0 only) a nullable `allOf: [$ref]` -> the referenced schema inlined with `nullable: true`, because
//     `nullable` does not reach into an `allOf` branch (ajv would refuse `null`) and an anyOf would blur the
//     validation messages of the non-null branch.
//  4. Schemas that neither an operation nor an event reaches are pruned (tspconfig: omit-unreachable-types is off
//     so that the event schemas, which no operation references, are emitted), and (3.1 only) every schema marked
//     `x-event-type` becomes an entry of the top-level `webhooks` section, which TypeSpec cannot emit.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import YAML from "yaml";
import openapiTS, { astToString } from "openapi-typescript";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const tspOut = join(root, ".tsp-output");
const out = join(root, "generated");

rmSync(tspOut, { recursive: true, force: true });
execFileSync(join(root, "node_modules/.bin/tsp"), ["compile", "spec/main.tsp", "--output-dir", tspOut, "--option", `@typespec/openapi3.emitter-output-dir=${tspOut}`], {
  cwd: root,
  stdio: ["ignore", "ignore", "inherit"],
});

function rewrite(node, options) {
  if (Array.isArray(node)) return node.map((n) => rewrite(n, options));
  if (node === null || typeof node !== "object") return node;
  const result = {};
  for (const [k, v] of Object.entries(node)) result[k] = rewrite(v, options);
  const ap = result.additionalProperties;
  if (ap && typeof ap === "object" && Object.keys(ap).length === 1 && ap.not && Object.keys(ap.not).length === 0) {
    result.additionalProperties = false;
  }
  if ("x-max-properties" in result) {
    result.maxProperties = result["x-max-properties"];
    delete result["x-max-properties"];
  }
  if ("x-unique-items" in result) {
    result.uniqueItems = result["x-unique-items"];
    delete result["x-unique-items"];
  }
  if (options.schemas && result.nullable === true && Array.isArray(result.allOf) && result.allOf.length === 1 && result.allOf[0].$ref) {
    const { allOf, ...rest } = result;
    const target = rewrite(options.schemas[allOf[0].$ref.replace("#/components/schemas/", "")], options);
    const inlined = { ...target, ...rest };
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
        summary: eventType,
        description: schema.description,
        parameters: [
          header("x-service-signature-v2", "`t=<unix seconds>,v1=<hex>`: hex HMAC-SHA256 over `<t>.<body>` keyed with the signing secret; during a rotation two `v1=` values (new secret first).", "t=1795000000,v1=5f2b…"),
          header("x-service-signature", "`sha256=<hex>`: hex HMAC-SHA256 over the body keyed with the signing secret (the original header; during a rotation comma-separated, new secret first).", "sha256=9a0c…"),
          header("webhook-id", "The event's id (the envelope's `id`): the same in every attempt; de-duplicate on it.", "3f1c…"),
          header("webhook-attempt", "Which attempt this is for this event and subscription, from 1.", "1"),
          header("webhook-timestamp", "`t` of the v2 signature (unix seconds).", "1795000000"),
        ],
        requestBody: { required: true, content: { "application/json": { schema: { $ref: SCHEMA_REF + name } } } },
        responses: {
          "2XX": { description: "Received. Any 2xx within 10 seconds counts as delivered." },
          "410": { description: "Gone: no more attempts are made for this event." },
          default: { description: "Anything else (or no answer within 10 seconds) is retried on the schedule, for about 24 hours." },
        },
      },
    };
  }
  return { ...doc, webhooks };
}

mkdirSync(out, { recursive: true });
const raw30 = load("3.0.0");
const doc30 = rewrite(prune(raw30), { schemas: raw30.components.schemas });
const doc31 = addWebhooks(rewrite(prune(load("3.1.0")), {}));
const header = "# Generated by `npm run gen` from spec/*.tsp. Do not edit.\n";
writeFileSync(join(out, "openapi.yaml"), header + YAML.stringify(doc30, { lineWidth: 0 }));
writeFileSync(join(out, "openapi.3.1.yaml"), header + YAML.stringify(doc31, { lineWidth: 0 }));

const ast = await openapiTS(doc30, { exportType: true, alphabetize: false });
writeFileSync(join(out, "types.ts"), "// Generated by `npm run gen` from generated/openapi.yaml. Do not edit.\n" + astToString(ast));
rmSync(tspOut, { recursive: true, force: true });
console.log("generated/openapi.yaml, generated/openapi.3.1.yaml, generated/types.ts");
