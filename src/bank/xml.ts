// A small, strict XML reader for bank statement files: one pass over the text that checks it is well-formed and
// builds the tree the camt.053 reader walks. It replaces fast-xml-parser's validator and parser (two passes, and most
// of an import's time: 1.5 s of CPU and much garbage for a 10,000-entry file).
//
// What it accepts is XML 1.0 without a document type (https://www.w3.org/TR/xml/): an optional XML declaration,
// comments and processing instructions, one root element, CDATA sections. Refused, with the offset of the problem:
// a DOCTYPE (entity definitions live there; a statement has none), an end tag that does not close the open element,
// an element left open, text or a second element after the root, a repeated attribute, `<` in an attribute value, a
// reference to an entity other than the five predefined ones, a bare `&`, `]]>` in text, `--` in a comment, a
// character reference to a character XML does not allow, nesting deeper than `maxDepth`. Raw characters XML does not
// allow are the caller's check (one regular expression over the file is faster than a test per character here).
// Names are checked with XML's rules for ASCII; any character from U+00C0 on is taken as a name character (a
// superset of XML's ranges, which a bank's file does not come near).
//
// The tree has the shape fast-xml-parser gave (so the reader of the statements did not change with it): an element
// is an object of its children by local name (namespace prefixes dropped, as are `xmlns` attributes), a child that
// occurs several times — or whose name is in `arrays` — an array; its attributes are `@_<name>`; an element without
// children is its text, or `{ "#text", "@_…" }` when it has attributes; text beside children is `#text`. Entity and
// character references are decoded, CDATA is taken as it is. The objects are plain ones, so an element may not be
// named after a member every object has (`__proto__`, `constructor`, `toString`…): such a name is refused.

export type XmlValue = string | XmlNode | XmlValue[];
export interface XmlNode {
  [name: string]: XmlValue;
}

/** Where (an offset into the text) and why the text is not a document this reader takes. */
export class XmlError extends Error {
  constructor(
    readonly offset: number,
    readonly problem: string,
  ) {
    super(problem);
  }
}

const ENTITIES = new Map([
  ["amp", "&"],
  ["lt", "<"],
  ["gt", ">"],
  ["quot", '"'],
  ["apos", "'"],
]);
/** XML 1.0 `Char`: tab, LF, CR, U+0020-U+D7FF, U+E000-U+FFFD, U+10000-U+10FFFF. */
const isXmlChar = (code: number) =>
  code === 0x9 ||
  code === 0xa ||
  code === 0xd ||
  (code >= 0x20 && code <= 0xd7ff) ||
  (code >= 0xe000 && code <= 0xfffd) ||
  (code >= 0x10000 && code <= 0x10ffff);
export const codePointName = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
const REFERENCE = /&([^;&<>\s]{0,12});?/g;
/** Names an element may not have: members of every object (`constructor`, `__proto__`, `toString`…). */
const RESERVED = new Set([...Object.getOwnPropertyNames(Object.prototype), "prototype"]);
const NOT_SPACE = /[^ \t\r\n]/;

const isNameStart = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 58 || c >= 0xc0;
const isNameChar = (c: number) => isNameStart(c) || (c >= 48 && c <= 57) || c === 45 || c === 46 || c === 0xb7;
const isSpace = (c: number) => c === 32 || c === 10 || c === 9 || c === 13;

interface Frame {
  qname: string;
  name: string;
  start: number;
  node: XmlNode | null;
  attributes: XmlNode | null;
  text: string;
}

export interface XmlOptions {
  /** Element names always read as arrays. */
  arrays: ReadonlySet<string>;
  /** How deep elements may nest. */
  maxDepth: number;
}

/** Reads `xml` (without a byte order mark) into `{ [root's local name]: root }`; throws XmlError when it is not well-formed. */
export function readXml(xml: string, options: XmlOptions): XmlNode {
  return new XmlReader(xml, options).read();
}

const fail = (at: number, problem: string): never => {
  throw new XmlError(at, problem);
};

const localName = (qname: string) => {
  const colon = qname.indexOf(":");
  return colon < 0 ? qname : qname.slice(colon + 1);
};

/** A closed element's value: its children (with its text and attributes), its attributes with its text, or its text. */
function closedValue(frame: Frame): XmlValue {
  if (frame.node !== null) {
    const value = frame.node;
    const text = frame.text.trim();
    if (text !== "") value["#text"] = text;
    if (frame.attributes !== null) Object.assign(value, frame.attributes);
    return value;
  }
  if (frame.attributes !== null) {
    const value = frame.attributes;
    value["#text"] = frame.text;
    return value;
  }
  return frame.text;
}

/** One pass over one document: every method takes the offset it reads from and returns the offset after what it read. */
class XmlReader {
  private readonly length: number;
  private readonly document: XmlNode = {};
  /** The open elements, the root first. */
  private readonly stack: Frame[] = [];

  constructor(
    private readonly xml: string,
    private readonly options: XmlOptions,
  ) {
    this.length = xml.length;
  }

