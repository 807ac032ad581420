import type { Knex } from "knex";
import { define } from "../definitions.js";

// The gate's statement (src/http/gate.ts) as a PL/pgSQL function (issue 15). Every request runs it first. Direct
// connections prepare it by name, so PostgreSQL plans it once per connection; through a transaction-pooling
// PgBouncer a named statement cannot be used, and planning it on every call halved throughput. PL/pgSQL caches the
// plan of each statement of a function per server connection, which PgBouncer keeps open across clients, so
// through the pooler the gate costs only the planning of `select * from api_gate(...)`, a function scan.
export async function up(knex: Knex): Promise<void> {
  // Its current text: src/db/functions/api_gate.sql (issue 23).
  await define(knex, "api_gate");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`drop function api_gate(uuid, uuid, bytea, text);`);
}
