import type { Knex } from "knex";

// The stock account and the layers must not part ways (issue 22, item 11): `inventory.stock` is the account the
// layers' value was posted to, so the rule does not change while the company's layers hold value — neither a new
// row (the rule leaving its default), a changed account, nor a deleted row (back to the default). The check takes
// the stock rule's lock exclusively (class 7304, src/ledger/posting-rules.ts), which every stock operation holds
// shared from its read of the rule to its commit, so it sees every layer value committed before it and no operation
// posts to the old account after it. ledger/posting-rules/update checks the same first and answers 409
// `posting_rule.stock_held`.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function posting_rules_stock_held() returns trigger language plpgsql as $$
    declare
      k_company uuid := case when tg_op = 'DELETE' then old.company_id else new.company_id end;
    begin
      if tg_op = 'UPDATE' and new.account_code = old.account_code then
        return new;
      end if;
      perform pg_advisory_xact_lock(7304, hashtext(k_company::text));
      if exists (select 1 from stock_layer_sums s where s.company_id = k_company and s.value > 0) then
        raise exception 'the stock layers of company % hold value: the posting rule inventory.stock cannot change', k_company
          using errcode = 'check_violation', constraint = 'posting_rules_stock_held';
      end if;
      return case when tg_op = 'DELETE' then old else new end;
    end $$;
    create trigger posting_rules_stock_held before insert or update on posting_rules
      for each row when (new.rule = 'inventory.stock') execute function posting_rules_stock_held();
    create trigger posting_rules_stock_held_delete before delete on posting_rules
      for each row when (old.rule = 'inventory.stock') execute function posting_rules_stock_held();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop trigger posting_rules_stock_held_delete on posting_rules;
    drop trigger posting_rules_stock_held on posting_rules;
    drop function posting_rules_stock_held();
  `);
}