  read(): XmlNode {
    const { xml, stack } = this;
    let pos = this.prolog();
    // One turn per markup: a start tag, an end tag, a comment, a CDATA section or a processing instruction, with the
    // text before it. The root element's start tag is the first.
    do {
      const lt = stack.length === 0 ? pos : xml.indexOf("<", pos);
      if (lt < 0) fail(stack[stack.length - 1].start, `has the element <${stack[stack.length - 1].qname}> that is never closed`);
      if (lt > pos) this.text(pos, lt);
      pos = lt;
      const next = xml.charCodeAt(pos + 1);
      if (next === 47) pos = this.endTag(pos);
      else if (next === 33) pos = this.commentOrCdata(pos);
      else if (next === 63) pos = this.skipInstruction(pos);
      else pos = this.startTag(pos);
    } while (stack.length);
    const end = this.skipMisc(pos);
    if (end < this.length) fail(end, "has more after the root element");
    return this.document;
  }

  /** Up to the root element's start tag: the XML declaration, comments, processing instructions; no DOCTYPE. */
  private prolog(): number {
    const xml = this.xml;
    // The XML declaration, only at the start (white space before it is let pass: some exports begin with a line break).
    let pos = this.skipSpace(0);
    if (xml.startsWith("<?xml", pos) && (isSpace(xml.charCodeAt(pos + 5)) || xml.startsWith("?>", pos + 5))) {
      const end = xml.indexOf("?>", pos + 5);
      if (end < 0) fail(pos, "has an XML declaration that is never closed");
      pos = end + 2;
    }
    pos = this.skipMisc(pos);
    if (xml.startsWith("<!", pos)) fail(pos, "holds a DOCTYPE or another declaration, which a statement never has");
    if (xml.charCodeAt(pos) !== 60) fail(pos, pos >= this.length ? "has no root element" : "has text before the root element");
    if (!isNameStart(xml.charCodeAt(pos + 1))) fail(pos, "has no root element");
    return pos;
  }

  /** The text from `from` up to the markup at `to`, added to the open element's. */
  private text(from: number, to: number): void {
    const raw = this.xml.slice(from, to);
    const top = this.stack[this.stack.length - 1];
    if (raw.includes("]]>")) fail(from + raw.indexOf("]]>"), "has ]]> in text");
    // White space between child elements is layout, not text.
    if (top.node === null || NOT_SPACE.test(raw)) top.text += this.decode(raw, from);
  }

  /** `<` of a start tag at `from`: opens the element, or places it at once when it is empty (`<a/>`). */
  private startTag(from: number): number {
    const { xml, options } = this;
    if (this.stack.length >= options.maxDepth) fail(from, `nests elements deeper than ${options.maxDepth} levels`);
    const nameEnd = this.readName(from + 1);
    const qname = xml.slice(from + 1, nameEnd);
    const name = localName(qname);
    if (name === "" || RESERVED.has(name)) fail(from, `has an element named ${qname}, a name this reader does not take`);
    const frame: Frame = { qname, name, start: from, node: null, attributes: null, text: "" };
    const at = this.readAttributes(frame, nameEnd);
    const selfClosing = xml.charCodeAt(at) === 47;
    // An empty element: its text is empty.
    if (selfClosing) this.attach(name, frame.attributes ?? "");
    else this.stack.push(frame);
    return at + (selfClosing ? 2 : 1);
  }

  /** The attributes of the start tag of `frame` from `from` (after its name) into `frame.attributes`: the offset of its `>` or `/>`. */
  private readAttributes(frame: Frame, from: number): number {
    const xml = this.xml;
    const qname = frame.qname;
    let at = from;
    for (;;) {
      const afterSpace = this.skipSpace(at);
      const c = xml.charCodeAt(afterSpace);
      if (c === 62 || (c === 47 && xml.charCodeAt(afterSpace + 1) === 62)) return afterSpace;
      if (afterSpace === at) fail(at, `has the start tag <${qname}> not closed by > where it should be`);
      const attrEnd = this.readName(afterSpace);
      const attrName = xml.slice(afterSpace, attrEnd);
      let eq = this.skipSpace(attrEnd);
      if (xml.charCodeAt(eq) !== 61) fail(eq, `has the attribute ${attrName} without a value`);
      eq = this.skipSpace(eq + 1);
      const quote = xml.charCodeAt(eq);
      if (quote !== 34 && quote !== 39) fail(eq, `has the attribute ${attrName} with a value not in quotes`);
      const valueEnd = xml.indexOf(quote === 34 ? '"' : "'", eq + 1);
      if (valueEnd < 0) fail(eq, `has the attribute ${attrName} whose value is never closed`);
      const raw = xml.slice(eq + 1, valueEnd);
      if (raw.includes("<")) fail(eq, `has < in the value of the attribute ${attrName}`);
      const value = this.decode(raw, eq + 1);
      at = valueEnd + 1;
      if (attrName === "xmlns" || attrName.startsWith("xmlns:")) continue;
      frame.attributes ??= {} as XmlNode;
      const key = `@_${localName(attrName)}`;
      if (key in frame.attributes) fail(afterSpace, `repeats the attribute ${attrName}`);
      frame.attributes[key] = value;
    }
  }

