// reference/exchange-rates/{sync,list,set} and overrides/{list,delete} (spec: "Exchange rate row", "Reference:
// exchange rates"), the rate lookup the product converts with, the sync/backfill jobs and the operator CLI. The
// ECB feed is a local server (test/support/ecb-server.ts) serving files written here; nothing reaches the internet.
// Every call goes through the SDK; only a sync with no body or a JSON null body is sent raw (no SDK call sends one).
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { Decimal } from "decimal.js";
import { lookupRate } from "../../src/reference/exchange-rates.js";
import { ApiError } from "../../src/shared/errors.js";
import { ecbFileUrl } from "../../src/reference/ecb.js";
import { backfillExchangeRatesTask } from "../../src/jobs/backfill-exchange-rates.js";
import { syncExchangeRatesTask } from "../../src/jobs/sync-exchange-rates.js";
import { ecbXml, startEcbServer, type EcbRateDay, type EcbServer } from "../support/ecb-server.js";
import { startHarness, type Harness } from "../support/harness.js";
import { expectApiError, expectError, invalid } from "../support/expect.js";
import { keyWith, type Scope } from "../support/keys.js";
import type { RequestBody } from "../../sdk/typescript/src/index.js";
import { runCli } from "../support/processes.js";
import { ISO_INSTANT as ISO } from "../support/patterns.js";
import { sleep } from "../support/timing.js";

const SYNC = "/v1/reference/exchange-rates/sync";

// ----- The feed ------------------------------------------------------------------------------------------------
// The latest published day is Friday 2026-05-08. The full history starts on Monday 2025-12-01; the 90-day file
// covers 2026-02-08..2026-05-08. TARGET holidays inside: 25/26 Dec, 1 Jan, Good Friday 3 Apr, Easter Monday 6 Apr,
// 1 May; no rates on Saturdays and Sundays.

const DAILY_DATE = "2026-05-08";
const HIST_FROM = "2025-12-01";
const HIST90_FROM = "2026-02-08";
const HOLIDAYS = new Set(["2025-12-25", "2025-12-26", "2026-01-01", "2026-04-03", "2026-04-06", "2026-05-01"]);
const DAILY_RATES = { USD: "1.0523", JPY: "162.41", GBP: "0.85105", CZK: "24.930" };
const _CURRENCIES = Object.keys(DAILY_RATES).sort();

const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

function businessDays(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) {
    const weekday = new Date(`${d}T00:00:00Z`).getUTCDay();
    if (weekday !== 0 && weekday !== 6 && !HOLIDAYS.has(d)) days.push(d);
  }
  return days;
}

const HISTORY: EcbRateDay[] = businessDays(HIST_FROM, DAILY_DATE).map((date, i) => ({
  date,
  rates:
    date === DAILY_DATE
      ? DAILY_RATES
      : {
          USD: new Decimal("1.0400").plus(new Decimal("0.0011").times(i % 20)).toFixed(4),
          JPY: new Decimal("158").plus(new Decimal("0.07").times(i)).toFixed(2),
          GBP: new Decimal("0.84").plus(new Decimal("0.00013").times(i)).toFixed(5),
          CZK: new Decimal("24.5").plus(new Decimal("0.01").times(i)).toFixed(3),
        },
}));
const dayOf = (date: string) => {
  const day = HISTORY.find((d) => d.date === date);
  if (!day) throw new Error(`no ECB day ${date} in the test data`);
  return day;
};
const DAILY = dayOf(DAILY_DATE);
const HISTORY_90D = HISTORY.filter((d) => d.date >= HIST90_FROM);

/** A rate as Postgres' numeric(18, 8) prints it, and as the API prints it (no trailing zeros). */
const dbRate = (rate: string) => new Decimal(rate).toFixed(8);
const apiRate = (rate: string) => new Decimal(rate).toFixed();

const MALFORMED = {
  notxml: "The service is temporarily unavailable. Please try again later.",
  noenvelope: `<?xml version="1.0" encoding="UTF-8"?>\n<Cube>\n\t<Cube time='2026-05-08'>\n\t\t<Cube currency='USD' rate='1.0523'/>\n\t</Cube>\n</Cube>\n`,
  badrate: ecbXml([{ date: DAILY_DATE, rates: { USD: "1.0523", JPY: "abc", GBP: "0.85105" } }]),
  nodays: ecbXml([]),
  baddate: ecbXml([{ date: "2026-02-30", rates: { USD: "1.0523" } }]),
};

// ----- The world -----------------------------------------------------------------------------------------------

let h: Harness;
let ecb: EcbServer;
let dead: EcbServer;
let deadFolder: string;
let good: string;
let a: { apiKey: string; keyId: string; companyId: string; accountId: string };
let b: { apiKey: string; keyId: string; companyId: string; accountId: string };

beforeAll(async () => {
  ecb = await startEcbServer();
  good = ecb.serve("good", { daily: ecbXml([DAILY]), "hist-90d": ecbXml(HISTORY_90D), hist: ecbXml(HISTORY) });
  ecb.serve("changed", { daily: ecbXml([{ date: DAILY_DATE, rates: { ...DAILY_RATES, USD: "1.0531" } }]) });
  ecb.serve("notxml", { daily: { body: MALFORMED.notxml, contentType: "text/plain" } });
  ecb.serve("noenvelope", { daily: MALFORMED.noenvelope });
  ecb.serve("badrate", { daily: MALFORMED.badrate });
  ecb.serve("nodays", { daily: MALFORMED.nodays });
  ecb.serve("baddate", { daily: MALFORMED.baddate });
  ecb.serve("badhist", { daily: ecbXml([DAILY]), "hist-90d": MALFORMED.badrate, hist: MALFORMED.noenvelope });
  ecb.serve("http500", { daily: { status: 500 }, "hist-90d": { status: 500 }, hist: { status: 500 } });
  ecb.serve("hist500", { daily: ecbXml([DAILY]), "hist-90d": { status: 500 }, hist: { status: 500 } });
  dead = await startEcbServer();
  deadFolder = dead.serve("good", { daily: ecbXml([DAILY]) });
  await dead.close();

  h = await startHarness({ config: { exchangeRatesUrl: good } });
  a = await h.tenant();
  b = await h.tenant();
});
afterAll(async () => {
  await h?.close();
  await ecb?.close();
});

