// Exchange rates: the ECB import, company overrides, the effective-rate list, and the one rate lookup the rest
// of the product converts currency with. Rates are units of the currency per 1 EUR.
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import type { ExchangeRateOverridesRow } from "../db/rows.js";
import { trimDecimal } from "../shared/decimal.js";
import { notFound, unprocessable } from "../shared/errors.js";
import { emitEventToSubscribedCompanies } from "../events/index.js";
import { runList, type ListRequest, type ListSpec } from "../shared/list-engine.js";
import { BASE_CURRENCY, isKnownCurrency } from "../shared/currencies.js";
import { fetchEcb, type EcbDay } from "./ecb.js";

type ExchangeRateRow = components["schemas"]["Reference.ExchangeRateRow"];
type Override = components["schemas"]["Reference.ExchangeRateOverride"];

// ----- ECB import --------------------------------------------------------------------------------------------

/** Writes the days' rates; returns how many rows were inserted or changed (unchanged rows are not rewritten). */
export async function importDays(trx: Db, days: EcbDay[]): Promise<number> {
  const currencies: string[] = [];
  const dates: string[] = [];
  const rates: string[] = [];
  for (const day of days) {
    for (const r of day.rates) {
      currencies.push(r.currency);
      dates.push(day.date);
      rates.push(r.rate);
    }
  }
  if (currencies.length === 0) return 0;
  const { rowCount } = await trx.raw(
    `insert into exchange_rates (currency_code, rate_date, rate)
     select * from unnest(?::text[], ?::date[], ?::numeric[])
     on conflict (currency_code, rate_date) do update set rate = excluded.rate, imported_at = now()
       where exchange_rates.rate is distinct from excluded.rate`,
    [currencies, dates, rates],
  );
  return rowCount ?? 0;
}

const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/**
 * Imports the rates of `requested` (default: the latest published day), or of the latest business day before it
 * when that day has none. Reads the daily file, and the 90-day or full history only for an older day.
 */
export async function syncExchangeRates(trx: Db, source: string, requested?: string): Promise<{ date: string; imported: number }> {
  const [latest] = await fetchEcb(source, "daily");
  let day = latest;
  if (requested && requested < latest.date) {
    const history = await fetchEcb(source, requested >= addDays(latest.date, -85) ? "hist-90d" : "hist");
    const found = history.find((d) => d.date <= requested);
    if (!found) {
      throw unprocessable(`The ECB published no rates on or before ${requested}.`, "exchange_rates.none_before", { date: requested });
    }
    day = found;
  }
  const imported = await importDays(trx, [day]);
  // The rates are shared by every company: each company subscribed to the event gets one, when something changed.
  if (imported > 0) await emitEventToSubscribedCompanies(trx, "exchange_rates.synced", { date: day.date, imported });
  return { date: day.date, imported };
}

/** Loads every published day in [from, to] from the full history (the backfill task). */
export async function backfillExchangeRates(trx: Db, source: string, from: string, to: string): Promise<{ days: number; imported: number }> {
  const history = await fetchEcb(source, "hist");
  const days = history.filter((d) => d.date >= from && d.date <= to);
  return { days: days.length, imported: await importDays(trx, days) };
}

// ----- Overrides ---------------------------------------------------------------------------------------------

function checkCurrency(currency: string): void {
  if (currency === BASE_CURRENCY) {
    throw unprocessable("EUR is the base of every rate; it cannot have a rate of its own.", "exchange_rate.base_currency", { currency });
  }
  if (!isKnownCurrency(currency)) throw unprocessable(`${currency} is not an ISO 4217 currency code.`, "currency.unknown", { currency });
}

export async function setOverride(
  trx: Db,
  companyId: string,
  keyId: string,
  input: { currency: string; date: string; rate: string },
): Promise<ExchangeRateRow> {
  checkCurrency(input.currency);
  if (/^[0.]+$/.test(input.rate)) throw unprocessable("A rate must be above 0.", "exchange_rate.not_positive", { rate: input.rate });
  const { rows } = await trx.raw<{ rows: { currency_code: string; rate_date: string; rate: string }[] }>(
    `insert into exchange_rate_overrides (company_id, currency_code, rate_date, rate, set_by_key_id)
     values (?, ?, ?, ?, ?)
     on conflict (company_id, currency_code, rate_date) do update set rate = excluded.rate, set_by_key_id = excluded.set_by_key_id, set_at = now()
     returning currency_code, rate_date, rate`,
    [companyId, input.currency, input.date, input.rate, keyId],
  );
  return { currencyCode: rows[0].currency_code, date: rows[0].rate_date, rate: trimDecimal(rows[0].rate) };
}

const overrideToApi = (row: ExchangeRateOverridesRow): Override => ({
  currencyCode: row.currency_code,
  date: row.rate_date,
  rate: trimDecimal(row.rate),
  setByKeyId: row.set_by_key_id,
  setAt: row.set_at.toISOString(),
});

