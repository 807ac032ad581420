import type { Knex } from "knex";

// invoice_frozen (migration 20261124000101) turned the whole old row into JSON in its declarations, so before its
// first line: every update of a draft paid for it too (an issue is one: 0.11 ms of the statement that holds the
// series row, PostgreSQL 15), though a draft may change freely. The same checks, the JSON only for a document that
// is issued or registered.
const FROZEN_COLUMNS = "array['status', 'paid_amount', 'credited_amount', 'outstanding', 'updated_at']";

/** The function, with the old row's JSON built in its declarations (as before) or only where it is compared. */
const frozenFunction = (jsonUpFront: boolean) => `
    create or replace function invoice_frozen() returns trigger language plpgsql as $$
    ${
      jsonUpFront
        ? `declare
      old_doc jsonb := to_jsonb(old) - ${FROZEN_COLUMNS};`
        : ""
    }
    begin
      if old.status = 'draft' then
        return case when tg_op = 'DELETE' then old else new end;
      end if;
      if tg_op = 'DELETE' then
        raise exception 'an issued or registered document cannot be deleted' using errcode = 'P0001', constraint = 'invoice_frozen';
      end if;
      if new.status = 'draft' or ${jsonUpFront ? "old_doc" : `(to_jsonb(old) - ${FROZEN_COLUMNS})`} is distinct from (to_jsonb(new) - ${FROZEN_COLUMNS}) then
        raise exception 'an issued or registered document cannot be changed' using errcode = 'P0001', constraint = 'invoice_frozen';
      end if;
      return new;
    end $$;`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(frozenFunction(false));
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(frozenFunction(true));
}