/** Points the running API server at another feed folder (the harness' config object is the server's). */
function useSource(url: string) {
  h.config.exchangeRatesUrl = url;
}

async function resetRates() {
  await h.db("exchange_rate_overrides").delete();
  await h.db("exchange_rates").delete();
  useSource(good);
  ecb.clearRequests();
}

/** The global ECB table as [currency, date, rate] rows, newest first. */
async function ecbRows(): Promise<[string, string, string][]> {
  const rows = await h
    .db("exchange_rates")
    .select("currency_code", "rate_date", "rate")
    .orderBy([{ column: "rate_date", order: "desc" }, "currency_code"]);
  return rows.map((r) => [r.currency_code, r.rate_date, r.rate]);
}

/** What ecbRows() must be after these days were imported. */
function expectedRows(...days: EcbRateDay[]): [string, string, string][] {
  return [...days]
    .sort((x, y) => (x.date < y.date ? 1 : -1))
    .flatMap((d) =>
      Object.keys(d.rates)
        .sort()
        .map((c): [string, string, string] => [c, d.date, dbRate(d.rates[c as keyof typeof d.rates])]),
    );
}

async function overrideRows() {
  const rows = await h
    .db("exchange_rate_overrides")
    .select("*")
    .orderBy(["company_id", { column: "rate_date", order: "desc" }, "currency_code"]);
  return rows.map((r) => ({ companyId: r.company_id, currency: r.currency_code, date: r.rate_date, rate: r.rate, setBy: r.set_by_key_id, setAt: r.set_at }));
}

type SetBody = RequestBody<"reference_exchange_rates_set">;
type ListBody = RequestBody<"reference_exchange_rates_list">;

/** reference/exchange-rates/sync (account-level) with `key`. */
const sync = (body: RequestBody<"reference_exchange_rates_sync"> = {}, key = a.apiKey) => h.sdk(key).reference.exchangeRates.sync(body);
/** reference/exchange-rates/set on `t`'s company with `key`. */
const setRate = (body: SetBody, t = a, key = t.apiKey) => h.sdk(key, t.companyId).reference.exchangeRates.set(body);
/** The SDK client of `t`'s company. */
const rates = (t = a) => h.sdk(t.apiKey, t.companyId).reference.exchangeRates;

const createKey = (scopes: Scope[]) => keyWith(h, a.apiKey, scopes, { name: `Rates ${scopes.join(" ")}` });

// ----- sync ----------------------------------------------------------------------------------------------------

describe("sync", () => {
  test("{} imports the daily file's day: {date, imported} with one row per currency, exact rates", async () => {
    await resetRates();
    expect(await sync({})).toEqual({ date: DAILY_DATE, imported: 4 });
    expect(await ecbRows()).toEqual([
      ["CZK", DAILY_DATE, "24.93000000"],
      ["GBP", DAILY_DATE, "0.85105000"],
      ["JPY", DAILY_DATE, "162.41000000"],
      ["USD", DAILY_DATE, "1.05230000"],
    ]);
    expect(ecb.requests).toEqual(["/good/eurofxref-daily.xml"]);
  });

  test("re-running imports 0 and rewrites nothing", async () => {
    await resetRates();
    expect(await sync({})).toEqual({ date: DAILY_DATE, imported: 4 });
    const before = await h.db("exchange_rates").select("*").orderBy("currency_code");
    expect(await sync({})).toEqual({ date: DAILY_DATE, imported: 0 });
    expect(await h.db("exchange_rates").select("*").orderBy("currency_code")).toEqual(before);
  });

  test("a changed rate in the file re-imports only that row", async () => {
    await resetRates();
    expect(await sync({})).toEqual({ date: DAILY_DATE, imported: 4 });
    const before = await h.db("exchange_rates").select("*").orderBy("currency_code");
    useSource(ecb.folder("changed"));
    expect(await sync({})).toEqual({ date: DAILY_DATE, imported: 1 });
    const after = await h.db("exchange_rates").select("*").orderBy("currency_code");
    expect(after.map((r) => [r.currency_code, r.rate])).toEqual([
      ["CZK", "24.93000000"],
      ["GBP", "0.85105000"],
      ["JPY", "162.41000000"],
      ["USD", "1.05310000"],
    ]);
    // The unchanged rows were not touched.
    expect(after.filter((r) => r.currency_code !== "USD")).toEqual(before.filter((r) => r.currency_code !== "USD"));
  });

  test("EXCHANGE_RATES_URL may name any file of the folder: the daily file is still the one read", async () => {
    await resetRates();
    useSource(ecb.file("good", "hist"));
    expect(await sync({})).toEqual({ date: DAILY_DATE, imported: 4 });
    expect(await ecbRows()).toEqual(expectedRows(DAILY));
    expect(ecb.requests).toEqual(["/good/eurofxref-daily.xml"]);
  });

  const daily = ["/good/eurofxref-daily.xml"];
  const hist90 = [...daily, "/good/eurofxref-hist-90d.xml"];
  const hist = [...daily, "/good/eurofxref-hist.xml"];
  test.each([
    ["the daily file's day", DAILY_DATE, DAILY_DATE, daily],
    ["a day after the daily day (not yet published)", "2026-05-11", DAILY_DATE, daily],
    ["a business day inside the 90 days", "2026-05-07", "2026-05-07", hist90],
    ["a Saturday", "2026-04-25", "2026-04-24", hist90],
    ["a Sunday", "2026-04-26", "2026-04-24", hist90],
    ["Good Friday (TARGET holiday)", "2026-04-03", "2026-04-02", hist90],
    ["Easter Monday (holiday after a weekend and a holiday)", "2026-04-06", "2026-04-02", hist90],
    ["Labour Day", "2026-05-01", "2026-04-30", hist90],
    ["New Year's Day, older than the 90 days", "2026-01-01", "2025-12-31", hist],
    ["the Sunday after Christmas, older than the 90 days", "2025-12-28", "2025-12-24", hist],
    ["the first day of the history", HIST_FROM, HIST_FROM, hist],
  ])("%s (%s) imports %s", async (_name, requested, imported, paths) => {
    await resetRates();
    expect(await sync({ date: requested })).toEqual({ date: imported, imported: 4 });
    expect(await ecbRows()).toEqual(expectedRows(dayOf(imported)));
    expect(ecb.requests).toEqual(paths);
  });

  test("a day before the first day in the history is 422 exchange_rates.none_before; nothing is written", async () => {
    await resetRates();
    const error = await expectApiError(sync({ date: "2025-11-30" }), 422, "unprocessable", "exchange_rates.none_before");
    expect(error.params).toEqual({ date: "2025-11-30" });
    expect(await ecbRows()).toEqual([]);
    expect(ecb.requests).toEqual(hist);
  });

  test.each([
    ["no body", { rawBody: "" }],
    ["a JSON null body", { rawBody: "null" }],
    ["a date that does not exist", { body: { date: "2026-02-30" } }],
    ["a date in another format", { body: { date: "08.05.2026" } }],
    ["an unknown property", { body: { day: "2026-05-08" } }],
  ])("%s is 400 and writes nothing", async (_name, request) => {
    await resetRates();
    if ("rawBody" in request) expectError(await h.post(SYNC, undefined, { key: a.apiKey, rawBody: request.rawBody }), 400, "validation");
    else await expectApiError(sync(invalid(request.body)), 400, "validation");
    expect(await ecbRows()).toEqual([]);
    expect(ecb.requests).toEqual([]);
  });

  test("needs reference:write: a reference:read key gets 403", async () => {
    await resetRates();
    const reader = await createKey(["reference:read"]);
    await expectApiError(sync({}, reader.key), 403, "forbidden");
    expect(await ecbRows()).toEqual([]);
    expect(ecb.requests).toEqual([]);
    // The read key is otherwise valid, and a reference:write key may sync.
    expect((await reader.api.reference.exchangeRates.list({}, { companyId: a.companyId })).rows).toEqual([]);
    const writer = await createKey(["reference:write"]);
    expect(await sync({}, writer.key)).toEqual({ date: DAILY_DATE, imported: 4 });
    expect(await ecbRows()).toEqual(expectedRows(DAILY));
  });
});

