// `npm run gen:rows` (node --import tsx scripts/gen-rows.ts [--check]): writes src/db/rows.ts, one interface per table
// of schema `public`, typed as `pg` hands the row to this service (src/db/connection.ts).
//
// The schema is read from a throw-away database: created on the server of DATABASE_URL (default: the local
// postgres), migrated with the service's own migrate() (src/db/migrate.ts), read from pg_catalog, dropped. So the
// file follows the migrations and nothing else: no developer's database, no hand edits.
//
// --check: writes nothing; exits 1 when src/db/rows.ts differs from what the migrations give (the CI drift check,
// like generated/).
//
// Types, as pg returns them here:
//   int2, int4, float4, float8 → number; int8, numeric, xid8 → string (pg's default, which money needs);
//   date → `YYYY-MM-DD` string (type parser 1082 in src/db/connection.ts); timestamptz → Date;
//   text, varchar, char, uuid → string (a single-column `col = ANY (ARRAY[...])` check constraint narrows it to the
//   union of its literals); jsonb → unknown (narrow it where it is read); bytea → Buffer; boolean;
//   arrays → T[]; a nullable column → `T | null`. A type not listed stops the generator (add it here, deliberately).
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { withDatabase } from "../src/db/connection.js";
import { migrate } from "../src/db/migrate.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const target = join(root, "src/db/rows.ts");
const check = process.argv.includes("--check");

interface Column {
  table: string;
  column: string;
  type: string;
  element: string | null;
  notNull: boolean;
  literals: string[] | null;
}

const SCALARS: Record<string, string> = {
  int2: "number",
  int4: "number",
  float4: "number",
  float8: "number",
  int8: "string",
  numeric: "string",
  xid8: "string",
  date: "string",
  timestamptz: "Date",
  timestamp: "Date",
  text: "string",
  varchar: "string",
  bpchar: "string",
  uuid: "string",
  citext: "string",
  jsonb: "unknown",
  json: "unknown",
  bytea: "Buffer",
  bool: "boolean",
};

// Arrays of these come back from pg as text elements (pg-types parses int8[] and numeric[] to strings too); an array
// of a type whose element pg would parse differently from the scalar (date[] becomes Date[]) is refused.
const ARRAY_ELEMENTS = new Set(["int2", "int4", "float4", "float8", "int8", "numeric", "text", "varchar", "bpchar", "uuid", "bool", "jsonb", "json"]);

const COLUMNS_SQL = `
  select c.relname as table, a.attname as column, t.typname as type, e.typname as element, a.attnotnull as "notNull",
         (select array_agg(pg_get_constraintdef(k.oid) order by k.conname)
            from pg_constraint k
           where k.conrelid = c.oid and k.contype = 'c' and k.conkey = array[a.attnum]) as checks
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    join pg_type t on t.oid = case when (select typtype from pg_type where oid = a.atttypid) = 'd'
                                   then (select typbasetype from pg_type where oid = a.atttypid) else a.atttypid end
    left join pg_type e on e.oid = t.typelem and t.typcategory = 'A'
   where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
   order by c.relname, a.attname`;

// `CHECK ((status = ANY (ARRAY['a'::text, 'b'::text])))`, or with varchar casts `((status)::text = ANY ((ARRAY[...])::text[]))`.
const ANY_ARRAY = /^CHECK \(\(\(?"?([a-z_0-9]+)"?\)?(?:::text)? = ANY \(\(?ARRAY\[(.*)\](?:\)::text\[\])?\)\)\)$/;
const LITERAL = /^'((?:[^']|'')*)'::(?:text|character varying)$/;

function literalsOf(column: string, checks: string[] | null): string[] | null {
  for (const check of checks ?? []) {
    const match = ANY_ARRAY.exec(check);
    if (!match || match[1] !== column) continue;
    const literals = match[2].split(", ").map((part) => LITERAL.exec(part)?.[1]?.replaceAll("''", "'"));
    if (literals.every((l) => l !== undefined)) return literals as string[];
  }
  return null;
}

async function readSchema(adminUrl: string): Promise<Column[]> {
  const database = `rows_gen_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl, application_name: "gen-rows" });
  await admin.connect();
  try {
    await admin.query(`create database "${database}"`);
    try {
      const url = withDatabase(adminUrl, database);
      await migrate(url);
      const client = new pg.Client({ connectionString: url, application_name: "gen-rows" });
      await client.connect();
      try {
        const { rows } = await client.query(COLUMNS_SQL);
        return rows.map((r) => ({ ...r, literals: literalsOf(r.column, r.checks) }));
      } finally {
        await client.end();
      }
    } finally {
      await admin.query(`drop database if exists "${database}" with (force)`);
    }
  } finally {
    await admin.end();
  }
}

const pascal = (name: string) => name.replace(/(^|_)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());
const rowTypeName = (table: string) => `${pascal(table)}Row`;

function tsType(c: Column): string {
  let type: string;
  if (c.element) {
    if (!ARRAY_ELEMENTS.has(c.element)) throw new Error(`${c.table}.${c.column}: arrays of ${c.element} are not mapped (scripts/gen-rows.ts)`);
    type = `${SCALARS[c.element]}[]`;
  } else if (c.literals) {
    type = c.literals.map((l) => JSON.stringify(l)).join(" | ");
  } else {
    type = SCALARS[c.type];
    if (!type) throw new Error(`${c.table}.${c.column}: type ${c.type} is not mapped (scripts/gen-rows.ts)`);
  }
  // `unknown` takes null in already.
  return c.notNull || type === "unknown" ? type : `${type} | null`;
}

function render(columns: Column[]): string {
  const tables = new Map<string, Column[]>();
  for (const c of columns) tables.set(c.table, [...(tables.get(c.table) ?? []), c]);
  const names = [...tables.keys()].sort();
  const out = [
    "// GENERATED by scripts/gen-rows.ts from the migrations (npm run gen:rows); do not edit by hand.",
    "// One interface per table of schema `public`, named <PascalCaseTable>Row after the table's own (plural) name,",
    "// typed as pg returns the row in this service: numeric, bigint and xid8 as strings, date as a YYYY-MM-DD string,",
    "// timestamptz as Date, jsonb as unknown, a check constraint's `col = ANY (ARRAY[...])` as a union of literals.",
    "",
  ];
  for (const name of names) {
    out.push(`export interface ${rowTypeName(name)} {`);
    for (const c of tables.get(name)!) out.push(`  ${c.column}: ${tsType(c)};`);
    out.push("}", "");
  }
  out.push("/** Table name → row type. */", "export interface Tables {");
  for (const name of names) out.push(`  ${name}: ${rowTypeName(name)};`);
  out.push("}", "");
  // Formatted by the project's formatter, so that `biome check` and this file's drift check agree.
  return execFileSync(join(root, "node_modules/.bin/biome"), ["format", `--stdin-file-path=${target}`], {
    cwd: root,
    input: out.join("\n"),
    encoding: "utf8",
  });
}

const adminUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const text = render(await readSchema(adminUrl));
if (check) {
  let current = "";
  try {
    current = readFileSync(target, "utf8");
  } catch {}
  if (current !== text) {
    console.error("src/db/rows.ts differs from the migrations' schema: run npm run gen:rows");
    process.exit(1);
  }
  console.log("src/db/rows.ts is current");
} else {
  writeFileSync(target, text);
  console.log(`src/db/rows.ts: ${(text.match(/^export interface \w+Row /gm) ?? []).length} row types`);
}
