// The oracle for every e-invoice the product writes (STYLE 21; issue 25): the official CEN EN 16931 UBL rules and the
// Peppol BIS Billing 3.0 rules, as published (test/fixtures/schemas/peppol, copied unchanged from ../shared/schemas,
// see its README), run by Saxonica's SaxonJS 2.7 (saxon-js and its compiler xslt3, pinned in package.json). An XML
// passes when neither rule set reports a failed assert of flag `fatal`.
//
// Each XSLT is compiled once to a SEF file (the CEN one takes about 25 s) and kept in the system's temporary folder
// under the SHA-256 of the stylesheet, so later runs and other suites reuse it; a changed stylesheet compiles anew.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, renameSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { XMLParser } from "fast-xml-parser";

const require = createRequire(import.meta.url);
const SaxonJS = require("saxon-js") as {
  transform(options: Record<string, unknown>, mode: "sync"): { principalResult: string };
};

const HERE = dirname(fileURLToPath(import.meta.url));
export const PEPPOL_DIR = resolve(HERE, "../fixtures/schemas/peppol");
const SHARED = resolve(HERE, "../../../shared/schemas/peppol");
const XSLT3 = resolve(HERE, "../../node_modules/xslt3/xslt3.js");

export const RULE_SETS = {
  en16931: "EN16931-UBL-validation.xslt",
  peppol: "PEPPOL-EN16931-UBL.xsl",
} as const;

export interface FailedAssert {
  ruleSet: keyof typeof RULE_SETS;
  id: string;
  flag: string;
  location: string;
  text: string;
}

const compiled = new Map<string, unknown>();

/** The rule set's compiled stylesheet (SEF), compiled on first use and cached by its SHA-256. */
function sef(file: string): unknown {
  const cachedHere = compiled.get(file);
  if (cachedHere) return cachedHere;
  const path = join(PEPPOL_DIR, file);
  const text = readFileSync(path);
  const shared = join(SHARED, file);
  if (existsSync(shared) && !readFileSync(shared).equals(text)) throw new Error(`${path} differs from ${shared}: copy it again`);
  const digest = createHash("sha256").update(text).digest("hex").slice(0, 16);
  const out = join(tmpdir(), `peppol-${digest}.sef.json`);
  if (!existsSync(out)) {
    const partial = `${out}.${process.pid}.tmp`;
    const run = spawnSync(process.execPath, [XSLT3, `-xsl:${path}`, `-export:${partial}`, "-nogo"], { encoding: "utf8", maxBuffer: 64 << 20 });
    if (run.status !== 0) throw new Error(`xslt3 could not compile ${file}: ${run.stderr || run.stdout}`);
    renameSync(partial, out); // whole or not at all, also when two suites compile at once
  }
  const stylesheet = JSON.parse(readFileSync(out, "utf8"));
  compiled.set(file, stylesheet);
  return stylesheet;
}

const svrl = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", removeNSPrefix: true, isArray: (name) => name === "failed-assert" });

/** Every failed assert (fatal and warning) of both rule sets for `xml`. */
export function peppolAsserts(xml: string): FailedAssert[] {
  const asserts: FailedAssert[] = [];
  for (const ruleSet of Object.keys(RULE_SETS) as (keyof typeof RULE_SETS)[]) {
    const result = SaxonJS.transform({ stylesheetInternal: sef(RULE_SETS[ruleSet]), sourceText: xml, destination: "serialized" }, "sync");
    const report = svrl.parse(result.principalResult)["schematron-output"] ?? {};
    for (const a of report["failed-assert"] ?? []) {
      const text = typeof a.text === "string" ? a.text : String(a.text?.["#text"] ?? "");
      asserts.push({ ruleSet, id: a.id ?? "", flag: a.flag ?? "", location: a.location ?? "", text: text.trim() });
    }
  }
  return asserts;
}

/** The fatal failed asserts: an e-invoice is valid when there are none. */
export function peppolFatal(xml: string): FailedAssert[] {
  return peppolAsserts(xml).filter((a) => a.flag === "fatal");
}