describe("sync from a bad source: 422 with a stable key, nothing written", () => {
  test.each([
    ["a daily file that is not XML", "notxml", {}, "exchange_rates.source_malformed"],
    ["a daily file without gesmes:Envelope", "noenvelope", {}, "exchange_rates.source_malformed"],
    ['a daily file with rate "abc"', "badrate", {}, "exchange_rates.source_malformed"],
    ["a daily file with an envelope but no days", "nodays", {}, "exchange_rates.source_malformed"],
    ["a daily file with a day that does not exist", "baddate", {}, "exchange_rates.source_malformed"],
    ["a malformed 90-day history after a good daily file", "badhist", { date: "2026-04-24" }, "exchange_rates.source_malformed"],
    ["a malformed full history after a good daily file", "badhist", { date: "2026-01-02" }, "exchange_rates.source_malformed"],
    ["HTTP 500 on the daily file", "http500", {}, "exchange_rates.source_unreachable"],
    ["HTTP 500 on the history after a good daily file", "hist500", { date: "2026-04-24" }, "exchange_rates.source_unreachable"],
  ])("%s", async (_name, prefix, body, key) => {
    await resetRates();
    expect(await sync({ date: "2026-04-02" })).toEqual({ date: "2026-04-02", imported: 4 });
    const before = await h.db("exchange_rates").select("*").orderBy("currency_code");
    useSource(ecb.folder(prefix));
    ecb.clearRequests();
    await expectApiError(sync(body), 422, "unprocessable", key);
    expect(await h.db("exchange_rates").select("*").orderBy("currency_code")).toEqual(before);
    expect(ecb.requests[0]).toBe(`/${prefix}/eurofxref-daily.xml`);
  });

  test("an unreachable source (the server is closed) is 422 exchange_rates.source_unreachable", async () => {
    await resetRates();
    expect(await sync({})).toEqual({ date: DAILY_DATE, imported: 4 });
    const before = await h.db("exchange_rates").select("*").orderBy("currency_code");
    useSource(deadFolder);
    for (const body of [{}, { date: "2026-04-24" }]) {
      await expectApiError(sync(body), 422, "unprocessable", "exchange_rates.source_unreachable");
    }
    expect(await h.db("exchange_rates").select("*").orderBy("currency_code")).toEqual(before);
    expect(dead.requests).toEqual([]);
  });
});

// ----- set -----------------------------------------------------------------------------------------------------

