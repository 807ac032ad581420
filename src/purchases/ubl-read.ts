// Reading a supplier's Peppol BIS Billing 3.0 / UBL 2.1 `Invoice` or `CreditNote` (issue 25,
// `purchases/invoices/import-ubl`) into the plain values the rules (./ubl-rules.ts) and the import (./ubl-import.ts)
// work on. Hostile input ends here as a 4xx: text that is not base64, a file above MAX_UBL_BYTES, bytes that are not
// UTF-8, XML that is not well-formed, a DOCTYPE (where entities are declared: refused whole, so no entity is ever
// expanded, and fast-xml-parser's own entity processing is off too), nesting deeper than the parser allows, a root
// that is not a UBL 2.1 Invoice or CreditNote. The five predefined entities and character references are decoded
// here, after parsing. Nothing in the file is evaluated or fetched.
import { TextDecoder } from "node:util";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { ApiError } from "../shared/errors.js";

/** The largest e-invoice file taken, decoded: 10 MiB (embedded PDFs included). */
export const MAX_UBL_BYTES = 10 * 1024 * 1024;

const NS = { Invoice: "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2", CreditNote: "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2" };
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const ARRAYS = new Set([
  "InvoiceLine",
  "CreditNoteLine",
  "TaxTotal",
  "TaxSubtotal",
  "AllowanceCharge",
  "AdditionalDocumentReference",
  "PartyTaxScheme",
  "PartyIdentification",
  "BillingReference",
  "Note",
]);

const unreadable = (reason: string, params: Record<string, unknown> = {}) =>
  new ApiError("unprocessable", `The file is not a UBL e-invoice this import reads: ${reason}. Nothing was imported.`, {
    key: "purchase_invoice.ubl_unreadable",
    params: { reason, ...params },
    fieldErrors: { contentBase64: [reason] },
  });

/** Base64 text (line breaks let pass) as bytes; 400 when it is not base64, 413 above the size limit. */
export function decodeBase64(text: string, field: string, limit = MAX_UBL_BYTES): Buffer {
  const compact = text.replace(/[\r\n]+/g, "");
  if (compact.length % 4 !== 0 || !BASE64.test(compact)) {
    throw new ApiError("validation", `${field} is not base64.`, { key: "request.invalid", fieldErrors: { [field]: ["is not base64"] } });
  }
  if (Math.floor((compact.replace(/=+$/, "").length * 3) / 4) > limit) {
    throw new ApiError("payload_too_large", `The file exceeds ${limit} bytes, the limit of an imported e-invoice.`, {
      key: "request.body_too_large",
      params: { maxBytes: limit },
    });
  }
  return Buffer.from(compact, "base64");
}

export type Node = Record<string, unknown>;

const PREDEFINED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
/** The predefined entities and character references of a text (the parser leaves them as written). */
function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#x[0-9A-Fa-f]{1,6}|#[0-9]{1,7}|amp|lt|gt|quot|apos);/g, (all, ref: string) => {
    if (ref[0] !== "#") return PREDEFINED[ref];
    const code = ref[1] === "x" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : all;
  });
}

/** An element's text (its `#text` when it has attributes), trimmed; undefined when absent or not text. */
export function text(value: unknown): string | undefined {
  if (Array.isArray(value)) return text(value[0]);
  if (typeof value === "string") return decodeEntities(value).trim();
  if (value && typeof value === "object" && "#text" in value) return text((value as Node)["#text"]);
  if (value && typeof value === "object") return "";
  return undefined;
}

/** An attribute of an element, decoded. */
export function attr(value: unknown, name: string): string | undefined {
  if (Array.isArray(value)) return attr(value[0], name);
  if (value && typeof value === "object") {
    const a = (value as Node)[`@_${name}`];
    return typeof a === "string" ? decodeEntities(a).trim() : undefined;
  }
  return undefined;
}

/** A child element (the first when repeated), as a node. */
export function child(node: unknown, ...path: string[]): Node | undefined {
  let at: unknown = node;
  for (const name of path) {
    if (Array.isArray(at)) at = at[0];
    if (!at || typeof at !== "object") return undefined;
    at = (at as Node)[name];
  }
  if (Array.isArray(at)) at = at[0];
  return at && typeof at === "object" ? (at as Node) : undefined;
}