  /** `</` at `from`: closes the open element and places its value in its parent. */
  private endTag(from: number): number {
    const xml = this.xml;
    const top = this.stack.pop()!;
    const nameEnd = from + 2 + top.qname.length;
    if (!xml.startsWith(top.qname, from + 2) || isNameChar(xml.charCodeAt(nameEnd))) {
      const found = xml.slice(from + 2, this.readName(from + 2));
      fail(from, `has the end tag </${found}> where </${top.qname}> closes the open element`);
    }
    const close = this.skipSpace(nameEnd);
    if (xml.charCodeAt(close) !== 62) fail(close, `has an end tag </${top.qname}> that is not closed by >`);
    this.attach(top.name, closedValue(top));
    return close + 1;
  }

  /** `<!` inside an element: a comment, or a CDATA section (taken as it is); any other declaration is refused. */
  private commentOrCdata(from: number): number {
    const xml = this.xml;
    if (xml.startsWith("<!--", from)) return this.skipComment(from);
    if (!xml.startsWith("<![CDATA[", from)) return fail(from, "holds a declaration (<!…) inside an element");
    const end = xml.indexOf("]]>", from + 9);
    if (end < 0) fail(from, "has a CDATA section that is never closed");
    this.stack[this.stack.length - 1].text += xml.slice(from + 9, end);
    return end + 3;
  }

  /** A closed element into its parent (which then has children: white space it held is layout), or the document. */
  private attach(name: string, value: XmlValue): void {
    const stack = this.stack;
    if (!stack.length) {
      this.document[name] = value;
      return;
    }
    const parent = stack[stack.length - 1];
    if (parent.node === null) {
      parent.node = {} as XmlNode;
      if (!NOT_SPACE.test(parent.text)) parent.text = "";
    }
    const children = parent.node;
    const existing = children[name];
    if (this.options.arrays.has(name)) {
      if (existing === undefined) children[name] = [value];
      else (existing as XmlValue[]).push(value);
    } else if (existing === undefined) children[name] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else children[name] = [existing, value];
  }

  /** Decodes the references of `raw` (text or an attribute value found at `at`), refusing what XML does not allow. */
  private decode(raw: string, at: number): string {
    if (raw.indexOf("&") < 0) return raw;
    return raw.replace(REFERENCE, (all: string, name: string, offset: number) => {
      if (!all.endsWith(";")) fail(at + offset, "holds an & that starts no reference (write &amp;)");
      if (name[0] !== "#") {
        const entity = ENTITIES.get(name);
        if (entity === undefined) return fail(at + offset, `refers to the entity &${name}; which is not defined (only &amp; &lt; &gt; &quot; &apos; are)`);
        return entity;
      }
      const hex = name[1] === "x";
      const digits = name.slice(hex ? 2 : 1);
      if (!(hex ? /^[0-9A-Fa-f]{1,6}$/ : /^[0-9]{1,7}$/).test(digits)) fail(at + offset, `holds the malformed character reference ${all}`);
      const code = parseInt(digits, hex ? 16 : 10);
      if (!isXmlChar(code)) fail(at + offset, `holds the character reference ${all}, to ${codePointName(code)}, which XML does not allow`);
      return String.fromCodePoint(code);
    });
  }

  private readName(from: number): number {
    const xml = this.xml;
    if (from >= this.length || !isNameStart(xml.charCodeAt(from))) fail(from, "has a tag without a valid name");
    let end = from + 1;
    while (end < this.length && isNameChar(xml.charCodeAt(end))) end++;
    return end;
  }

  private skipSpace(from: number): number {
    while (from < this.length && isSpace(this.xml.charCodeAt(from))) from++;
    return from;
  }

  /** `<!--` at `from`: the offset after its `-->`. */
  private skipComment(from: number): number {
    const xml = this.xml;
    const end = xml.indexOf("-->", from + 4);
    if (end < 0) fail(from, "has a comment that is never closed");
    // `--` may not occur inside, nor `-` end it (`--->`); `<!---->` is an empty comment.
    if (xml.slice(from + 4, end).includes("--") || (end > from + 4 && xml.charCodeAt(end - 1) === 45)) fail(from, "has a comment holding --");
    return end + 3;
  }

  /** `<?` at `from`, not the XML declaration: the offset after its `?>`. */
  private skipInstruction(from: number): number {
    const nameEnd = this.readName(from + 2);
    if (this.xml.slice(from + 2, nameEnd).toLowerCase() === "xml") fail(from, "has an XML declaration that is not at the start");
    const end = this.xml.indexOf("?>", nameEnd);
    if (end < 0) fail(from, "has a processing instruction that is never closed");
    return end + 2;
  }

  /** Comments, processing instructions and white space outside the root element. */
  private skipMisc(from: number): number {
    for (;;) {
      from = this.skipSpace(from);
      if (this.xml.startsWith("<!--", from)) from = this.skipComment(from);
      else if (this.xml.startsWith("<?", from)) from = this.skipInstruction(from);
      else return from;
    }
  }
}