describe("set", () => {
  test("returns the exchange rate row; the override is stored for the company with the key that set it", async () => {
    await resetRates();
    expect(await setRate({ currency: "USD", date: DAILY_DATE, rate: "1.10" })).toEqual({ currencyCode: "USD", date: DAILY_DATE, rate: "1.1" });
    expect(await overrideRows()).toEqual([
      { companyId: a.companyId, currency: "USD", date: DAILY_DATE, rate: "1.10000000", setBy: a.keyId, setAt: expect.any(Date) },
    ]);
    expect(await ecbRows()).toEqual([]);
  });

  test("a second set for the same currency and day replaces it: one row, the new rate and key", async () => {
    await resetRates();
    await setRate({ currency: "USD", date: DAILY_DATE, rate: "1.1" });
    const [first] = await overrideRows();
    const writer = await createKey(["reference:write"]);
    await sleep(20); // so that the new setAt is strictly later
    expect(await setRate({ currency: "USD", date: DAILY_DATE, rate: "1.12500" }, a, writer.key)).toEqual({
      currencyCode: "USD",
      date: DAILY_DATE,
      rate: "1.125",
    });
    const rows = await overrideRows();
    expect(rows).toEqual([{ companyId: a.companyId, currency: "USD", date: DAILY_DATE, rate: "1.12500000", setBy: writer.id, setAt: expect.any(Date) }]);
    expect(rows[0].setAt.getTime()).toBeGreaterThan(first.setAt.getTime());
  });

  test.each([
    ["10 integer digits and 8 decimals", "9999999999.99999999", "9999999999.99999999"],
    ["a plain integer", "25", "25"],
    ["trailing zeros", "162.41000000", "162.41"],
    ["the smallest step", "0.00000001", "0.00000001"],
  ])("a rate with %s is accepted (%s)", async (_name, rate, printed) => {
    await resetRates();
    expect(await setRate({ currency: "JPY", date: "2026-05-09", rate })).toEqual({ currencyCode: "JPY", date: "2026-05-09", rate: printed });
    expect((await overrideRows()).map((r) => r.rate)).toEqual([dbRate(rate)]);
  });

  test("historical ECB codes such as LTL are accepted", async () => {
    await resetRates();
    expect(await setRate({ currency: "LTL", date: "2014-12-31", rate: "3.4528" })).toEqual({ currencyCode: "LTL", date: "2014-12-31", rate: "3.4528" });
    expect((await overrideRows()).map((r) => [r.currency, r.date, r.rate])).toEqual([["LTL", "2014-12-31", "3.45280000"]]);
  });

  test.each([
    ["EUR, the base currency", { currency: "EUR", date: DAILY_DATE, rate: "1" }, "exchange_rate.base_currency"],
    ["an unknown code", { currency: "XYZ", date: DAILY_DATE, rate: "1.5" }, "currency.unknown"],
    ['a rate of "0"', { currency: "USD", date: DAILY_DATE, rate: "0" }, "exchange_rate.not_positive"],
    ['a rate of "0.00"', { currency: "USD", date: DAILY_DATE, rate: "0.00" }, "exchange_rate.not_positive"],
  ])("%s is 422 with its key and writes nothing", async (_name, body, key) => {
    await resetRates();
    await expectApiError(setRate(body), 422, "unprocessable", key);
    expect(await overrideRows()).toEqual([]);
  });

  test.each([
    ["a lowercase code", { currency: "usd", date: DAILY_DATE, rate: "1.1" }],
    ["a 2-letter code", { currency: "US", date: DAILY_DATE, rate: "1.1" }],
    ["a 4-letter code", { currency: "USDX", date: DAILY_DATE, rate: "1.1" }],
    ["11 integer digits", { currency: "USD", date: DAILY_DATE, rate: "12345678901" }],
    ["9 decimals", { currency: "USD", date: DAILY_DATE, rate: "1.123456789" }],
    ["a negative rate", { currency: "USD", date: DAILY_DATE, rate: "-1.1" }],
    ["an exponent", { currency: "USD", date: DAILY_DATE, rate: "1e3" }],
    ["a JSON number", { currency: "USD", date: DAILY_DATE, rate: 1.1 }],
    ["an empty rate", { currency: "USD", date: DAILY_DATE, rate: "" }],
    ["a date that does not exist", { currency: "USD", date: "2026-02-30", rate: "1.1" }],
    ["no rate", { currency: "USD", date: DAILY_DATE }],
    ["no date", { currency: "USD", rate: "1.1" }],
    ["no currency", { date: DAILY_DATE, rate: "1.1" }],
    ["an unknown property", { currency: "USD", date: DAILY_DATE, rate: "1.1", source: "manual" }],
  ])("%s is 400 and writes nothing", async (_name, body) => {
    await resetRates();
    await expectApiError(setRate(invalid(body)), 400, "validation");
    expect(await overrideRows()).toEqual([]);
  });
});

// ----- list, overrides list, overrides delete --------------------------------------------------------------------

type Row = { currencyCode: string; date: string; rate: string };
const byDefault = (x: Row, y: Row) =>
  x.date !== y.date ? (x.date < y.date ? 1 : -1) : x.currencyCode < y.currencyCode ? -1 : x.currencyCode > y.currencyCode ? 1 : 0;

