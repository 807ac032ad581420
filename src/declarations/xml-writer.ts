// A small streaming XML writer for the declarations' files (i.SAF, FFData): elements are written in order into
// 64 KB UTF-8 chunks, each hashed (SHA-256) as it is made, so a file is never built as one string and its digest
// is ready when it ends. The chunks are kept in memory, or written to a file the caller opened (`fd`: an i.SAF part
// answered to a client, so that the process holds one fetch of rows rather than the part). Text and attribute values are always escaped here; a character XML 1.0 cannot carry (a
// C0 control other than tab, line feed and carriage return, U+FFFE, U+FFFF) becomes U+FFFD.
import { createHash } from "node:crypto";
import { readSync, writeSync } from "node:fs";

const CHUNK = 64 * 1024;
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const SPECIAL = /[&<>"']/g;
const NEEDS_ESCAPE = /[&<>"'\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const ENTITY: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** `value` as XML character data (also safe in an attribute value in double quotes). */
export function escapeXml(value: string): string {
  // Most values (numbers, dates, codes) need nothing: one scan tells, instead of two replacing ones.
  if (!NEEDS_ESCAPE.test(value)) return value;
  return value.replace(NOT_XML, "\uFFFD").replace(SPECIAL, (c) => ENTITY[c]);
}

export interface XmlFile {
  sha256: string;
  bytes: number;
  /** The file as one buffer (to store it). */
  toBuffer(): Buffer;
  /** The file in base64, encoded chunk by chunk (the file is never copied into one buffer for it). */
  toBase64(): string;
  /** The same base64 in pieces, to be written out one at a time (a response streamed: ../shared/json-stream.ts). */
  base64Pieces(): Iterable<string>;
}

/** The base64 of the chunks as one text, piece by piece (a piece per chunk; the file is never one buffer for it). */
export function* base64Pieces(chunks: Buffer[]): Generator<string> {
  let carry = Buffer.alloc(0);
  for (const chunk of chunks) {
    const data = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    const whole = data.length - (data.length % 3);
    yield data.subarray(0, whole).toString("base64");
    carry = Buffer.from(data.subarray(whole));
  }
  if (carry.length) yield carry.toString("base64");
}

const base64Of = (chunks: Buffer[]) => [...base64Pieces(chunks)].join("");

/**
 * The base64 of a file written through `fd`, read 48 KB at a time into one buffer (a multiple of 3: each piece stands
 * alone). Small pieces on purpose: a string over V8's regular object size (about 128 KB) is allocated in the large
 * object space, which only a full collection frees, so 40 MB of large pieces a part stayed in the process's memory.
 */
function* fileBase64(fd: number, bytes: number): Generator<string> {
  const buffer = Buffer.allocUnsafe(3 * 16 * 1024);
  for (let position = 0; position < bytes; position += buffer.length) {
    const length = Math.min(buffer.length, bytes - position);
    readAt(fd, buffer, length, position);
    yield buffer.toString("base64", 0, length);
  }
}

/** Fills `buffer` with `length` bytes of the file at `position`. */
function readAt(fd: number, buffer: Buffer, length: number, position: number): void {
  for (let read = 0; read < length; ) read += readSync(fd, buffer, read, length - read, position + read);
}

export class XmlWriter {
  private pending = "";
  private readonly chunks: Buffer[] = [];
  private readonly hash = createHash("sha256");
  private bytes = 0;

  /** `fd`: a file open for reading and writing, written from its start, that the caller closes. */
  constructor(
    declaration = '<?xml version="1.0" encoding="UTF-8"?>\n',
    private readonly fd?: number,
  ) {
    this.raw(declaration);
  }

  /** Trusted markup written as is (element names and attribute names of the writer's callers, never data). */
  private raw(text: string): void {
    this.pending += text;
    if (this.pending.length >= CHUNK) this.flush();
  }

  private flush(): void {
    if (!this.pending) return;
    const chunk = Buffer.from(this.pending, "utf8");
    this.pending = "";
    this.hash.update(chunk);
    if (this.fd === undefined) this.chunks.push(chunk);
    else for (let written = 0; written < chunk.length; ) written += writeSync(this.fd, chunk, written, chunk.length - written, this.bytes + written);
    this.bytes += chunk.length;
  }

  private static attributes(attrs: Record<string, string> | undefined): string {
    if (!attrs) return "";
    return Object.entries(attrs)
      .map(([k, v]) => ` ${k}="${escapeXml(v)}"`)
      .join("");
  }

  open(name: string, attrs?: Record<string, string>): this {
    this.raw(`<${name}${XmlWriter.attributes(attrs)}>`);
    return this;
  }

  close(name: string): this {
    this.raw(`</${name}>`);
    return this;
  }

  /** `<name>text</name>`; an empty string gives `<name></name>`. */
  text(name: string, value: string | number, attrs?: Record<string, string>): this {
    this.raw(`<${name}${XmlWriter.attributes(attrs)}>${escapeXml(String(value))}</${name}>`);
    return this;
  }

  /** `<name xsi:nil="true"/>`: an element of a nillable XSD type with no value. */
  nil(name: string): this {
    this.raw(`<${name} xsi:nil="true"/>`);
    return this;
  }

  /** A text element, or nil when the value is null. */
  textOrNil(name: string, value: string | null | undefined): this {
    return value === null || value === undefined ? this.nil(name) : this.text(name, value);
  }

  newline(): this {
    this.raw("\n");
    return this;
  }

  /** Ends the file: its size, SHA-256 (hex) and content. */
  finish(): XmlFile {
    this.flush();
    const bytes = this.bytes;
    const fd = this.fd;
    if (fd !== undefined) {
      return {
        sha256: this.hash.digest("hex"),
        bytes,
        toBuffer: () => {
          const whole = Buffer.allocUnsafe(bytes);
          readAt(fd, whole, bytes, 0);
          return whole;
        },
        toBase64: () => [...fileBase64(fd, bytes)].join(""),
        base64Pieces: () => fileBase64(fd, bytes),
      };
    }
    const chunks = this.chunks.splice(0);
    return {
      sha256: this.hash.digest("hex"),
      bytes,
      toBuffer: () => (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, bytes)),
      toBase64: () => base64Of(chunks),
      base64Pieces: () => base64Pieces(chunks),
    };
  }
}
