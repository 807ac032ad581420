// Repeatable definitions (issue 23; STYLE 19): every PL/pgSQL or SQL function of the schema lives as its current text
// in one file of src/db/functions/ — `<name>.sql` for one function, `<family>.ts` for functions built from one
// template (the invoice list rollups, say) — with the comment that says why. The ordinary migrations keep tables,
// columns, constraints, triggers and data moves; they name the functions they need (`define`), never carry their text.
//
// Like Flyway's repeatable `R__` migrations: after the ordinary migrations, inside the migration lock, every definition
// whose checksum differs from the one recorded in `schema_definitions` is applied (all of them in one transaction)
// and recorded. So a changed rule is one edited file, reviewed as a diff of it and of src/db/schema.sql.
//
// A definition may change what a function does, not its signature: `create or replace` cannot change arguments or
// the result type. A new signature is a new function: drop the old one in an ordinary migration (`drop function if
// exists name(old arguments)`) that runs before the definitions are applied.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import type { Knex } from "knex";
import { FAMILIES } from "./functions/index.js";

export interface Definition {
  /** The file's name without its extension: a function's name, or a family's. */
  name: string;
  /** The functions it defines. */
  functions: string[];
  /** The statements that (re)define it: `create or replace function …`. */
  sql: string;
  checksum: string;
}

const FUNCTIONS_DIR = new URL("./functions/", import.meta.url);
const TABLE = "schema_definitions";

const checksum = (sql: string) => createHash("sha256").update(sql).digest("hex");

let cached: Definition[] | undefined;

/** Every definition, in the order of their names. */
export function loadDefinitions(): Definition[] {
  if (cached) return cached;
  const files = readdirSync(FUNCTIONS_DIR).filter((f) => f.endsWith(".sql"));
  const plain = files.map((f) => ({ name: f.slice(0, -4), sql: readFileSync(new URL(f, FUNCTIONS_DIR), "utf8") }));
  const families = Object.entries(FAMILIES).map(([name, statements]) => ({ name, sql: statements.join("\n") }));
  const names = new Set<string>();
  for (const d of [...plain, ...families]) {
    if (names.has(d.name)) throw new Error(`two definitions are named ${d.name} (src/db/functions)`);
    names.add(d.name);
  }
  cached = [...plain, ...families]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((d) => ({
      ...d,
      functions: [...d.sql.matchAll(/create or replace function\s+([a-z_][a-z0-9_]*)\s*\(/gi)].map((m) => m[1]),
      checksum: checksum(d.sql),
    }));
  for (const d of cached) if (!d.functions.length) throw new Error(`src/db/functions/${d.name} defines no function (create or replace function …)`);
  return cached;
}

function definition(name: string): Definition {
  const found = loadDefinitions().find((d) => d.name === name);
  if (!found) throw new Error(`no definition ${name} in src/db/functions`);
  return found;
}

/**
 * For an ordinary migration that needs functions at its point of history (a trigger it creates executes one): applies
 * their current text now. The pass after the migrations records them.
 */
export async function define(knex: Knex, ...names: string[]): Promise<void> {
  for (const name of names) await knex.raw(definition(name).sql);
}

async function recorded(knex: Knex): Promise<Map<string, string>> {
  const exists = (await knex.raw("select to_regclass(?) as t", [TABLE])).rows[0].t !== null;
  if (!exists) return new Map();
  const rows: { name: string; checksum: string }[] = await knex(TABLE).select("name", "checksum");
  return new Map(rows.map((r) => [r.name, r.checksum]));
}

/**
 * The definitions whose text the database does not have yet (empty when it is current): a checksum that differs from
 * the one recorded, or a function of it that is missing (a migration's down() dropped it).
 */
export async function pendingDefinitions(knex: Knex): Promise<string[]> {
  const applied = await recorded(knex);
  const existing = new Set<string>(
    (await knex.raw("select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = current_schema()")).rows.map(
      (r: { proname: string }) => r.proname,
    ),
  );
  return loadDefinitions()
    .filter((d) => applied.get(d.name) !== d.checksum || d.functions.some((f) => !existing.has(f)))
    .map((d) => d.name);
}

/** Applies every definition whose checksum changed, in one transaction; returns their names. */
export async function applyDefinitions(knex: Knex): Promise<string[]> {
  return knex.transaction(async (trx) => {
    await trx.raw(`
      create table if not exists ${TABLE} (
        name text primary key,
        checksum text not null check (checksum ~ '^[0-9a-f]{64}$'),
        applied_at timestamptz not null default now()
      )`);
    const pending = new Set(await pendingDefinitions(trx));
    const applied: string[] = [];
    for (const d of loadDefinitions()) {
      if (!pending.has(d.name)) continue;
      await trx.raw(d.sql);
      await trx(TABLE).insert({ name: d.name, checksum: d.checksum, applied_at: trx.fn.now() }).onConflict("name").merge(["checksum", "applied_at"]);
      applied.push(d.name);
    }
    return applied;
  });
}
