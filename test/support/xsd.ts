// Validates an XML file the product writes against the tax authority's own XSD (STYLE 21: a standard's file is
// proved by the standard's oracle, never by the product's reader), with libxml2 compiled to WebAssembly
// (xmllint-wasm, pinned in package.json): the same checks as `xmllint --noout --schema`. The schemas are the tax
// authority's files, copied unchanged into test/fixtures/schemas (a clean clone has them, whatever lies beside it);
// where ../shared/schemas is beside the repository, the copy must be byte-identical to it, or the test stops.
// Later SAF-T work reuses it: validateAgainstXsd(xml, "lt/SAFT_2_01.xsd").
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { validateXML } from "xmllint-wasm";

const SCHEMAS = resolve(dirname(fileURLToPath(import.meta.url)), "../fixtures/schemas");
const SHARED = resolve(dirname(fileURLToPath(import.meta.url)), "../../../shared/schemas");

export interface XsdResult {
  valid: boolean;
  /** xmllint's messages, each naming the line and the element. */
  errors: string[];
}

const schemas = new Map<string, string>();

function schemaText(relativePath: string): string {
  let text = schemas.get(relativePath);
  if (text === undefined) {
    const path = join(SCHEMAS, relativePath);
    if (!existsSync(path)) throw new Error(`the XSD ${path} is not there: copy it unchanged from ../shared/schemas`);
    text = readFileSync(path, "utf8");
    const shared = join(SHARED, relativePath);
    if (existsSync(shared) && readFileSync(shared, "utf8") !== text) throw new Error(`${path} differs from ${shared}: copy it again`);
    schemas.set(relativePath, text);
  }
  return text;
}

/** Validates `xml` (a string or UTF-8 bytes) against `schema`, a path under shared/schemas (e.g. `lt/isaf_1_2.xsd`). */
export async function validateAgainstXsd(xml: string | Buffer, schema: string): Promise<XsdResult> {
  const contents = typeof xml === "string" ? xml : new Uint8Array(xml.buffer, xml.byteOffset, xml.byteLength);
  const size = typeof xml === "string" ? Buffer.byteLength(xml) : xml.byteLength;
  const result = await validateXML({
    xml: [{ fileName: "file.xml", contents }],
    schema: [{ fileName: schema.split("/").pop()!, contents: schemaText(schema) }],
    // 64 KiB pages: room for the file several times over (libxml2 keeps the parsed tree).
    initialMemoryPages: Math.min(65_536, 256 + Math.ceil((size * 12) / 65_536)),
    maxMemoryPages: 65_536,
  });
  return { valid: result.valid, errors: result.errors.map((e) => e.rawMessage) };
}
