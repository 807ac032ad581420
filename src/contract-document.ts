// The contract as generated from spec/ (generated/openapi.yaml, OpenAPI 3.0): what the server validates requests
// against, and what the operator CLI holds a package file to. Below the HTTP layer, so both may read it.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Document } from "openapi-backend";
import YAML from "yaml";

export const DOCUMENT_PATH = join(dirname(fileURLToPath(import.meta.url)), "../generated/openapi.yaml");
/** The same document as JSON (written by `npm run gen` beside the YAML). */
export const DOCUMENT_JSON_PATH = join(dirname(DOCUMENT_PATH), "openapi.json");

/**
 * The contract, from its JSON copy: parsing the 1 MB YAML cost the process about 100 MB of heap that it kept as
 * resident memory (V8 does not give the pages back), and most of a second. Another `path` (a YAML file) is parsed
 * as YAML.
 */
export function loadDocument(path = DOCUMENT_JSON_PATH): Document {
  const text = readFileSync(path, "utf8");
  return (path.endsWith(".json") ? JSON.parse(text) : YAML.parse(text)) as Document;
}