describe("effective rates and overrides", () => {
  const OVERRIDES_A: Row[] = [
    { currencyCode: "USD", date: DAILY_DATE, rate: "1.1" }, // replaces the ECB rate of that day
    { currencyCode: "SEK", date: DAILY_DATE, rate: "11.2345" }, // a currency the ECB file does not carry
    { currencyCode: "USD", date: "2026-05-09", rate: "1.05" }, // a Saturday: no ECB rate
    { currencyCode: "KRW", date: "2026-05-09", rate: "9999999999.99999999" },
  ];
  const OVERRIDES_B: Row[] = [
    { currencyCode: "JPY", date: DAILY_DATE, rate: "999.5" },
    { currencyCode: "GBP", date: "2026-05-06", rate: "0.9" },
    { currencyCode: "CHF", date: DAILY_DATE, rate: "0.95" },
  ];
  let expectedA: Row[];

  beforeAll(async () => {
    await resetRates();
    expect(await sync({})).toEqual({ date: DAILY_DATE, imported: 4 });
    expect(await sync({ date: "2026-05-07" })).toEqual({ date: "2026-05-07", imported: 4 });
    for (const o of OVERRIDES_A) await setRate({ currency: o.currencyCode, date: o.date, rate: o.rate }, a);
    for (const o of OVERRIDES_B) await setRate({ currency: o.currencyCode, date: o.date, rate: o.rate }, b);
    const ecbRowsApi: Row[] = [DAILY, dayOf("2026-05-07")].flatMap((d) =>
      Object.entries(d.rates).map(([currencyCode, rate]) => ({ currencyCode, date: d.date, rate: apiRate(rate) })),
    );
    const overridden = new Set(OVERRIDES_A.map((o) => `${o.currencyCode}|${o.date}`));
    expectedA = [...ecbRowsApi.filter((r) => !overridden.has(`${r.currencyCode}|${r.date}`)), ...OVERRIDES_A].sort(byDefault);
  });

  const list = (body: ListBody, t = a) => rates(t).list(body);

  test("ECB rates with the company's overrides in place, overrides of days without ECB rates, default order date desc then currencyCode", async () => {
    const res = await list({});
    expect(res).toEqual({ rows: expectedA, page: 1, pageSize: 50, total: 11 });
    expect(expectedA).toHaveLength(11); // 8 ECB rows - 1 overridden + 4 overrides
    expect(res.rows.slice(0, 6)).toEqual([
      { currencyCode: "KRW", date: "2026-05-09", rate: "9999999999.99999999" },
      { currencyCode: "USD", date: "2026-05-09", rate: "1.05" },
      { currencyCode: "CZK", date: DAILY_DATE, rate: "24.93" },
      { currencyCode: "GBP", date: DAILY_DATE, rate: "0.85105" },
      { currencyCode: "JPY", date: DAILY_DATE, rate: "162.41" },
      { currencyCode: "SEK", date: DAILY_DATE, rate: "11.2345" },
    ]);
    // Exactly one USD row on the overridden day, with the override's rate, though the ECB row is still stored.
    expect(res.rows.filter((r: Row) => r.currencyCode === "USD" && r.date === DAILY_DATE)).toEqual([{ currencyCode: "USD", date: DAILY_DATE, rate: "1.1" }]);
    expect(await h.db("exchange_rates").where({ currency_code: "USD", rate_date: DAILY_DATE }).pluck("rate")).toEqual(["1.05230000"]);
    // Another company's overrides never appear.
    expect(res.rows.some((r: Row) => r.currencyCode === "CHF" || r.rate === "999.5" || r.rate === "0.9")).toBe(false);
  });

  test("another company sees the ECB rates with its own overrides only", async () => {
    const res = await list({}, b);
    const overridden = new Set(OVERRIDES_B.map((o) => `${o.currencyCode}|${o.date}`));
    const ecbB = [DAILY, dayOf("2026-05-07")].flatMap((d) =>
      Object.entries(d.rates).map(([currencyCode, rate]) => ({ currencyCode, date: d.date, rate: apiRate(rate) })),
    );
    const expected = [...ecbB.filter((r) => !overridden.has(`${r.currencyCode}|${r.date}`)), ...OVERRIDES_B].sort(byDefault);
    expect(res).toEqual({ rows: expected, page: 1, pageSize: 50, total: 10 });
    expect(res.rows.filter((r: Row) => r.currencyCode === "USD" && r.date === DAILY_DATE)).toEqual([{ currencyCode: "USD", date: DAILY_DATE, rate: "1.0523" }]);
  });

  test("pages follow the default order", async () => {
    const res = await list({ page: 2, pageSize: 4 });
    expect(res).toEqual({ rows: expectedA.slice(4, 8), page: 2, pageSize: 4, total: 11 });
  });

  const cmpRate = (x: Row, y: Row) => new Decimal(x.rate).comparedTo(y.rate);
  const cmpText = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  test.each<[string, ListBody, (r: Row) => boolean, (x: Row, y: Row) => number]>([
    ["currencyCode eq USD", { filter: [{ field: "currencyCode", op: "eq", value: "USD" }] }, (r: Row) => r.currencyCode === "USD", byDefault],
    [
      "currencyCode in [JPY, SEK]",
      { filter: [{ field: "currencyCode", op: "in", value: ["JPY", "SEK"] }] },
      (r: Row) => ["JPY", "SEK"].includes(r.currencyCode),
      byDefault,
    ],
    ["currencyCode ne USD", { filter: [{ field: "currencyCode", op: "ne", value: "USD" }] }, (r: Row) => r.currencyCode !== "USD", byDefault],
    ["date eq the overridden day", { filter: [{ field: "date", op: "eq", value: DAILY_DATE }] }, (r: Row) => r.date === DAILY_DATE, byDefault],
    ["date gte 2026-05-08", { filter: [{ field: "date", op: "gte", value: DAILY_DATE }] }, (r: Row) => r.date >= DAILY_DATE, byDefault],
    ["currencyCode contains S", { filter: [{ field: "currencyCode", op: "contains", value: "S" }] }, (r: Row) => r.currencyCode.includes("S"), byDefault],
    [
      "date in [2026-05-07, 2026-05-09]",
      { filter: [{ field: "date", op: "in", value: ["2026-05-07", "2026-05-09"] }] },
      (r: Row) => ["2026-05-07", "2026-05-09"].includes(r.date),
      byDefault,
    ],
    ["date lte 2026-05-07", { filter: [{ field: "date", op: "lte", value: "2026-05-07" }] }, (r: Row) => r.date <= "2026-05-07", byDefault],
    ["rate gte 100 (numeric, not text)", { filter: [{ field: "rate", op: "gte", value: "100" }] }, (r: Row) => new Decimal(r.rate).gte(100), byDefault],
    ["rate lte 1.1", { filter: [{ field: "rate", op: "lte", value: "1.1" }] }, (r: Row) => new Decimal(r.rate).lte("1.1"), byDefault],
    ["rate eq 1.1 (the override)", { filter: [{ field: "rate", op: "eq", value: "1.10" }] }, (r: Row) => new Decimal(r.rate).eq("1.1"), byDefault],
    ["sort rate asc", { sort: [{ field: "rate", dir: "asc" }] }, () => true, cmpRate],
    ["sort rate desc", { sort: [{ field: "rate", dir: "desc" }] }, () => true, (x: Row, y: Row) => -cmpRate(x, y)],
    [
      "sort currencyCode asc, date asc",
      { sort: [{ field: "currencyCode" }, { field: "date", dir: "asc" }] },
      () => true,
      (x: Row, y: Row) => cmpText(x.currencyCode, y.currencyCode) || cmpText(x.date, y.date),
    ],
    [
      "date eq 2026-05-08 sorted by rate desc",
      { filter: [{ field: "date", op: "eq", value: DAILY_DATE }], sort: [{ field: "rate", dir: "desc" }] },
      (r: Row) => r.date === DAILY_DATE,
      (x: Row, y: Row) => -cmpRate(x, y),
    ],
  ])("%s", async (_name, body, keep, order) => {
    const res = await list(body);
    const expected = expectedA.filter(keep).sort(order);
    expect(expected.length).toBeGreaterThan(0);
    expect(res).toEqual({ rows: expected, page: 1, pageSize: 50, total: expected.length });
  });

  test("filtering on the overridden ECB rate does not bring the hidden ECB row back", async () => {
    const res = await list({ filter: [{ field: "rate", op: "eq", value: "1.0523" }], totals: ["rate"] });
    expect(res).toEqual({ rows: [], page: 1, pageSize: 50, total: 0, totals: { rate: "0" } });
    const forB = await list({ filter: [{ field: "rate", op: "eq", value: "1.0523" }] }, b);
    expect(forB.rows).toEqual([{ currencyCode: "USD", date: DAILY_DATE, rate: "1.0523" }]);
  });

  test.each<[string, ListBody, (r: Row) => boolean]>([
    ["every row", {}, () => true],
    [
      "the rows of the filter, not only the page",
      { filter: [{ field: "currencyCode", op: "in", value: ["USD", "KRW", "GBP"] }], pageSize: 1 },
      (r: Row) => ["USD", "KRW", "GBP"].includes(r.currencyCode),
    ],
    ["the ECB rows only", { filter: [{ field: "date", op: "eq", value: "2026-05-07" }] }, (r: Row) => r.date === "2026-05-07"],
  ])("totals on rate sum %s exactly", async (_name, body, keep) => {
    const res = await list({ ...body, totals: ["rate"] });
    const matching = expectedA.filter(keep);
    const sum = matching.reduce((s, r) => s.plus(r.rate), new Decimal(0));
    expect(res.total).toBe(matching.length);
    expect(res.totals).toEqual({ rate: sum.toFixed() });
  });

  test("the overrides list: the company's rows with the key that set them and when, date desc then currencyCode", async () => {
    const res = await rates().overrides.list({});
    const stored = await h.db("exchange_rate_overrides").where({ company_id: a.companyId }).select("*");
    const setAtOf = (c: string, d: string) => new Date(stored.find((r) => r.currency_code === c && r.rate_date === d)!.set_at).toISOString();
    expect(res).toEqual({
      rows: [...OVERRIDES_A].sort(byDefault).map((o) => ({ ...o, setByKeyId: a.keyId, setAt: setAtOf(o.currencyCode, o.date) })),
      page: 1,
      pageSize: 50,
      total: 4,
    });
    for (const row of res.rows) expect(row.setAt).toMatch(ISO);
    expect(stored).toHaveLength(4);
  });

  test("the overrides list filters and totals", async () => {
    const res = await rates().overrides.list({ filter: [{ field: "currencyCode", op: "eq", value: "USD" }], totals: ["rate"] });
    expect(res.rows.map((r: Row) => [r.currencyCode, r.date, r.rate])).toEqual([
      ["USD", "2026-05-09", "1.05"],
      ["USD", DAILY_DATE, "1.1"],
    ]);
    expect(res.totals).toEqual({ rate: "2.15" });
    const other = await rates(b).overrides.list({});
    expect(other.rows.map((r: Row) => [r.currencyCode, r.date, r.rate])).toEqual([...OVERRIDES_B].sort(byDefault).map((o) => [o.currencyCode, o.date, o.rate]));
  });

  test("another company cannot delete the override (404) and it stays", async () => {
    await expectApiError(rates().overrides.delete({ currency: "JPY", date: DAILY_DATE }), 404, "not_found");
    expect(await h.db("exchange_rate_overrides").where({ company_id: b.companyId, currency_code: "JPY", rate_date: DAILY_DATE }).pluck("rate")).toEqual([
      "999.50000000",
    ]);
  });

  test("delete returns the deleted row, the ECB rate shows again, a second delete is 404", async () => {
    const stored = await h.db("exchange_rate_overrides").where({ company_id: a.companyId, currency_code: "USD", rate_date: DAILY_DATE }).first();
    const res = await rates().overrides.delete({ currency: "USD", date: DAILY_DATE });
    expect(res).toEqual({ currencyCode: "USD", date: DAILY_DATE, rate: "1.1", setByKeyId: a.keyId, setAt: new Date(stored.set_at).toISOString() });
    expect(await h.db("exchange_rate_overrides").where({ company_id: a.companyId, currency_code: "USD", rate_date: DAILY_DATE })).toEqual([]);
    expect(await h.db("exchange_rate_overrides").where({ company_id: a.companyId }).count({ n: "*" })).toEqual([{ n: "3" }]);

    const shown = await list({
      filter: [
        { field: "currencyCode", op: "eq", value: "USD" },
        { field: "date", op: "eq", value: DAILY_DATE },
      ],
    });
    expect(shown.rows).toEqual([{ currencyCode: "USD", date: DAILY_DATE, rate: "1.0523" }]);

    await expectApiError(rates().overrides.delete({ currency: "USD", date: DAILY_DATE }), 404, "not_found");
    expect(await h.db("exchange_rate_overrides").where({ company_id: a.companyId }).count({ n: "*" })).toEqual([{ n: "3" }]);
  });
});