export async function deleteOverride(trx: Db, companyId: string, input: { currency: string; date: string }): Promise<Override> {
  const [row] = await trx<ExchangeRateOverridesRow>("exchange_rate_overrides")
    .where({ company_id: companyId, currency_code: input.currency, rate_date: input.date })
    .delete()
    .returning("*");
  if (!row) throw notFound("The exchange rate override", "exchange_rate_override.not_found", { currency: input.currency, date: input.date });
  return overrideToApi(row);
}

const overrideListSpec: ListSpec = {
  fields: {
    currencyCode: { column: "currency_code", type: "string" },
    date: { column: "rate_date", type: "date" },
    rate: { column: "rate", type: "decimal", total: true },
    setAt: { column: "set_at", type: "timestamp" },
  },
  tieBreaker: ["currency_code", "rate_date"],
  defaultSort: [
    { field: "date", dir: "desc" },
    { field: "currencyCode", dir: "asc" },
  ],
};

export async function listOverrides(db: Db, companyId: string, request: ListRequest) {
  const result = await runList<ExchangeRateOverridesRow>(db, () => db("exchange_rate_overrides").where("company_id", companyId), overrideListSpec, request, [
    "*",
  ]);
  return { ...result, rows: result.rows.map(overrideToApi), totals: trimTotals(result.totals) };
}

// ----- Effective rates ---------------------------------------------------------------------------------------

const effectiveListSpec: ListSpec = {
  fields: {
    currencyCode: { column: "currency_code", type: "string" },
    date: { column: "rate_date", type: "date" },
    rate: { column: "rate", type: "decimal", total: true },
  },
  tieBreaker: ["currency_code", "rate_date"],
  defaultSort: [
    { field: "date", dir: "desc" },
    { field: "currencyCode", dir: "asc" },
  ],
};

/**
 * The company's effective rates as a relation: ECB rows without an override, plus the overrides. A UNION ALL
 * (not a full join) so that the list's filters are pushed into both branches and use their indexes.
 */
function effectiveRates(db: Db, companyId: string) {
  return db.from(
    db.raw(
      `(select e.currency_code, e.rate_date, e.rate from exchange_rates e
         where not exists (select 1 from exchange_rate_overrides o
                            where o.company_id = ? and o.currency_code = e.currency_code and o.rate_date = e.rate_date)
        union all
        select o.currency_code, o.rate_date, o.rate from exchange_rate_overrides o where o.company_id = ?) as r`,
      [companyId, companyId],
    ),
  );
}

function trimTotals(totals: Record<string, string> | undefined) {
  return totals && Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, trimDecimal(v)]));
}

export async function listEffectiveRates(db: Db, companyId: string, request: ListRequest) {
  const result = await runList<{ currency_code: string; rate_date: string; rate: string }>(
    db,
    () => effectiveRates(db, companyId),
    effectiveListSpec,
    request,
    ["currency_code", "rate_date", "rate"],
  );
  const rows: ExchangeRateRow[] = result.rows.map((r) => ({ currencyCode: r.currency_code, date: r.rate_date, rate: trimDecimal(r.rate) }));
  const response = { ...result, rows, totals: trimTotals(result.totals) };
  if (!response.totals) delete response.totals;
  return response;
}

// ----- Lookup ------------------------------------------------------------------------------------------------

export interface RateQuote {
  /** Units of the currency per 1 EUR, as a decimal string. */
  rate: string;
  source: "base" | "override" | "ecb";
  /** The day the rate was published or set for (may be before the asked date for an ECB rate). */
  date: string;
}

/** How far back an ECB rate is used for a day without one (weekends, holidays). */
export const ECB_FALLBACK_DAYS = 7;

/**
 * The rate the product converts with, for (company, currency, date): the company's override on that date, else
 * the ECB rate on that date, else the latest ECB rate within the 7 days before it; EUR is 1. Otherwise 422
 * `fx.rate_missing`. Every document that converts stores the quote (rate, source, date).
 */
export async function lookupRate(db: Db, companyId: string, currency: string, date: string): Promise<RateQuote> {
  if (currency === BASE_CURRENCY) return { rate: "1", source: "base", date };
  const { rows } = await db.raw<{ rows: { rate: string; rate_date: string; source: "override" | "ecb" }[] }>(
    `(select rate, rate_date, 'override' as source, 0 as preference from exchange_rate_overrides
       where company_id = ? and currency_code = ? and rate_date = ?)
     union all
     (select rate, rate_date, 'ecb', 1 from exchange_rates
       where currency_code = ? and rate_date <= ? and rate_date >= ?::date - ?::int order by rate_date desc limit 1)
     order by preference limit 1`,
    [companyId, currency, date, currency, date, date, ECB_FALLBACK_DAYS],
  );
  const found = rows[0];
  if (!found) {
    throw unprocessable(`There is no exchange rate for ${currency} on ${date} (nor an ECB rate in the ${ECB_FALLBACK_DAYS} days before).`, "fx.rate_missing", {
      currency,
      date,
    });
  }
  return { rate: trimDecimal(found.rate), source: found.source, date: found.rate_date };
}
