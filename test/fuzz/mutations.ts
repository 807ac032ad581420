// Bodies broken field by field, from a valid one: each field replaced by a wrong type, a boundary or out-of-range
// value, odd Unicode, deep nesting or a huge array; extra fields at every level (prototype keys included); and
// whole bodies that are not objects. Each mutation is raw JSON text, so that what JSON.stringify cannot write
// (a lone surrogate escape, a `__proto__` property, deep nesting) reaches the server as a client would send it.

export interface Mutation {
  /** What was broken, for the report: `entries[1].debit <- "1e5"`. */
  label: string;
  raw: string;
}

const nested = (depth: number, open: string, close: string, inner = "1") => open.repeat(depth) + inner + close.repeat(depth);

/** Replacement values as JSON text: wrong types, boundaries, far dates, odd Unicode, nesting, size. */
export const REPLACEMENTS: readonly string[] = [
  // wrong types
  "null",
  "true",
  "0",
  "-1",
  "1.5",
  "[]",
  "{}",
  '"text"',
  '["a","b"]',
  '{"a":1}',
  // numeric boundaries, as numbers and as strings
  "1e308",
  "-1e308",
  "9007199254740993",
  "2147483648",
  "-2147483649",
  "-0",
  '""',
  '" "',
  '"0"',
  '"-0.00"',
  '"1e5"',
  '"0x10"',
  '"NaN"',
  '"Infinity"',
  '"-1"',
  '"1.123456789"',
  JSON.stringify("9".repeat(400)),
  JSON.stringify("999999999999999.99"),
  JSON.stringify("-999999999999999.99"),
  '"1000000000000000"',
  // dates
  '"0000-01-01"',
  '"0001-01-01"',
  '"9999-12-31"',
  '"2026-02-30"',
  '"2026-13-01"',
  '"+275760-09-13"',
  '"2026-1-1"',
  '"2026-01-01T00:00:00+99:99"',
  '"2026-01-01T25:00:00Z"',
  '"1999-12-31"',
  '"2101-01-01"',
  '"2026-06"',
  '"0000-00"',
  // odd Unicode (lone surrogates and U+0000 as escapes, which JSON allows)
  '"\\ud800"',
  '"x\\udc00y"',
  '"\\u0000"',
  '"\\u202e\\u202dRTL"',
  '"e\\u0301\\u0301\\u0301"',
  '"🌳ąčęėįšųūž"',
  '"\\ufeff"',
  '"\\uffff"',
  JSON.stringify("Ą".repeat(3000)),
  JSON.stringify("x".repeat(70_000)),
  '"  padded  "',
  '"\\t\\n"',
  '"<script>alert(1)</script>"',
  `"' or 1=1 --"`,
  '"%00"',
  '"../../etc/passwd"',
  // the second hardening round (issue 22): text just past ISO 20022's Max35Text and Max140Text, far-future months,
  // quantities and amounts at and past the columns, URLs of reserved IPv6 forms, IPv4 spellings and odd ports, and
  // base64 files whose bytes are not UTF-8 or name an unknown encoding
  JSON.stringify("R".repeat(36)),
  JSON.stringify("N".repeat(141)),
  JSON.stringify("𝔸".repeat(141)),
  JSON.stringify("t".repeat(10_001)),
  '"2099-12"',
  '"2100-12"',
  '"2099-12-31"',
  '"999999999999.9999"',
  '"1999999999999.9999"',
  '"0.0001"',
  '"999999999999999.99"',
  '"https://[::127.0.0.1]/"',
  '"https://[::ffff:0:7f00:1]/"',
  '"https://[::ffff:169.254.169.254]/"',
  '"https://[64:ff9b::10.0.0.1]/"',
  '"https://[2002:c0a8:101::1]/"',
  '"https://[fe80::1%25eth0]/"',
  '"https://[fc00::1]/"',
  '"https://2130706433/"',
  '"https://0x7f.1/"',
  '"https://127.0.0.1./"',
  '"https://localhost./"',
  '"https://public@127.0.0.1/"',
  '"https://example.test:5432/"',
  '"https://example.test:0/"',
  JSON.stringify(Buffer.from([0x3c, 0x61, 0x3e, 0xff, 0x80, 0xc3, 0x20, 0xed, 0xa0, 0x80, 0x3c, 0x2f, 0x61, 0x3e]).toString("base64")),
  JSON.stringify(Buffer.from('<?xml version="1.0" encoding="x-klingon"?><Document/>').toString("base64")),
  JSON.stringify(Buffer.from('<?xml version="1.0" encoding="UTF-16"?><Document/>').toString("base64")),
  // nesting and size
  nested(40, "[", "]"),
  nested(1500, '{"a":', "}"),
  `[${Array.from({ length: 20_000 }, () => "1").join(",")}]`,
  `[${Array.from({ length: 600 }, () => '"x"').join(",")}]`,
  `{${Array.from({ length: 600 }, (_, i) => `"k${i}":${i}`).join(",")}}`,
];