// ----- lookupRate ------------------------------------------------------------------------------------------------

describe("lookupRate", () => {
  beforeAll(async () => {
    await resetRates();
    expect(await sync({ date: "2026-05-07" })).toEqual({ date: "2026-05-07", imported: 4 });
    expect(await sync({})).toEqual({ date: DAILY_DATE, imported: 4 });
    await setRate({ currency: "USD", date: DAILY_DATE, rate: "1.1" }, a);
    await setRate({ currency: "USD", date: "2026-05-09", rate: "1.05" }, a);
    await setRate({ currency: "SEK", date: DAILY_DATE, rate: "11.2345" }, a);
  });

  const ecbUsd0507 = apiRate(dayOf("2026-05-07").rates.USD);
  test.each([
    ["the company's override on the date wins over the ECB rate", "a", "USD", DAILY_DATE, { rate: "1.1", source: "override", date: DAILY_DATE }],
    ["without an override, the ECB rate on the date", "b", "USD", DAILY_DATE, { rate: "1.0523", source: "ecb", date: DAILY_DATE }],
    ["the ECB rate on the date, not a later one", "b", "USD", "2026-05-07", { rate: ecbUsd0507, source: "ecb", date: "2026-05-07" }],
    ["an override on a day without ECB rates", "a", "USD", "2026-05-09", { rate: "1.05", source: "override", date: "2026-05-09" }],
    ["an override of a currency the ECB does not carry", "a", "SEK", DAILY_DATE, { rate: "11.2345", source: "override", date: DAILY_DATE }],
    ["a Sunday: the latest ECB rate before, with its own date", "b", "JPY", "2026-05-10", { rate: "162.41", source: "ecb", date: DAILY_DATE }],
    ["an override of a nearby day is not a fallback", "a", "USD", "2026-05-10", { rate: "1.0523", source: "ecb", date: DAILY_DATE }],
    ["7 days after the last ECB rate still finds it", "b", "CZK", "2026-05-15", { rate: "24.93", source: "ecb", date: DAILY_DATE }],
    ["EUR is the base", "a", "EUR", "2026-05-16", { rate: "1", source: "base", date: "2026-05-16" }],
  ])("%s", async (_name, who, currency, date, expected) => {
    const before = await overrideRows();
    const quote = await lookupRate(h.db, (who === "a" ? a : b).companyId, currency, date);
    expect(quote).toEqual(expected);
    expect(await overrideRows()).toEqual(before);
  });

  test.each([
    ["8 days after the last ECB rate is too far", "b", "USD", "2026-05-16"],
    ["another company's override is not used", "b", "SEK", DAILY_DATE],
    ["a day before any rate", "a", "USD", "2026-05-06"],
  ])("%s: throws 422 fx.rate_missing with {currency, date}", async (_name, who, currency, date) => {
    const error = await lookupRate(h.db, (who === "a" ? a : b).companyId, currency, date).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    const e = error as ApiError;
    expect({ status: e.status, code: e.code, key: e.key, params: e.params }).toEqual({
      status: 422,
      code: "unprocessable",
      key: "fx.rate_missing",
      params: { currency, date },
    });
  });
});

