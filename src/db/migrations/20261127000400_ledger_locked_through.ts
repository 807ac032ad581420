import type { Knex } from "knex";
import { define } from "../definitions.js";

// A lock "through" a date covers every month up to it (issue 22, item 12). Locking through a date wrote a row per
// month from the company's first posting or lock on, so every month before those stayed open: postings dated
// 2020-05 were accepted under a quarter locked through 2026-06-30. Now the company's locked-through month is kept
// (ledger_locked_through, one row per company) and a month is locked when a row of ledger_period_locks names it or
// when it is on or before that month, whether or not a row names it. The rule lives in one function,
// ledger_month_locked, which every check of a posting's or a stock operation's month calls: the journal header's
// statement check, the stock operations' check, and the posting context (and the code's own reads,
// src/ledger/periods.ts). Unlocking the locked-through month moves it back by one month (only the latest locked
// month unlocks, as before). Locks taken before this migration keep the months they wrote: which of them were sent as
// "through" is not recorded (the audit log keeps the months only), so no locked-through month is made up for them; a
// company sends its lock through a date again to cover the months before.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- The last month a lock "through" a date covers: it and every month before it are locked.
    create table ledger_locked_through (
      company_id uuid not null references companies (id),
      month date not null check (month = date_trunc('month', month)),
      locked_at timestamptz not null default now(),
      locked_by_key_id uuid references api_keys (id),
      primary key (company_id)
    );

  `);
  // The rule (src/db/functions/ledger_month_locked.sql, which reads the table above) and the checks that call it:
  // journal_transactions_checks.sql, stock_operation_checks.sql, ledger_posting_context.sql (issue 23).
  await define(knex, "ledger_month_locked", "ledger_posting_context", "journal_transactions_checks", "stock_operation_checks");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop function ledger_month_locked(uuid, date);
    drop table ledger_locked_through;
  `);
}
