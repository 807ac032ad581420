// Accounting periods: calendar months, open unless locked. Locking and unlocking take the company's period lock
// exclusively (postings hold it shared, see the ledger migration), so a lock never races a posting.
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import type { LedgerPeriodLocksRow } from "../db/rows.js";
import { conflict, validationError } from "../shared/errors.js";
import { emitEvent } from "../events/index.js";
import { runList, type ListRequest, type ListSpec } from "../shared/list-engine.js";

type Period = components["schemas"]["Ledger.Period"];

const periodLock = (trx: Db, companyId: string) => trx.raw("select pg_advisory_xact_lock(7301, hashtext(?::text))", [companyId]);

/** A month of the periods relation (`month_text`, YYYY-MM; open when `locked_at` is null). */
type ListedPeriod = { month_text: string; locked_at: Date | null; locked_by_key_id: string | null };
/** A lock just written (`month`, YYYY-MM-DD). */
type NewLock = Pick<LedgerPeriodLocksRow, "month" | "locked_at" | "locked_by_key_id">;

function periodToApi(row: ListedPeriod | NewLock): Period {
  return {
    month: "month_text" in row ? row.month_text : row.month.slice(0, 7),
    state: row.locked_at ? "locked" : "open",
    lockedAt: row.locked_at ? row.locked_at.toISOString() : null,
    lockedByKeyId: row.locked_by_key_id ?? null,
  };
}

const listSpec: ListSpec = {
  fields: {
    month: { column: "month_text", type: "string" },
    state: { column: "state", type: "string" },
  },
  tieBreaker: "month_text",
  defaultSort: [{ field: "month", dir: "asc" }],
};

/**
 * Months from the earliest of (first posting, first lock, January this year) to the latest of (December this year, last
 * posting). A month is locked when a lock names it or when it is on or before the company's locked-through month
 * (ledger_month_locked); such a month shows the lock through a date that covers it.
 */
function periods(db: Db, companyId: string) {
  return db.from(
    db.raw(
      `(select to_char(m, 'YYYY-MM') as month_text, m::date as month,
               case when l.month is null and t.month is null then 'open' else 'locked' end as state,
               case when l.month is null then t.locked_at else l.locked_at end as locked_at,
               case when l.month is null then t.locked_by_key_id else l.locked_by_key_id end as locked_by_key_id
          from generate_series(
                 least((select date_trunc('month', min(date)) from journal_transactions where company_id = ?),
                       (select min(month) from ledger_period_locks where company_id = ?),
                       date_trunc('year', current_date)),
                 greatest((select date_trunc('month', max(date)) from journal_transactions where company_id = ?),
                          (select max(month) from ledger_period_locks where company_id = ?),
                          date_trunc('year', current_date) + interval '11 months'),
                 interval '1 month') m
          left join ledger_period_locks l on l.company_id = ? and l.month = m::date
          left join ledger_locked_through t on t.company_id = ? and t.month >= m::date) as p`,
      [companyId, companyId, companyId, companyId, companyId, companyId],
    ),
  );
}

export async function listPeriods(db: Db, companyId: string, request: ListRequest) {
  const result = await runList<ListedPeriod>(db, () => periods(db, companyId), listSpec, request, ["month_text", "locked_at", "locked_by_key_id"]);
  return { ...result, rows: result.rows.map(periodToApi) };
}

/**
 * Locks one month, or every month through a date's month: those from the company's first posting or lock get a row
 * each (what the list and the `period.locked` events show), and the company's locked-through month moves up to the
 * date's month, which locks every month before it too, posted in or not (ledger_locked_through, migration
 * 20261127000400). A month locked already is neither written again nor reported.
 */
export async function lockPeriods(trx: Db, companyId: string, keyId: string, input: { month?: string; through?: string }) {
  if ((input.month === undefined) === (input.through === undefined)) {
    throw validationError(
      { month: ["send exactly one of month and through"], through: ["send exactly one of month and through"] },
      "Name one month, or a date to lock through.",
    );
  }
  await periodLock(trx, companyId);
  const last = input.month ? `${input.month}-01` : input.through!;
  const { rows } = await trx.raw<{ rows: NewLock[] }>(
    `insert into ledger_period_locks (company_id, month, locked_by_key_id)
     select ?, m::date, ? from generate_series(
       ${
         input.month
           ? "?::date"
           : `least(date_trunc('month', ?::date),
              (select date_trunc('month', min(date)) from journal_transactions where company_id = ?),
              (select min(month) from ledger_period_locks where company_id = ?))`
       },
       date_trunc('month', ?::date), interval '1 month') m
     where not ledger_month_locked(?, m::date)
     on conflict do nothing
     returning month, locked_at, locked_by_key_id`,
    input.month ? [companyId, keyId, last, last, companyId] : [companyId, keyId, last, companyId, companyId, last, companyId],
  );
  if (input.through) {
    await trx.raw(
      `insert into ledger_locked_through as t (company_id, month, locked_by_key_id) values (?, date_trunc('month', ?::date), ?)
       on conflict (company_id) do update set month = excluded.month, locked_at = excluded.locked_at, locked_by_key_id = excluded.locked_by_key_id
        where t.month < excluded.month`,
      [companyId, input.through, keyId],
    );
  }
  rows.sort((a, b) => (a.month < b.month ? -1 : 1));
  const locked = rows.map(periodToApi);
  for (const period of locked) await emitEvent(trx, companyId, "period.locked", period);
  return { locked };
}

/**
 * Unlocks the latest locked month: the latest month a lock names, or the locked-through month when that is later.
 * Unlocking the locked-through month moves it back one month (the months before it stay locked).
 */
export async function unlockPeriod(trx: Db, companyId: string, input: { month: string }): Promise<Period> {
  await periodLock(trx, companyId);
  const month = `${input.month}-01`;
  const { rows } = await trx.raw<{ rows: { latest: string | null; this_one: boolean }[] }>(
    `select to_char(greatest((select max(month) from ledger_period_locks where company_id = ?),
                             (select month from ledger_locked_through where company_id = ?)), 'YYYY-MM') as latest,
            ledger_month_locked(?, ?::date) as this_one`,
    [companyId, companyId, companyId, month],
  );
  const { latest, this_one } = rows[0];
  if (!this_one) throw conflict(`The period ${input.month} is not locked.`, "period.not_locked", { month: input.month });
  if (latest !== input.month) {
    throw conflict(`Only the latest locked period (${latest}) can be unlocked.`, "period.not_latest_locked", { month: input.month, latestLocked: latest });
  }
  await trx("ledger_period_locks").where({ company_id: companyId, month }).delete();
  await trx("ledger_locked_through")
    .where({ company_id: companyId, month })
    .update({ month: trx.raw("(?::date - interval '1 month')::date", [month]) });
  const period: Period = { month: input.month, state: "open", lockedAt: null, lockedByKeyId: null };
  await emitEvent(trx, companyId, "period.unlocked", period);
  return period;
}