/** The value at `path` (an element: its text). */
export function at(node: unknown, ...path: string[]): unknown {
  let value: unknown = node;
  for (const name of path) {
    if (Array.isArray(value)) value = value[0];
    if (!value || typeof value !== "object") return undefined;
    value = (value as Node)[name];
  }
  return value;
}

/** Every child element of a name, as nodes. */
export function children(node: unknown, name: string): Node[] {
  const value = node && typeof node === "object" ? (node as Node)[name] : undefined;
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.map((v) => (v && typeof v === "object" ? (v as Node) : ({ "#text": v } as Node)));
}

export interface ParsedUbl {
  kind: "Invoice" | "CreditNote";
  root: Node;
  /** The file as text. */
  xml: string;
}

/** The file's bytes as a UBL document, or 422 `purchase_invoice.ubl_unreadable` saying why not. */
export function parseUbl(bytes: Buffer): ParsedUbl {
  let xml: string;
  try {
    xml = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw unreadable("its bytes are not UTF-8 (a UBL e-invoice is UTF-8)");
  }
  // Characters XML 1.0 does not allow (U+0000 above all, which no database text holds).
  const forbidden = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/.exec(xml);
  if (forbidden) {
    const code = `U+${forbidden[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
    throw unreadable(`it holds the character ${code}, which XML does not allow`, { offset: forbidden.index });
  }
  const declared = /^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([^"']+)["']/.exec(xml)?.[1];
  if (declared && !/^utf-?8$/i.test(declared)) throw unreadable(`it declares the encoding ${declared.slice(0, 40)}; a UBL e-invoice is UTF-8`);
  // A document type is where entities (and external ones) are declared: a UBL e-invoice has none.
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw unreadable("it holds a DOCTYPE or an entity declaration, which a UBL e-invoice never has");
  let valid: true | { err: { msg: string; line: number; col: number } };
  try {
    valid = XMLValidator.validate(xml);
  } catch {
    throw unreadable("it is not well-formed XML");
  }
  if (valid !== true) throw unreadable(`it is not well-formed XML (${valid.err.msg.slice(0, 200)})`, { line: valid.err.line, column: valid.err.col });
  // The root's start tag, in the text without the prolog's declarations and comments.
  const markup = xml.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->/g, "");
  const rootTag = /<(?:([A-Za-z_][\w.-]*):)?(Invoice|CreditNote)[\s>/]/.exec(markup);
  const firstElement = /<([A-Za-z_][\w.:-]*)/.exec(markup);
  if (!rootTag || !firstElement || firstElement[1] !== (rootTag[1] ? `${rootTag[1]}:${rootTag[2]}` : rootTag[2])) {
    throw unreadable("its root element is not a UBL Invoice or CreditNote");
  }
  const kind = rootTag[2] as ParsedUbl["kind"];
  const startTag = markup.slice(rootTag.index, markup.indexOf(">", rootTag.index + 1) + 1);
  const nsAttr = rootTag[1] ? `xmlns:${rootTag[1]}` : "xmlns";
  const ns = new RegExp(`\\s${nsAttr.replace(".", "\\.")}\\s*=\\s*["']([^"']*)["']`).exec(startTag)?.[1];
  if (ns !== NS[kind]) throw unreadable(`its root element ${kind} is not in the UBL 2.1 namespace ${NS[kind]}`);
  let document: Node;
  try {
    document = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "@_",
      removeNSPrefix: true,
      parseTagValue: false,
      parseAttributeValue: false,
      processEntities: false,
      htmlEntities: false,
      trimValues: true,
      isArray: (name) => ARRAYS.has(name),
    }).parse(xml) as Node;
  } catch (error) {
    throw unreadable(`it could not be read (${error instanceof Error ? error.message.slice(0, 200) : "unknown"})`);
  }
  // An empty root is an invoice without any element: the rules say what it lacks.
  const root = document[kind] === "" ? {} : document[kind];
  if (!root || typeof root !== "object" || Array.isArray(root)) throw unreadable("its root element is not an element the import reads");
  return { kind, root: root as Node, xml };
}
