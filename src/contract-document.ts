// The contract as generated from spec/ (generated/openapi.yaml, OpenAPI 3.0): what the server validates requests
// against, and what the operator CLI holds a package file to. Below the HTTP layer, so both may read it.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Document } from "openapi-backend";
import YAML from "yaml";

export const DOCUMENT_PATH = join(dirname(fileURLToPath(import.meta.url)), "../generated/openapi.yaml");

export function loadDocument(path = DOCUMENT_PATH): Document {
  return YAML.parse(readFileSync(path, "utf8")) as Document;
}
