// A statement file's bytes as text, decoded strictly (issue 22): a byte sequence its encoding does not define is
// refused with its byte offset, never replaced by U+FFFD (which would be stored as if the bank had sent it).
// The encoding is found as XML 1.0 finds it (https://www.w3.org/TR/xml/#sec-guessing): a byte order mark names
// UTF-8 or UTF-16; otherwise the XML declaration's `encoding` (a Baltic bank may write windows-1257 or ISO-8859-13),
// by default UTF-8. Encodings are those of the WHATWG Encoding Standard (TextDecoder), by any of their labels.
import { TextDecoder } from "node:util";
import { ApiError } from "../shared/errors.js";

/** The XML declaration's encoding, read from the file's first bytes as ASCII (white space before it is let pass). */
const DECLARED = /^[ \t\r\n]*<\?xml[ \t\r\n][^>]*?\bencoding[ \t\r\n]*=[ \t\r\n]*["']([A-Za-z][A-Za-z0-9._:-]{0,39})["']/;

function byteOrderMark(bytes: Uint8Array): "utf-8" | "utf-16le" | "utf-16be" | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return undefined;
}

/**
 * Where the first ill-formed UTF-8 sequence starts (Unicode 15, table 3-7: no overlong forms, no surrogates, nothing
 * above U+10FFFF, no sequence cut short), or -1.
 */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const lead = bytes[i];
    if (lead < 0x80) {
      i++;
      continue;
    }
    let following: number;
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) following = 1;
    else if (lead >= 0xe0 && lead <= 0xef) {
      following = 2;
      if (lead === 0xe0) low = 0xa0;
      else if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      following = 3;
      if (lead === 0xf0) low = 0x90;
      else if (lead === 0xf4) high = 0x8f;
    } else return i;
    for (let k = 1; k <= following; k++) {
      const b = bytes[i + k];
      if (b === undefined || b < low || b > high) return i;
      low = 0x80;
      high = 0xbf;
    }
    i += following + 1;
  }
  return -1;
}

/**
 * Where a strict decoder first fails on `bytes` (another encoding than UTF-8): the shortest prefix it refuses, found
 * by halving (a prefix it refuses stays refused as it grows), so the offset is that of the byte that made it fail.
 */
function failingOffset(encoding: string, bytes: Uint8Array): number {
  let ok = 0;
  let bad = bytes.length;
  while (bad - ok > 1) {
    const middle = (ok + bad) >>> 1;
    try {
      new TextDecoder(encoding, { fatal: true }).decode(bytes.subarray(0, middle), { stream: true });
      ok = middle;
    } catch {
      bad = middle;
    }
  }
  return bad - 1;
}

const hex = (bytes: Uint8Array) => [...bytes].map((b) => `0x${b.toString(16).toUpperCase().padStart(2, "0")}`).join(" ");

function lineOf(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = bytes.indexOf(0x0a); i >= 0 && i < offset; i = bytes.indexOf(0x0a, i + 1)) line++;
  return line;
}

/**
 * The file as text. 422 `bank.statement_invalid` when its bytes are not valid in its encoding (`params.byteOffset`,
 * `fieldErrors.contentBase64`), or when it declares UTF-16 without a byte order mark; 422
 * `bank.statement_unsupported` for an encoding TextDecoder does not know.
 */
export function decodeStatementBytes(bytes: Uint8Array): string {
  const bom = byteOrderMark(bytes);
  const declared = bom === undefined ? DECLARED.exec(Buffer.from(bytes.subarray(0, 200)).toString("latin1"))?.[1] : undefined;
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(bom ?? declared ?? "utf-8", { fatal: true });
  } catch {
    throw new ApiError(
      "unprocessable",
      `The statement file declares the encoding ${declared}, which is not known (UTF-8, the default, UTF-16, windows-1257 and ISO-8859-13 are, among others).`,
      {
        key: "bank.statement_unsupported",
        params: { encoding: declared },
        fieldErrors: { contentBase64: [`declares the encoding ${declared}, which is not known`] },
      },
    );
  }
  const encoding = decoder.encoding;
  if (bom === undefined && encoding.startsWith("utf-16")) {
    // The declaration was read as ASCII bytes, which UTF-16 text is not.
    throw new ApiError("unprocessable", `The statement file declares ${declared} but is not UTF-16: a UTF-16 file starts with a byte order mark.`, {
      key: "bank.statement_invalid",
      params: { path: "byte 0", problem: `declares ${declared} without a byte order mark`, byteOffset: 0, encoding },
      fieldErrors: { contentBase64: [`declares ${declared} without a byte order mark`] },
    });
  }
  try {
    return decoder.decode(bytes);
  } catch {
    const offset = encoding === "utf-8" ? invalidUtf8Offset(bytes) : failingOffset(encoding, bytes);
    const at = Math.max(0, offset);
    const shown = hex(bytes.subarray(at, Math.min(bytes.length, at + 4)));
    const problem = `holds bytes that are not ${encoding === "utf-8" ? "UTF-8" : encoding} (${shown || "the file ends inside a character"})`;
    const line = lineOf(bytes, at);
    throw new ApiError("unprocessable", `The statement file is not a valid camt.053: byte ${at} (line ${line}) ${problem}. Nothing was imported.`, {
      key: "bank.statement_invalid",
      params: { path: `byte ${at}`, problem, byteOffset: at, line, encoding },
      fieldErrors: { contentBase64: [`byte ${at} (line ${line}) ${problem}`] },
    });
  }
}
