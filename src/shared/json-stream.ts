// An answer too large to hold twice (issue 24: an i.SAF part is about 30 MB of XML, 40 MB in base64): the JSON
// document is written out piece by piece, its one large string last, as the client reads it. Koa would otherwise
// make the whole document one string and then one buffer, three copies of the file at once. A handler returns
// jsonStream(…) where it would return the object; the pipeline sends it as application/json (src/http/pipeline.ts).
import { Readable } from "node:stream";

declare const streamed: unique symbol;
/** A JSON document of type T, as a stream of its text. */
export type StreamedJson<T> = Readable & { readonly [streamed]?: T };

/**
 * `fields` and then `key`: the concatenation of `pieces`, as one JSON string. The pieces must need no escaping in
 * JSON (base64 text: letters, digits, `+`, `/`, `=`).
 */
export function jsonStream<T extends object, K extends keyof T & string>(fields: Omit<T, K>, key: K, pieces: Iterable<string>): StreamedJson<T> {
  function* text(): Generator<string> {
    const head = JSON.stringify(fields);
    yield `${head.slice(0, -1)}${head === "{}" ? "" : ","}${JSON.stringify(key)}:"`;
    for (const piece of pieces) {
      if (/[^A-Za-z0-9+/=]/.test(piece)) throw new Error("jsonStream: a piece needs escaping");
      yield piece;
    }
    yield `"}`;
  }
  return Readable.from(text(), { objectMode: false }) as StreamedJson<T>;
}