// ----- jobs ------------------------------------------------------------------------------------------------------

describe("jobs", () => {
  const logged: string[] = [];
  const helpers = { logger: { info: (m: string) => logged.push(m) } } as never;
  const depsFor = (source: string) => ({ db: h.db, config: { ...h.config, exchangeRatesUrl: source } });

  test("sync_exchange_rates imports the latest day, or the payload's", async () => {
    await resetRates();
    logged.length = 0;
    await syncExchangeRatesTask(depsFor(good))({}, helpers);
    expect(await ecbRows()).toEqual(expectedRows(DAILY));
    await syncExchangeRatesTask(depsFor(good))({ date: "2026-04-05" }, helpers);
    expect(await ecbRows()).toEqual(expectedRows(DAILY, dayOf("2026-04-02")));
    await syncExchangeRatesTask(depsFor(good))(null, helpers);
    expect(await ecbRows()).toEqual(expectedRows(DAILY, dayOf("2026-04-02")));
    expect(logged).toEqual([
      `exchange rates of ${DAILY_DATE}: 4 rows written`,
      "exchange rates of 2026-04-02: 4 rows written",
      `exchange rates of ${DAILY_DATE}: 0 rows written`,
    ]);
  });

  test.each([
    ["a date that does not exist", { date: "2026-02-30" }],
    ["a date in another format", { date: "08.05.2026" }],
    ["a number", { date: 20260508 }],
    ["null", { date: null }],
  ])("sync_exchange_rates refuses a payload with %s and writes nothing", async (_name, payload) => {
    await resetRates();
    await expect(syncExchangeRatesTask(depsFor(good))(payload, helpers)).rejects.toThrow(/bad date/);
    expect(await ecbRows()).toEqual([]);
    expect(ecb.requests).toEqual([]);
  });

  test.each([
    ["malformed", "badrate", "exchange_rates.source_malformed"],
    ["answering HTTP 500", "http500", "exchange_rates.source_unreachable"],
  ])("sync_exchange_rates fails on a source %s and writes nothing", async (_name, prefix, key) => {
    await resetRates();
    await expect(syncExchangeRatesTask(depsFor(ecb.folder(prefix)))({}, helpers)).rejects.toMatchObject({ key });
    expect(await ecbRows()).toEqual([]);
  });

  test("sync_exchange_rates fails on an unreachable source", async () => {
    await resetRates();
    await expect(syncExchangeRatesTask(depsFor(deadFolder))({}, helpers)).rejects.toMatchObject({ key: "exchange_rates.source_unreachable" });
    expect(await ecbRows()).toEqual([]);
  });

  test("backfill_exchange_rates loads exactly the days of the range from the full history", async () => {
    await resetRates();
    logged.length = 0;
    await backfillExchangeRatesTask(depsFor(good))({ from: "2026-03-29", to: "2026-04-10" }, helpers);
    const days = ["2026-03-30", "2026-03-31", "2026-04-01", "2026-04-02", "2026-04-07", "2026-04-08", "2026-04-09", "2026-04-10"];
    expect(await ecbRows()).toEqual(expectedRows(...days.map(dayOf)));
    expect(ecb.requests).toEqual(["/good/eurofxref-hist.xml"]);
    await backfillExchangeRatesTask(depsFor(good))({ from: "2026-03-29", to: "2026-04-10" }, helpers);
    expect(await ecbRows()).toEqual(expectedRows(...days.map(dayOf)));
    expect(logged).toEqual(["exchange rates 2026-03-29..2026-04-10: 8 days, 32 rows written", "exchange rates 2026-03-29..2026-04-10: 8 days, 0 rows written"]);
  });

  test("backfill_exchange_rates of one day", async () => {
    await resetRates();
    await backfillExchangeRatesTask(depsFor(good))({ from: "2025-12-24", to: "2025-12-24" }, helpers);
    expect(await ecbRows()).toEqual(expectedRows(dayOf("2025-12-24")));
  });

  test.each([
    ["null", null],
    ["no dates", {}],
    ["no to", { from: "2026-03-30" }],
    ["from after to", { from: "2026-04-10", to: "2026-03-30" }],
    ["a date that does not exist", { from: "2026-02-30", to: "2026-03-10" }],
    ["a number", { from: 20260330, to: "2026-04-10" }],
  ])("backfill_exchange_rates refuses %s and writes nothing", async (_name, payload) => {
    await resetRates();
    await expect(backfillExchangeRatesTask(depsFor(good))(payload, helpers)).rejects.toThrow(/backfill_exchange_rates needs/);
    expect(await ecbRows()).toEqual([]);
    expect(ecb.requests).toEqual([]);
  });

  test("backfill_exchange_rates fails on a malformed history and writes nothing", async () => {
    await resetRates();
    await expect(backfillExchangeRatesTask(depsFor(ecb.folder("badhist")))({ from: "2026-03-30", to: "2026-04-10" }, helpers)).rejects.toMatchObject({
      key: "exchange_rates.source_malformed",
    });
    expect(await ecbRows()).toEqual([]);
    expect(ecb.requests).toEqual(["/badhist/eurofxref-hist.xml"]);
  });
});