/** Paths to every value in a JSON value (objects and arrays), as JS accessor lists, up to a depth. */
function paths(value: unknown, depth = 0, prefix: (string | number)[] = []): (string | number)[][] {
  const here = prefix.length ? [prefix] : [];
  if (depth >= 5 || value === null || typeof value !== "object") return here;
  const children = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return [...here, ...children.flatMap(([k, v]) => paths(v, depth + 1, [...prefix, k]))];
}

const label = (path: (string | number)[]) => path.map((p, i) => (typeof p === "number" ? `[${p}]` : i ? `.${p}` : p)).join("");

/** JSON text of `root` with the value at `path` replaced by the raw JSON text `replacement`. */
function withRawAt(root: unknown, path: (string | number)[], replacement: string): string {
  const marker = `__fuzz_${Math.random().toString(36).slice(2)}__`;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let parent: Record<string | number, unknown> = copy;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  parent[path[path.length - 1]] = marker;
  return JSON.stringify(copy).replace(JSON.stringify(marker), replacement);
}

/** `count` mutations of a valid body, chosen by `random` (a seeded generator, so runs repeat). */
export function mutations(valid: unknown, count: number, random: () => number): Mutation[] {
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const out: Mutation[] = [
    { label: "body <- []", raw: "[]" },
    { label: "body <- null", raw: "null" },
    { label: 'body <- "string"', raw: '"a string"' },
    { label: "body <- {}", raw: "{}" },
  ];
  const fields = paths(valid);
  const objectPaths = [
    [],
    ...fields.filter((p) => {
      let v: any = valid;
      for (const s of p) v = v?.[s];
      return v !== null && typeof v === "object" && !Array.isArray(v);
    }),
  ];
  while (out.length < count) {
    const roll = random();
    if (roll < 0.12 && valid && typeof valid === "object") {
      // An extra property somewhere an object is: a plain one, or a prototype key.
      const where = pick(objectPaths);
      // Also the other member of an "exactly one of" pair (id/code, id/assetId, asOf/date), so a body carries both.
      const key = pick(["unexpected", "__proto__", "constructor", "", "ą", "\\ud800", "id", "code", "assetId", "asOf", "date"]);
      let target: any = valid;
      for (const step of where) target = target[step];
      const member = `"${key}":${pick(['{"polluted":true}', "1", '"x"', "null"])}`;
      const merged = `{${member}${Object.keys(target).length ? "," : ""}${JSON.stringify(target).slice(1)}`;
      out.push({ label: `${label(where) || "body"} + "${key}"`, raw: where.length ? withRawAt(valid, where, merged) : merged });
    } else if (fields.length) {
      const path = pick(fields);
      const replacement = pick(REPLACEMENTS);
      out.push({
        label: `${label(path)} <- ${replacement.length > 40 ? `${replacement.slice(0, 37)}...` : replacement}`,
        raw: withRawAt(valid, path, replacement),
      });
    } else {
      const replacement = pick(REPLACEMENTS);
      out.push({ label: `body <- ${replacement.slice(0, 40)}`, raw: replacement });
    }
  }
  return out;
}
