import type { Knex } from "knex";
import { define } from "../definitions.js";

// The stock account and the layers must not part ways (issue 22, item 11): `inventory.stock` is the account the
// layers' value was posted to, so the rule does not change while the company's layers hold value — neither a new
// row (the rule leaving its default), a changed account, nor a deleted row (back to the default). The check takes
// the stock rule's lock exclusively (class 7304, src/ledger/posting-rules.ts), which every stock operation holds
// shared from its read of the rule to its commit, so it sees every layer value committed before it and no operation
// posts to the old account after it. ledger/posting-rules/update checks the same first and answers 409
// `posting_rule.stock_held`.
export async function up(knex: Knex): Promise<void> {
  // The current text of the functions its triggers execute (src/db/functions; issue 23).
  await define(knex, "posting_rules_stock_held");
  await knex.raw(`
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