// ----- CLI -------------------------------------------------------------------------------------------------------

describe("operator CLI", () => {
  const env = (source: string) => ({ DATABASE_URL: h.connectionString, EXCHANGE_RATES_URL: source, LOG_LEVEL: "warn" });

  test("rates-sync prints {date, imported} and writes the rows", async () => {
    await resetRates();
    const result = await runCli(["rates-sync"], env(good));
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
    expect(JSON.parse(result.stdout.trim())).toEqual({ date: DAILY_DATE, imported: 4 });
    expect(await ecbRows()).toEqual(expectedRows(DAILY));
    expect(ecb.requests).toEqual(["/good/eurofxref-daily.xml"]);
  });

  test("rates-sync --date imports the latest business day on or before it", async () => {
    await resetRates();
    const result = await runCli(["rates-sync", "--date", "2026-04-06"], env(ecb.file("good", "daily")));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout.trim())).toEqual({ date: "2026-04-02", imported: 4 });
    expect(await ecbRows()).toEqual(expectedRows(dayOf("2026-04-02")));
  });

  test("rates-backfill --from --to prints {days, imported} and writes the days of the range", async () => {
    await resetRates();
    const result = await runCli(["rates-backfill", "--from", "2025-12-22", "--to", "2026-01-02"], env(good));
    expect(result.code).toBe(0);
    // Christmas, 26 December and New Year's Day are holidays; 27/28 December a weekend.
    const days = ["2025-12-22", "2025-12-23", "2025-12-24", "2025-12-29", "2025-12-30", "2025-12-31", "2026-01-02"];
    expect(JSON.parse(result.stdout.trim())).toEqual({ days: 7, imported: 28 });
    expect(await ecbRows()).toEqual(expectedRows(...days.map(dayOf)));
    expect(ecb.requests).toEqual(["/good/eurofxref-hist.xml"]);
  });

  test.each([
    ["rates-sync with a date that does not exist", ["rates-sync", "--date", "2026-02-30"]],
    ["rates-backfill without --to", ["rates-backfill", "--from", "2026-03-30"]],
    ["rates-backfill with --from after --to", ["rates-backfill", "--from", "2026-04-10", "--to", "2026-03-30"]],
  ])("%s is a usage error (exit 2) and reads and writes nothing", async (_name, args) => {
    await resetRates();
    const result = await runCli(args, env(good));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("usage:");
    expect(result.stdout).toBe("");
    expect(await ecbRows()).toEqual([]);
    expect(ecb.requests).toEqual([]);
  });

  test("rates-sync against a malformed source fails with the key and writes nothing", async () => {
    await resetRates();
    const result = await runCli(["rates-sync"], env(ecb.folder("notxml")));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("(exchange_rates.source_malformed)");
    expect(result.stdout).toBe("");
    expect(await ecbRows()).toEqual([]);
  });
});

describe("EXCHANGE_RATES_URL", () => {
  test.each([
    ["https://example.test/stats/eurofxref/", "https://example.test/stats/eurofxref/eurofxref-hist.xml"],
    ["https://example.test/stats/eurofxref", "https://example.test/stats/eurofxref/eurofxref-hist.xml"],
    ["https://example.test/stats/eurofxref/eurofxref-daily.xml", "https://example.test/stats/eurofxref/eurofxref-hist.xml"],
    ["http://127.0.0.1:8080/feed/eurofxref-hist-90d.xml?x=1", "http://127.0.0.1:8080/feed/eurofxref-hist.xml"],
  ])("%s names the folder of the files", (source, expected) => {
    expect(ecbFileUrl(source, "hist")).toBe(expected);
  });
});
