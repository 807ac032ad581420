// The shared list engine (spec: "List request", "List response", "Limits"), exercised over HTTP through the real
// list operations: every bound at its edge and one past it, every operator against every field type, unknown
// fields, totals over every matching row, stable paging under ties, injection attempts, and tenancy.
//
// Data is seeded straight into the database. `exchange_rates` is global, so each block below owns a year of
// rates (2024: operators, 2023: totals, 2022: ties, 2021: injection) and filters on that year.
// The one boolean field is `validToday` of reference/vat-rates/list (global rates shipped with the API).
// Raw HTTP throughout: the engine's own test sends filters as data, across list operations by path, and half of each
// table is a body the contract forbids (bounds one past the edge, wrong types, unknown fields).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { Decimal } from "decimal.js";
import { AT_ONCE_MS } from "../support/timing.js";
import { loadDocument } from "../../src/http/openapi.js";
import { startHarness, type ApiResponse, type Harness, type RequestOptions } from "../support/harness.js";
import { widenListFields } from "../support/list-fields.js";
import { okBody as ok } from "../support/expect.js";

const RATES = "/v1/reference/exchange-rates/list";
const OVERRIDES = "/v1/reference/exchange-rates/overrides/list";
const SERIES = "/v1/reference/series/list";
const COMPANIES = "/v1/account/companies/list";
const KEYS = "/v1/account/api-keys/list";
const VAT = "/v1/reference/vat-rates/list";

type Tenant = { accountId: string; apiKey: string; keyId: string; companyId: string };

let h: Harness;
/** The company whose lists are read. */
let a: Tenant;
/** Another account: its overrides and series must never show in a's lists. */
let b: Tenant;
let asA: RequestOptions;

beforeAll(async () => {
  h = await startHarness();
  a = await h.tenant({ name: "Skaitytojas UAB" });
  b = await h.tenant({ name: "Kaimynas UAB" });
  asA = { key: a.apiKey, companyId: a.companyId };
});
afterAll(() => h.close());

/** A 400 `validation` whose fieldErrors name exactly `field`. */
function expectInvalid(res: ApiResponse, field: string, message?: RegExp) {
  expect({ status: res.status, code: res.body?.error?.code, fields: Object.keys(res.body?.error?.fieldErrors ?? {}) }).toEqual({
    status: 400,
    code: "validation",
    fields: [field],
  });
  if (message) expect(res.body.error.fieldErrors[field].join(" | ")).toMatch(message);
}

const rateKey = (r: { currencyCode: string; date: string; rate: string }) => `${r.currencyCode} ${r.date} ${r.rate}`;
const sorted = (xs: string[]) => [...xs].sort();

// ---------------------------------------------------------------------------------------------------------
// 2024: the operator dataset. a's effective rates for 2024 (its override replaces the ECB USD rate of 01-02;
// b's override of GBP 01-01 must not show).
// ---------------------------------------------------------------------------------------------------------

const Y2024 = [
  { field: "date", op: "gte", value: "2024-01-01" },
  { field: "date", op: "lte", value: "2024-12-31" },
];
const GBP1 = "GBP 2024-01-01 0.85";
const GBP2 = "GBP 2024-01-02 0.86";
const JPY1 = "JPY 2024-01-01 160.5";
const USD1 = "USD 2024-01-01 1.1";
const USD2 = "USD 2024-01-02 1.25";
const USD3 = "USD 2024-01-03 1.3";
const ALL_2024 = [GBP1, GBP2, JPY1, USD1, USD2, USD3];

// Series of a (seeded with fixed ids and creation times) and one of b.
const S1 = { id: randomUUID(), document_type: "sale_invoice", prefix: "SF", year: 2024, next_number: 1, created_at: "2024-01-01T00:00:00Z" };
const S2 = { id: randomUUID(), document_type: "sale_invoice", prefix: "SF", year: 2025, next_number: 10, created_at: "2024-06-01T00:00:00Z" };
const S3 = { id: randomUUID(), document_type: "purchase_invoice", prefix: "PF", year: 2025, next_number: 5, created_at: "2025-01-01T00:00:00Z" };
const S4 = { id: randomUUID(), document_type: "sale_credit_note", prefix: "KR", year: 2023, next_number: 100, created_at: "2023-03-01T00:00:00Z" };
const SB = { id: randomUUID(), document_type: "sale_invoice", prefix: "BX", year: 2024, next_number: 7, created_at: "2024-06-01T00:00:00Z" };
const seriesKey = (s: { prefix: string; year: number }) => `${s.prefix}/${s.year}`;
const [s1, s2, s3, s4] = [S1, S2, S3, S4].map(seriesKey);

// Companies of a third account, for uuid/string/timestamp fields of account/companies/list.
const C1 = { id: randomUUID(), name: "Alfa UAB", code: "A1", vat_code: "LT111", created_at: "2024-01-01T00:00:00Z" };
const C2 = { id: randomUUID(), name: "Beta UAB", code: "B2", vat_code: null, created_at: "2024-02-01T00:00:00Z" };
const C3 = { id: randomUUID(), name: "Gama MB", code: "G3", vat_code: "LT333", created_at: "2024-03-01T00:00:00Z" };
let companiesKey: string;

describe("operators against field types", () => {
  beforeAll(async () => {
    await h.db("exchange_rates").insert([
      { currency_code: "USD", rate_date: "2024-01-01", rate: "1.1" },
      { currency_code: "USD", rate_date: "2024-01-02", rate: "1.2" },
      { currency_code: "USD", rate_date: "2024-01-03", rate: "1.3" },
      { currency_code: "GBP", rate_date: "2024-01-01", rate: "0.85" },
      { currency_code: "GBP", rate_date: "2024-01-02", rate: "0.86" },
      { currency_code: "JPY", rate_date: "2024-01-01", rate: "160.5" },
    ]);
    await h.db("exchange_rate_overrides").insert([
      { company_id: a.companyId, currency_code: "USD", rate_date: "2024-01-02", rate: "1.25", set_by_key_id: a.keyId },
      { company_id: b.companyId, currency_code: "GBP", rate_date: "2024-01-01", rate: "9.99", set_by_key_id: b.keyId },
      { company_id: b.companyId, currency_code: "CHF", rate_date: "2024-01-01", rate: "0.95", set_by_key_id: b.keyId },
    ]);
    await h
      .db("number_series")
      .insert([
        ...[S1, S2, S3, S4].map((s) => ({ ...s, company_id: a.companyId, updated_at: s.created_at })),
        { ...SB, company_id: b.companyId, updated_at: SB.created_at },
      ]);
    const c = await h.bootstrap("Companies list account");
    companiesKey = c.apiKey;
    await h.db("companies").insert(
      [C1, C2, C3].map((x) => ({
        ...x,
        account_id: c.accountId,
        country_code: "LT",
        base_currency: "EUR",
        invoice_currency: "EUR",
        updated_at: x.created_at,
      })),
    );
  });

  test("the 2024 dataset as a sees it: its override in place of the ECB rate, not b's", async () => {
    const body = await ok(h.post(RATES, { filter: Y2024, pageSize: 500 }, asA));
    expect(body.rows.map(rateKey)).toEqual([USD3, GBP2, USD2, GBP1, JPY1, USD1]); // date desc, then currency
    expect(body.total).toBe(6);
    expect(body).not.toHaveProperty("totals");
  });

  // [label, filter item, expected rows | { op } (400 naming filter[2].op)]
  const rateCases: [string, Record<string, unknown>, string[] | { bad: string }][] = [
    // string: currencyCode
    ["string eq", { field: "currencyCode", op: "eq", value: "USD" }, [USD1, USD2, USD3]],
    ["string ne", { field: "currencyCode", op: "ne", value: "USD" }, [GBP1, GBP2, JPY1]],
    ["string contains (case-insensitive)", { field: "currencyCode", op: "contains", value: "s" }, [USD1, USD2, USD3]],
    ["string contains, middle", { field: "currencyCode", op: "contains", value: "B" }, [GBP1, GBP2]],
    ["string gte", { field: "currencyCode", op: "gte", value: "JPY" }, [JPY1, USD1, USD2, USD3]],
    ["string lte", { field: "currencyCode", op: "lte", value: "GBP" }, [GBP1, GBP2]],
    ["string in", { field: "currencyCode", op: "in", value: ["GBP", "JPY", "XXX"] }, [GBP1, GBP2, JPY1]],
    ["string eq, no match", { field: "currencyCode", op: "eq", value: "usd" }, []],
    // date: date
    ["date eq", { field: "date", op: "eq", value: "2024-01-02" }, [GBP2, USD2]],
    ["date ne", { field: "date", op: "ne", value: "2024-01-01" }, [GBP2, USD2, USD3]],
    ["date gte", { field: "date", op: "gte", value: "2024-01-03" }, [USD3]],
    ["date lte", { field: "date", op: "lte", value: "2024-01-01" }, [GBP1, JPY1, USD1]],
    ["date in", { field: "date", op: "in", value: ["2024-01-01", "2024-01-03"] }, [GBP1, JPY1, USD1, USD3]],
    ["date contains is refused", { field: "date", op: "contains", value: "2024" }, { bad: "op" }],
    // decimal: rate
    ["decimal eq (string)", { field: "rate", op: "eq", value: "1.25" }, [USD2]],
    ["decimal eq (number)", { field: "rate", op: "eq", value: 1.25 }, [USD2]],
    ["decimal eq compares numerically", { field: "rate", op: "eq", value: "1.25000000" }, [USD2]],
    ["decimal eq: the replaced ECB rate is not there", { field: "rate", op: "eq", value: "1.2" }, []],
    ["decimal eq: b's override is not there", { field: "rate", op: "eq", value: "9.99" }, []],
    ["decimal ne", { field: "rate", op: "ne", value: "1.1" }, [GBP1, GBP2, JPY1, USD2, USD3]],
    ["decimal gte", { field: "rate", op: "gte", value: "1.25" }, [JPY1, USD2, USD3]],
    ["decimal lte (number)", { field: "rate", op: "lte", value: 0.86 }, [GBP1, GBP2]],
    ["decimal lte (negative)", { field: "rate", op: "lte", value: "-1" }, []],
    ["decimal in (strings and numbers)", { field: "rate", op: "in", value: ["0.85", 160.5] }, [GBP1, JPY1]],
    ["decimal gte a number written with an exponent (1e-7)", { field: "rate", op: "gte", value: 0.0000001 }, ALL_2024],
    ["decimal contains is refused", { field: "rate", op: "contains", value: "1" }, { bad: "op" }],
  ];

  test.each(rateCases)("exchange rates, %s", async (_label, item, expected) => {
    const res = await h.post(RATES, { filter: [...Y2024, item], pageSize: 500 }, asA);
    if (!Array.isArray(expected)) return expectInvalid(res, `filter[2].${expected.bad}`);
    expect(res.status).toBe(200);
    expect(sorted(res.body.rows.map(rateKey))).toEqual(sorted(expected));
    expect(res.body.total).toBe(expected.length);
  });

  const seriesCases: [string, Record<string, unknown>, string[] | { bad: string }][] = [
    // integer: year, nextNumber
    ["integer eq", { field: "year", op: "eq", value: 2025 }, [s2, s3]],
    ["integer eq (numeric string)", { field: "year", op: "eq", value: "2025" }, [s2, s3]],
    ["integer ne", { field: "year", op: "ne", value: 2025 }, [s1, s4]],
    ["integer gte", { field: "year", op: "gte", value: 2024 }, [s1, s2, s3]],
    ["integer lte", { field: "year", op: "lte", value: 2024 }, [s1, s4]],
    ["integer in", { field: "year", op: "in", value: [2023, "2024"] }, [s1, s4]],
    ["integer gte on nextNumber", { field: "nextNumber", op: "gte", value: 10 }, [s2, s4]],
    ["integer eq far outside the column's range matches nothing", { field: "nextNumber", op: "eq", value: 999999999999999 }, []],
    ["integer contains is refused", { field: "year", op: "contains", value: "202" }, { bad: "op" }],
    // uuid: id
    ["uuid eq", { field: "id", op: "eq", value: S1.id }, [s1]],
    ["uuid eq (upper case)", { field: "id", op: "eq", value: S1.id.toUpperCase() }, [s1]],
    ["uuid ne", { field: "id", op: "ne", value: S1.id }, [s2, s3, s4]],
    ["uuid in", { field: "id", op: "in", value: [S1.id, S3.id, SB.id] }, [s1, s3]],
    ["uuid eq another company's series", { field: "id", op: "eq", value: SB.id }, []],
    ["uuid gte is refused", { field: "id", op: "gte", value: S1.id }, { bad: "op" }],
    ["uuid lte is refused", { field: "id", op: "lte", value: S1.id }, { bad: "op" }],
    ["uuid contains is refused", { field: "id", op: "contains", value: "a" }, { bad: "op" }],
    // timestamp: createdAt
    ["timestamp eq", { field: "createdAt", op: "eq", value: "2024-06-01T00:00:00Z" }, [s2]],
    ["timestamp eq with an offset", { field: "createdAt", op: "eq", value: "2024-06-01T03:00:00+03:00" }, [s2]],
    ["timestamp ne", { field: "createdAt", op: "ne", value: "2024-06-01T00:00:00.000Z" }, [s1, s3, s4]],
    ["timestamp gte", { field: "createdAt", op: "gte", value: "2024-06-01T00:00:00Z" }, [s2, s3]],
    ["timestamp lte (a date)", { field: "createdAt", op: "lte", value: "2024-01-01" }, [s1, s4]],
    ["timestamp in is refused", { field: "createdAt", op: "in", value: ["2024-06-01T00:00:00Z"] }, { bad: "op" }],
    ["timestamp contains is refused", { field: "createdAt", op: "contains", value: "2024" }, { bad: "op" }],
    // string: documentType, prefix
    ["string eq on documentType", { field: "documentType", op: "eq", value: "sale_invoice" }, [s1, s2]],
    ["string contains on prefix", { field: "prefix", op: "contains", value: "f" }, [s1, s2, s3]],
    ["string in on documentType", { field: "documentType", op: "in", value: ["sale_credit_note", "purchase_invoice"] }, [s3, s4]],
  ];

  test.each(seriesCases)("number series, %s", async (_label, item, expected) => {
    const res = await h.post(SERIES, { filter: [item], pageSize: 500 }, asA);
    if (!Array.isArray(expected)) return expectInvalid(res, `filter[0].${expected.bad}`);
    expect(res.status).toBe(200);
    expect(sorted(res.body.rows.map(seriesKey))).toEqual(sorted(expected));
    expect(res.body.total).toBe(expected.length);
  });

  // A whole number the engine accepts but the `integer` column cannot hold: either no row matches (200) or the
  // value is refused (400 naming it); never a 500.
  const outOfRange: [string, Record<string, unknown>, string[], string][] = [
    ["eq", { field: "year", op: "eq", value: 99999999999 }, [], "filter[0].value"],
    ["gte", { field: "year", op: "gte", value: "2147483648" }, [], "filter[0].value"],
    ["in", { field: "year", op: "in", value: [2024, -99999999999] }, [s1], "filter[0].value[1]"],
  ];

  test.each(outOfRange)("number series, integer %s beyond the int4 range of year", async (_label, item, rows, field) => {
    const res = await h.post(SERIES, { filter: [item], pageSize: 500 }, asA);
    expect([200, 400]).toContain(res.status);
    if (res.status === 400) return expectInvalid(res, field);
    expect(sorted(res.body.rows.map(seriesKey))).toEqual(sorted(rows));
  });

  const companyCases: [string, Record<string, unknown>, string[] | { bad: string }][] = [
    ["uuid in", { field: "id", op: "in", value: [C1.id, C3.id] }, ["A1", "G3"]],
    ["uuid eq another account's company", { field: "id", op: "eq", value: "00000000-0000-4000-8000-000000000000" }, []],
    ["uuid gte is refused", { field: "id", op: "gte", value: C1.id }, { bad: "op" }],
    ["string contains", { field: "name", op: "contains", value: "uab" }, ["A1", "B2"]],
    ["string eq", { field: "vatCode", op: "eq", value: "LT111" }, ["A1"]],
    ["string ne keeps rows without a value", { field: "vatCode", op: "ne", value: "LT111" }, ["B2", "G3"]],
    ["string lte", { field: "name", op: "lte", value: "Beta UAB" }, ["A1", "B2"]],
    ["string in on a char(2) column", { field: "countryCode", op: "in", value: ["LT", "LV"] }, ["A1", "B2", "G3"]],
    ["timestamp gte", { field: "createdAt", op: "gte", value: "2024-02-01" }, ["B2", "G3"]],
    ["timestamp lte", { field: "createdAt", op: "lte", value: "2024-01-31T23:59:59Z" }, ["A1"]],
    ["timestamp contains is refused", { field: "createdAt", op: "contains", value: "2024" }, { bad: "op" }],
  ];

  test.each(companyCases)("companies, %s", async (_label, item, expected) => {
    const res = await h.post(COMPANIES, { filter: [item], pageSize: 500 }, { key: companiesKey });
    if (!Array.isArray(expected)) return expectInvalid(res, `filter[0].${expected.bad}`);
    expect(res.status).toBe(200);
    expect(sorted(res.body.rows.map((r: { code: string }) => r.code))).toEqual(sorted(expected));
    expect(res.body.total).toBe(expected.length);
  });

  describe("boolean (vat-rates validToday)", () => {
    const vatKey = (r: { kind: string; rate: string; validFrom: string }) => `${r.kind} ${r.rate} ${r.validFrom}`;
    let today: string[];
    let notToday: string[];

    beforeAll(async () => {
      const all = await ok(h.post(VAT, { pageSize: 500 }, asA));
      today = all.rows.filter((r: { validToday: boolean }) => r.validToday === true).map(vatKey);
      notToday = all.rows.filter((r: { validToday: boolean }) => r.validToday === false).map(vatKey);
      expect(today.length + notToday.length).toBe(all.total);
    });

    test("the shipped LT rates have rows of both values", () => {
      expect(today.length).toBeGreaterThan(0);
      expect(notToday.length).toBeGreaterThan(0);
    });

    const cases: [string, Record<string, unknown>, "today" | "notToday" | { bad: string }][] = [
      ["eq true", { field: "validToday", op: "eq", value: true }, "today"],
      ["eq false", { field: "validToday", op: "eq", value: false }, "notToday"],
      ["ne true", { field: "validToday", op: "ne", value: true }, "notToday"],
      ["ne false", { field: "validToday", op: "ne", value: false }, "today"],
      ["contains is refused", { field: "validToday", op: "contains", value: "t" }, { bad: "op" }],
      ["gte is refused", { field: "validToday", op: "gte", value: true }, { bad: "op" }],
      ["lte is refused", { field: "validToday", op: "lte", value: false }, { bad: "op" }],
      ["in is refused", { field: "validToday", op: "in", value: ["true"] }, { bad: "op" }],
      ["a string value", { field: "validToday", op: "eq", value: "true" }, { bad: "value" }],
      ["a number value", { field: "validToday", op: "eq", value: 1 }, { bad: "value" }],
      ["an array value", { field: "validToday", op: "eq", value: ["true"] }, { bad: "value" }],
    ];

    test.each(cases)("boolean %s", async (_label, item, expected) => {
      const res = await h.post(VAT, { filter: [item], pageSize: 500 }, asA);
      if (typeof expected === "object") return expectInvalid(res, `filter[0].${expected.bad}`);
      expect(res.status).toBe(200);
      const rows = expected === "today" ? today : notToday;
      expect(sorted(res.body.rows.map(vatKey))).toEqual(sorted(rows));
      expect(res.body.total).toBe(rows.length);
    });
  });

  // Wrong value types: [label, path, filter item, the fieldErrors key]
  const valueCases: [string, string, Record<string, unknown>, string][] = [
    ["date: not a date", RATES, { field: "date", op: "eq", value: "yesterday" }, "filter[2].value"],
    ["date: not a calendar day", RATES, { field: "date", op: "eq", value: "2024-02-30" }, "filter[2].value"],
    ["date: a number", RATES, { field: "date", op: "gte", value: 20240101 }, "filter[2].value"],
    ["date: a timestamp", RATES, { field: "date", op: "lte", value: "2024-01-01T00:00:00Z" }, "filter[2].value"],
    ["decimal: not numeric", RATES, { field: "rate", op: "eq", value: "abc" }, "filter[2].value"],
    ["decimal: a comma", RATES, { field: "rate", op: "gte", value: "1,5" }, "filter[2].value"],
    ["decimal: a boolean", RATES, { field: "rate", op: "eq", value: true }, "filter[2].value"],
    ["decimal: empty", RATES, { field: "rate", op: "eq", value: "" }, "filter[2].value"],
    ["string: a number", RATES, { field: "currencyCode", op: "eq", value: 5 }, "filter[2].value"],
    ["string: a boolean", RATES, { field: "currencyCode", op: "ne", value: false }, "filter[2].value"],
    ["in with a scalar", RATES, { field: "currencyCode", op: "in", value: "USD" }, "filter[2].value"],
    ["in with a non-array on a date", RATES, { field: "date", op: "in", value: "2024-01-01" }, "filter[2].value"],
    ["eq with an array", RATES, { field: "currencyCode", op: "eq", value: ["USD"] }, "filter[2].value"],
    ["gte with an array", RATES, { field: "rate", op: "gte", value: ["1"] }, "filter[2].value"],
    ["in with one bad element", RATES, { field: "date", op: "in", value: ["2024-01-01", "nope"] }, "filter[2].value[1]"],
    ["in with a number on a string field", RATES, { field: "currencyCode", op: "in", value: [1] }, "filter[2].value[0]"],
    ["integer: a fraction", SERIES, { field: "year", op: "eq", value: 2024.5 }, "filter[0].value"],
    ["integer: a fraction as text", SERIES, { field: "year", op: "eq", value: "2024.5" }, "filter[0].value"],
    ["integer: not numeric", SERIES, { field: "nextNumber", op: "gte", value: "ten" }, "filter[0].value"],
    ["uuid: not a uuid", SERIES, { field: "id", op: "eq", value: "not-a-uuid" }, "filter[0].value"],
    ["uuid: a number", SERIES, { field: "id", op: "eq", value: 1 }, "filter[0].value"],
    ["uuid in: one bad element", SERIES, { field: "id", op: "in", value: [S1.id, "x"] }, "filter[0].value[1]"],
    ["timestamp: not a time", SERIES, { field: "createdAt", op: "gte", value: "not a time" }, "filter[0].value"],
    ["timestamp: a number", SERIES, { field: "createdAt", op: "gte", value: 1700000000 }, "filter[0].value"],
    ["timestamp: a bare number as text", SERIES, { field: "createdAt", op: "gte", value: "1" }, "filter[0].value"],
    ["timestamp: free text a JS Date parses", SERIES, { field: "createdAt", op: "lte", value: "June 1, 2024" }, "filter[0].value"],
  ];

  test.each(valueCases)("wrong value type, %s", async (_label, path, item, field) => {
    const filter = path === RATES ? [...Y2024, item] : [item];
    expectInvalid(await h.post(path, { filter }, asA), field);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Bounds of the list request, at the edge and one past it.
// ---------------------------------------------------------------------------------------------------------

describe("bounds of the list request", () => {
  const name64 = "a".repeat(64);
  const name65 = "a".repeat(65);
  const dateFilter = { field: "date", op: "gte", value: "2000-01-01" };
  const fillers = Array.from({ length: 99 }, (_, i) => `Q${String.fromCharCode(65 + Math.floor(i / 26))}${String.fromCharCode(65 + (i % 26))}`);

  beforeAll(async () => {
    // At least two rows so pageSize 1 is observable; the 2024 rows may or may not be there yet.
    await h.db("exchange_rates").insert([
      { currency_code: "SEK", rate_date: "2020-01-01", rate: "10.5" },
      { currency_code: "SEK", rate_date: "2020-01-02", rate: "10.6" },
    ]);
  });

  // [label, body, fieldErrors key | null for 200, message pattern]
  type BoundCase = [string, Record<string, unknown>, string | null, RegExp?];
  const cases: BoundCase[] = [
    ["page 1", { page: 1 }, null],
    ["page 0", { page: 0 }, "page"],
    ["page -1", { page: -1 }, "page"],
    ["page 1.5", { page: 1.5 }, "page"],
    ["pageSize 1", { pageSize: 1 }, null],
    ["pageSize 500", { pageSize: 500 }, null],
    ["pageSize 0", { pageSize: 0 }, "pageSize"],
    ["pageSize 501", { pageSize: 501 }, "pageSize"],
    ["sort with 3 items", { sort: [{ field: "date", dir: "desc" }, { field: "currencyCode" }, { field: "rate", dir: "asc" }] }, null],
    ["sort with 4 items", { sort: [{ field: "date" }, { field: "currencyCode" }, { field: "rate" }, { field: "date" }] }, "sort"],
    ["filter with 10 items", { filter: Array(10).fill(dateFilter) }, null],
    ["filter with 11 items", { filter: Array(11).fill(dateFilter) }, "filter"],
    ["totals with 10 items", { totals: Array(10).fill("rate") }, null],
    ["totals with 11 items", { totals: Array(11).fill("rate") }, "totals"],
    [
      "filter field of 64 chars: not a field of this list",
      { filter: [{ field: name64, op: "eq", value: "x" }] },
      "filter[0].field",
      /must be one of: "currencyCode", "date", "rate"/,
    ],
    ["filter field of 65 chars", { filter: [{ field: name65, op: "eq", value: "x" }] }, "filter[0].field", /must be one of/],
    ["filter field empty", { filter: [{ field: "", op: "eq", value: "x" }] }, "filter[0].field"],
    ["sort field of 64 chars: not a field of this list", { sort: [{ field: name64 }] }, "sort[0].field", /must be one of/],
    ["sort field of 65 chars", { sort: [{ field: name65 }] }, "sort[0].field", /must be one of/],
    ["totals name of 64 chars: not a field of this list", { totals: [name64] }, "totals[0]", /must be one of: "rate"/],
    ["totals name of 65 chars", { totals: [name65] }, "totals[0]", /must be one of/],
    ["in with 1 value", { filter: [{ field: "currencyCode", op: "in", value: ["SEK"] }] }, null],
    ["in with 100 values", { filter: [{ field: "currencyCode", op: "in", value: ["SEK", ...fillers] }] }, null],
    ["in with 0 values", { filter: [{ field: "currencyCode", op: "in", value: [] }] }, "filter[0].value"],
    ["in with 101 values", { filter: [{ field: "currencyCode", op: "in", value: ["SEK", ...fillers, "QZZ"] }] }, "filter[0].value"],
    ["dir other than asc/desc", { sort: [{ field: "date", dir: "up" }] }, "sort[0].dir"],
    ["dir in upper case", { sort: [{ field: "date", dir: "DESC" }] }, "sort[0].dir"],
    ["op not in the list", { filter: [{ field: "date", op: "like", value: "2024%" }] }, "filter[0].op"],
    ["op in upper case", { filter: [{ field: "date", op: "EQ", value: "2024-01-01" }] }, "filter[0].op"],
    ["filter without value", { filter: [{ field: "date", op: "eq" }] }, "filter[0].value"],
    ["filter with a null value", { filter: [{ field: "date", op: "eq", value: null }] }, "filter[0].value"],
    ["filter without op", { filter: [{ field: "date", value: "2024-01-01" }] }, "filter[0].op"],
    ["filter without field", { filter: [{ op: "eq", value: "2024-01-01" }] }, "filter[0].field"],
    ["filter with an unknown member", { filter: [{ field: "date", op: "eq", value: "2024-01-01", not: true }] }, "filter[0].not"],
    ["sort without field", { sort: [{ dir: "asc" }] }, "sort[0].field"],
    ["an unknown top-level member", { limit: 10 }, "limit"],
  ];

  // A rest parameter: rows of 3 and 4 items must not make jest pass a `done` callback.
  test.each(cases)("%s", async (...[_label, body, field, message]: BoundCase) => {
    const res = await h.post(RATES, body, asA);
    if (field) return expectInvalid(res, field, message);
    expect(res.status).toBe(200);
  });

  test("pageSize 1 returns one row, the echo and the total say so; pageSize 500 returns every row", async () => {
    const filter = [{ field: "currencyCode", op: "eq", value: "SEK" }];
    const one = await ok(h.post(RATES, { filter, pageSize: 1 }, asA));
    expect(one).toEqual({ rows: [{ currencyCode: "SEK", date: "2020-01-02", rate: "10.6" }], page: 1, pageSize: 1, total: 2 });
    const second = await ok(h.post(RATES, { filter, pageSize: 1, page: 2 }, asA));
    expect(second.rows).toEqual([{ currencyCode: "SEK", date: "2020-01-01", rate: "10.5" }]);
    const all = await ok(h.post(RATES, { filter, pageSize: 500 }, asA));
    expect(all.rows.map(rateKey)).toEqual(["SEK 2020-01-02 10.6", "SEK 2020-01-01 10.5"]);
  });

  test("defaults: page 1, pageSize 50; a page past the end is empty with the same total", async () => {
    const defaults = await ok(h.post(RATES, {}, asA));
    expect({ page: defaults.page, pageSize: defaults.pageSize }).toEqual({ page: 1, pageSize: 50 });
    expect(defaults.total).toBe(await effectiveCount());
    expect(defaults.rows.length).toBe(Math.min(50, defaults.total));
    const past = await ok(h.post(RATES, { page: 100000 }, asA));
    expect(past).toEqual({ rows: [], page: 100000, pageSize: 50, total: defaults.total });
  });

  test("in with 100 values matches on every one of them", async () => {
    const filter = [{ field: "currencyCode", op: "in", value: ["SEK", ...fillers] }];
    const res = await ok(h.post(RATES, { filter, pageSize: 500 }, asA));
    expect(sorted(res.rows.map(rateKey))).toEqual(["SEK 2020-01-01 10.5", "SEK 2020-01-02 10.6"]);
  });

  test("a 10-item filter applies every condition", async () => {
    const filter = [...Array(8).fill(dateFilter), { field: "currencyCode", op: "eq", value: "SEK" }, { field: "rate", op: "gte", value: "10.55" }];
    const res = await ok(h.post(RATES, { filter }, asA));
    expect(res.rows.map(rateKey)).toEqual(["SEK 2020-01-02 10.6"]);
  });

  test("the 3 sort keys are applied in order", async () => {
    // Currencies of its own, so that the SEK rows the other tests count stay as they are.
    await h.db("exchange_rates").insert([
      { currency_code: "THB", rate_date: "2020-01-01", rate: "10.5" },
      { currency_code: "THB", rate_date: "2020-01-02", rate: "10.6" },
      { currency_code: "THB", rate_date: "2020-01-03", rate: "10.5" },
      { currency_code: "MYR", rate_date: "2020-01-03", rate: "10.5" },
      { currency_code: "MYR", rate_date: "2020-01-02", rate: "10.6" },
    ]);
    const filter = [{ field: "currencyCode", op: "in", value: ["THB", "MYR"] }];
    const sort = [
      { field: "rate", dir: "desc" },
      { field: "currencyCode", dir: "desc" },
      { field: "date", dir: "asc" },
    ];
    const res = await ok(h.post(RATES, { filter, sort }, asA));
    expect(res.rows.map(rateKey)).toEqual(["THB 2020-01-02 10.6", "MYR 2020-01-02 10.6", "THB 2020-01-01 10.5", "THB 2020-01-03 10.5", "MYR 2020-01-03 10.5"]);
  });
});

/** How many rows a's effective-rate list has: every global rate, plus a's overrides of days without one. */
async function effectiveCount(): Promise<number> {
  const { rows } = await h.db.raw<{ rows: { n: string }[] }>(
    `select (select count(*) from exchange_rates)
          + (select count(*) from exchange_rate_overrides o
              where o.company_id = ? and not exists (select 1 from exchange_rates e where e.currency_code = o.currency_code and e.rate_date = o.rate_date)) as n`,
    [a.companyId],
  );
  return Number(rows[0].n);
}

// ---------------------------------------------------------------------------------------------------------
// Unknown, non-sortable and non-totalable fields.
// ---------------------------------------------------------------------------------------------------------

describe("fields a list does not have", () => {
  // The contract types each list's field names (issue 14), so the published server refuses these with a 400
  // `request.invalid` naming the same elements; the list engine's own refusal (`list.invalid`, which must hold for a
  // name the schema let through) is tested on a server whose contract widens the names back to any string.
  let engine: Harness;
  let onEngine: Tenant;
  beforeAll(async () => {
    engine = await startHarness({ document: widenListFields(loadDocument()) });
    onEngine = await engine.tenant({ name: "Variklis UAB" });
  });
  afterAll(() => engine.close());
  // [label, path, body, the fieldErrors keys]
  const cases: [string, string, Record<string, unknown>, string[]][] = [
    ["unknown filter field", RATES, { filter: [{ field: "nope", op: "eq", value: "x" }] }, ["filter[0].field"]],
    ["a column name instead of the field name", RATES, { filter: [{ field: "currency_code", op: "eq", value: "USD" }] }, ["filter[0].field"]],
    ["a field name in another case", RATES, { filter: [{ field: "CurrencyCode", op: "eq", value: "USD" }] }, ["filter[0].field"]],
    ["unknown sort field", RATES, { sort: [{ field: "date" }, { field: "imported_at" }] }, ["sort[1].field"]],
    ["unknown totals field", RATES, { totals: ["rate", "amount"] }, ["totals[1]"]],
    ["a text field in totals", RATES, { totals: ["currencyCode"] }, ["totals[0]"]],
    ["a date field in totals", RATES, { totals: ["rate", "date"] }, ["totals[1]"]],
    ["an integer field that is not totalable", SERIES, { totals: ["year"] }, ["totals[0]"]],
    ["a field of another list (setAt is an override field)", RATES, { sort: [{ field: "setAt" }] }, ["sort[0].field"]],
    ["a field only another list has", SERIES, { filter: [{ field: "rate", op: "eq", value: "1" }] }, ["filter[0].field"]],
    ["companies: totals on a text field", COMPANIES, { totals: ["name"] }, ["totals[0]"]],
    [
      "companies: a hidden column",
      COMPANIES,
      { filter: [{ field: "accountId", op: "eq", value: "00000000-0000-4000-8000-000000000000" }] },
      ["filter[0].field"],
    ],
    ["api keys: the secret hash", KEYS, { filter: [{ field: "secretHash", op: "eq", value: "x" }] }, ["filter[0].field"]],
    ["api keys: sort on scopes", KEYS, { sort: [{ field: "scopes" }] }, ["sort[0].field"]],
    [
      "every offending element at once",
      RATES,
      {
        filter: [
          { field: "date", op: "gte", value: "2000-01-01" },
          { field: "x", op: "eq", value: "1" },
        ],
        sort: [{ field: "date" }, { field: "rate" }, { field: "y" }],
        totals: ["rate", "z"],
      },
      ["filter[1].field", "sort[2].field", "totals[1]"],
    ],
    // Names an object literal inherits must not count as fields.
    ["filter on constructor", RATES, { filter: [{ field: "constructor", op: "eq", value: "x" }] }, ["filter[0].field"]],
    ["filter on __proto__", RATES, { filter: [{ field: "__proto__", op: "eq", value: "x" }] }, ["filter[0].field"]],
    ["filter on toString", SERIES, { filter: [{ field: "toString", op: "eq", value: "x" }] }, ["filter[0].field"]],
    ["sort on hasOwnProperty", RATES, { sort: [{ field: "hasOwnProperty" }] }, ["sort[0].field"]],
    ["sort on constructor", COMPANIES, { sort: [{ field: "constructor", dir: "desc" }] }, ["sort[0].field"]],
    ["totals on valueOf", RATES, { totals: ["valueOf"] }, ["totals[0]"]],
  ];

  test.each(cases)("%s", async (_label, path, body, fields) => {
    const options = path === COMPANIES || path === KEYS ? { key: a.apiKey } : asA;
    const published = await h.post(path, body, options);
    // A list that totals nothing takes no `totals` at all: the schema names the array, and each name sent.
    expect({ status: published.status, key: published.body?.error?.key, fields: sorted(Object.keys(published.body?.error?.fieldErrors ?? {})) }).toEqual({
      status: 400,
      key: "request.invalid",
      fields: sorted([...new Set([...fields, ...((path === SERIES || path === COMPANIES) && fields.some((f) => f.startsWith("totals[")) ? ["totals"] : [])])]),
    });
    const res = await engine.post(
      path,
      body,
      path === COMPANIES || path === KEYS ? { key: onEngine.apiKey } : { key: onEngine.apiKey, companyId: onEngine.companyId },
    );
    expect({
      status: res.status,
      code: res.body?.error?.code,
      key: res.body?.error?.key,
      fields: sorted(Object.keys(res.body?.error?.fieldErrors ?? {})),
    }).toEqual({
      status: 400,
      code: "validation",
      key: "list.invalid",
      fields: sorted(fields),
    });
  });

  test("the message names the fields the list does have", async () => {
    const body = { filter: [{ field: "nope", op: "eq", value: "x" }], totals: ["date"] };
    const published = await h.post(RATES, body, asA);
    expect(published.body.error.fieldErrors["filter[0].field"][0]).toMatch(/"currencyCode", "date", "rate"/);
    expect(published.body.error.fieldErrors["totals[0]"][0]).toMatch(/"rate"/);
    const res = await engine.post(RATES, body, { key: onEngine.apiKey, companyId: onEngine.companyId });
    expect(res.body.error.fieldErrors["filter[0].field"][0]).toMatch(/currencyCode, date, rate/);
    expect(res.body.error.fieldErrors["totals[0]"][0]).toMatch(/rate/);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Totals: summed over every matching row, not only the page.
// ---------------------------------------------------------------------------------------------------------

describe("totals", () => {
  // Rates JS floats get wrong when summed; AUD is used by no other block.
  const ECB = ["0.1", "0.2", "1234567890.12345678", "0.00000001", "3.33333333", "9999999999.99999999", "7.7"];
  const DATES = ECB.map((_, i) => `2023-01-0${i + 1}`);
  const A_OVERRIDE = { date: "2023-01-03", rate: "0.30000003" }; // replaces 1234567890.12345678 for a
  const B_OVERRIDE = { date: "2023-01-04", rate: "5555.5" }; // b's only
  const effective = ECB.map((r, i) => (DATES[i] === A_OVERRIDE.date ? A_OVERRIDE.rate : r));
  const aud = [{ field: "currencyCode", op: "eq", value: "AUD" }];

  beforeAll(async () => {
    await h.db("exchange_rates").insert(ECB.map((rate, i) => ({ currency_code: "AUD", rate_date: DATES[i], rate })));
    await h.db("exchange_rate_overrides").insert([
      { company_id: a.companyId, currency_code: "AUD", rate_date: A_OVERRIDE.date, rate: A_OVERRIDE.rate, set_by_key_id: a.keyId },
      { company_id: b.companyId, currency_code: "AUD", rate_date: B_OVERRIDE.date, rate: B_OVERRIDE.rate, set_by_key_id: b.keyId },
    ]);
  });

  test("7 rates, pageSize 2: every page carries the exact sum of all 7 and total 7", async () => {
    const expected = effective.reduce((s, r) => s.plus(r), new Decimal(0)).toFixed();
    expect(expected).toBe("10000000011.63333336");
    expect(String(effective.reduce((s, r) => s + Number(r), 0))).not.toBe(expected); // floats get it wrong
    const seen: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const res = await ok(h.post(RATES, { filter: aud, totals: ["rate"], pageSize: 2, page }, asA));
      expect({ page: res.page, total: res.total, totals: res.totals, size: res.rows.length }).toEqual({
        page,
        total: 7,
        totals: { rate: expected },
        size: page < 4 ? 2 : 1,
      });
      seen.push(...res.rows.map(rateKey));
    }
    expect(sorted(seen)).toEqual(sorted(effective.map((r, i) => `AUD ${DATES[i]} ${r}`)));
    // A page past the end still carries the totals of every matching row.
    const past = await ok(h.post(RATES, { filter: aud, totals: ["rate"], pageSize: 2, page: 9 }, asA));
    expect(past).toEqual({ rows: [], page: 9, pageSize: 2, total: 7, totals: { rate: expected } });
  });

  test("the sum follows the filter, not the page", async () => {
    const filter = [...aud, { field: "rate", op: "gte", value: "1" }];
    const expected = effective
      .filter((r) => new Decimal(r).gte(1))
      .reduce((s, r) => s.plus(r), new Decimal(0))
      .toFixed();
    const res = await ok(h.post(RATES, { filter, totals: ["rate"], pageSize: 1, sort: [{ field: "rate" }] }, asA));
    expect(res.total).toBe(3);
    expect(res.totals).toEqual({ rate: expected });
    expect(res.rows.map(rateKey)).toEqual(["AUD 2023-01-05 3.33333333"]);
  });

  test("no matching row: totals are 0 and total 0", async () => {
    const res = await ok(h.post(RATES, { filter: [...aud, { field: "rate", op: "lte", value: "0" }], totals: ["rate"] }, asA));
    expect(res).toEqual({ rows: [], page: 1, pageSize: 50, total: 0, totals: { rate: "0" } });
  });

  test("totals are absent when not requested, and a field named twice is summed once", async () => {
    const without = await ok(h.post(RATES, { filter: aud }, asA));
    expect(without).not.toHaveProperty("totals");
    expect(without.total).toBe(7);
    const twice = await ok(h.post(RATES, { filter: aud, totals: ["rate", "rate"] }, asA));
    expect(Object.keys(twice.totals)).toEqual(["rate"]);
    expect(new Decimal(twice.totals.rate).eq(effective.reduce((s, r) => s.plus(r), new Decimal(0)))).toBe(true);
  });

  test("b sees its own override in its sum, not a's", async () => {
    const bEffective = ECB.map((r, i) => (DATES[i] === B_OVERRIDE.date ? B_OVERRIDE.rate : r));
    const res = await ok(h.post(RATES, { filter: aud, totals: ["rate"] }, { key: b.apiKey, companyId: b.companyId }));
    expect(res.totals).toEqual({ rate: bEffective.reduce((s, r) => s.plus(r), new Decimal(0)).toFixed() });
  });

  test("overrides/list sums only the company's own overrides", async () => {
    const res = await ok(h.post(OVERRIDES, { filter: aud, totals: ["rate"] }, asA));
    expect(res.rows.map((r: { date: string; rate: string }) => `${r.date} ${r.rate}`)).toEqual([`${A_OVERRIDE.date} ${A_OVERRIDE.rate}`]);
    expect(res).toMatchObject({ total: 1, totals: { rate: A_OVERRIDE.rate } });
  });
});

// ---------------------------------------------------------------------------------------------------------
// Paging under ties: every row exactly once, in the same order on every walk.
// ---------------------------------------------------------------------------------------------------------

describe("stable paging under ties", () => {
  const Y2022 = [
    { field: "date", op: "gte", value: "2022-01-01" },
    { field: "date", op: "lte", value: "2022-12-31" },
  ];
  const CURRENCIES = ["TAA", "TAB", "TBA", "TBB", "TCA", "TCB", "TDA", "TDB"];
  const DAYS = ["2022-03-01", "2022-03-02", "2022-03-03"];
  let tieTenant: Tenant;
  let companyAccountKey: string;

  beforeAll(async () => {
    const rows = CURRENCIES.flatMap((c, i) =>
      DAYS.map((d, j) => ({ currency_code: c, rate_date: d, rate: i === 0 && j === 0 ? "0.5" : i === 1 && j < 2 ? "2.5" : "1.5" })),
    );
    await h.db("exchange_rates").insert(rows);
    tieTenant = await h.tenant({ name: "Lygiosios UAB" });
    await h.db("number_series").insert(
      Array.from({ length: 11 }, (_, i) => ({
        company_id: tieTenant.companyId,
        document_type: "journal",
        prefix: "J",
        year: 2000 + i,
        next_number: 1,
        created_at: "2024-01-01T00:00:00Z",
      })).concat(
        Array.from({ length: 10 }, (_, i) => ({
          company_id: tieTenant.companyId,
          document_type: "journal",
          prefix: `P${i % 2}`,
          year: 2030 + i,
          next_number: 1,
          created_at: "2024-01-01T00:00:00Z",
        })),
      ),
    );
    const c = await h.bootstrap("Tie companies");
    companyAccountKey = c.apiKey;
    await h.db("companies").insert(
      Array.from({ length: 13 }, (_, i) => ({
        account_id: c.accountId,
        name: "Tas pats UAB",
        code: `T${i}`,
        country_code: "LT",
        base_currency: "EUR",
        invoice_currency: "EUR",
      })),
    );
  });

  type Walk = { path: string; options: () => RequestOptions; body: Record<string, unknown>; key: (r: any) => string; primary?: (r: any) => string | number };
  const rateWalk = (sort: unknown[], primary?: (r: any) => number | string): Walk => ({
    path: RATES,
    options: () => asA,
    body: { filter: Y2022, sort },
    key: rateKey,
    primary,
  });

  const walks: [string, Walk, number][] = [
    ["rates by rate asc", rateWalk([{ field: "rate", dir: "asc" }], (r) => Number(r.rate)), 24],
    ["rates by rate desc", rateWalk([{ field: "rate", dir: "desc" }], (r) => -Number(r.rate)), 24],
    ["rates by date asc", rateWalk([{ field: "date", dir: "asc" }], (r) => r.date), 24],
    [
      "rates by date desc, rate desc",
      rateWalk([
        { field: "date", dir: "desc" },
        { field: "rate", dir: "desc" },
      ]),
      24,
    ],
    ["rates in the default order", rateWalk([]), 24],
    [
      "series by documentType (all the same)",
      {
        path: SERIES,
        options: () => ({ key: tieTenant.apiKey, companyId: tieTenant.companyId }),
        body: { sort: [{ field: "documentType", dir: "desc" }] },
        key: (r) => r.id,
      },
      21,
    ],
    [
      "series by createdAt (all the same)",
      {
        path: SERIES,
        options: () => ({ key: tieTenant.apiKey, companyId: tieTenant.companyId }),
        body: { sort: [{ field: "createdAt" }, { field: "prefix", dir: "desc" }] },
        key: (r) => r.id,
      },
      21,
    ],
    [
      "companies by name (all the same)",
      { path: COMPANIES, options: () => ({ key: companyAccountKey }), body: { sort: [{ field: "name", dir: "desc" }] }, key: (r) => r.code },
      13,
    ],
    [
      "companies by countryCode asc",
      { path: COMPANIES, options: () => ({ key: companyAccountKey }), body: { sort: [{ field: "countryCode" }] }, key: (r) => r.code },
      13,
    ],
  ];

  async function walk(w: Walk): Promise<any[]> {
    const rows: any[] = [];
    const totals = new Set<number>();
    for (let page = 1; page < 50; page++) {
      const res = await ok(h.post(w.path, { ...w.body, page, pageSize: 3 }, w.options()));
      totals.add(res.total);
      rows.push(...res.rows);
      if (res.rows.length < 3) break;
    }
    expect([...totals]).toEqual([rows.length]); // the same total on every page
    return rows;
  }

  test.each(walks)("%s: pageSize 3 returns every row once, the same way twice", async (_label, w, count) => {
    const first = await walk(w);
    const keys = first.map(w.key);
    expect(keys.length).toBe(count);
    expect(new Set(keys).size).toBe(count);
    const second = (await walk(w)).map(w.key);
    expect(second).toEqual(keys);
    const whole = await ok(h.post(w.path, { ...w.body, pageSize: 500 }, w.options()));
    expect(whole.total).toBe(count);
    expect(whole.rows.map(w.key)).toEqual(keys);
    if (w.primary) {
      const primary = first.map(w.primary);
      expect(primary).toEqual([...primary].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
    }
  });

  test("asc and desc on the tied field both put the odd rows at their ends", async () => {
    const asc = (await walk(rateWalk([{ field: "rate", dir: "asc" }]))).map(rateKey);
    const desc = (await walk(rateWalk([{ field: "rate", dir: "desc" }]))).map(rateKey);
    expect(asc[0]).toBe("TAA 2022-03-01 0.5");
    expect(asc.slice(-2)).toEqual(["TAB 2022-03-01 2.5", "TAB 2022-03-02 2.5"]);
    expect(desc.slice(0, 2)).toEqual(["TAB 2022-03-01 2.5", "TAB 2022-03-02 2.5"]);
    expect(desc.at(-1)).toBe("TAA 2022-03-01 0.5");
  });
});

// ---------------------------------------------------------------------------------------------------------
// Injection attempts: refused as unknown fields, or harmless as bound values.
// ---------------------------------------------------------------------------------------------------------

describe("injection attempts", () => {
  const Y2021 = { field: "date", op: "gte", value: "2021-01-01" };
  let before: Record<string, number>;

  async function counts(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const table of ["companies", "exchange_rates", "exchange_rate_overrides", "number_series", "api_keys", "accounts"]) {
      const [{ count }] = await h.db(table).count<{ count: string }[]>("* as count");
      out[table] = Number(count);
    }
    return out;
  }

  beforeAll(async () => {
    await h.db("exchange_rates").insert([{ currency_code: "HUF", rate_date: "2021-06-01", rate: "350" }]);
    before = await counts();
  });

  // [label, path, body, fieldErrors key | null when the answer is 200 with no rows]
  const cases: [string, string, Record<string, unknown>, string | null][] = [
    ["filter field with a statement", RATES, { filter: [{ field: "rate; drop table companies", op: "eq", value: "1" }] }, "filter[0].field"],
    ["filter field quoted", RATES, { filter: [{ field: '"rate"', op: "eq", value: "1" }] }, "filter[0].field"],
    ["filter field 1=1", RATES, { filter: [{ field: "1=1", op: "eq", value: "1" }] }, "filter[0].field"],
    ["filter field closing a parenthesis", RATES, { filter: [{ field: "rate) or (1=1", op: "gte", value: "0" }] }, "filter[0].field"],
    ["filter field with a comment", SERIES, { filter: [{ field: "year --", op: "eq", value: 1 }] }, "filter[0].field"],
    ["sort field with a subquery", RATES, { sort: [{ field: "currency_code desc, (select pg_sleep(2))" }] }, "sort[0].field"],
    ["sort field with a statement", COMPANIES, { sort: [{ field: "name; delete from companies" }] }, "sort[0].field"],
    ["sort dir with a statement", RATES, { sort: [{ field: "date", dir: "asc; drop table exchange_rates" }] }, "sort[0].dir"],
    ["totals field with a statement", RATES, { totals: ["rate) from exchange_rates; drop table number_series; --"] }, "totals[0]"],
    ["op with SQL", RATES, { filter: [{ field: "rate", op: "= 1 or 1=1 --", value: "1" }] }, "filter[0].op"],
    ["eq value ' or 1=1 --", RATES, { filter: [Y2021, { field: "currencyCode", op: "eq", value: "' or 1=1 --" }] }, null],
    ["eq value with a statement", RATES, { filter: [Y2021, { field: "currencyCode", op: "eq", value: "'; drop table exchange_rates; --" }] }, null],
    [
      "ne value is compared, not executed",
      RATES,
      { filter: [Y2021, { field: "currencyCode", op: "ne", value: "HUF' or '1'='1" }, { field: "currencyCode", op: "eq", value: "x" }] },
      null,
    ],
    ["contains value %", RATES, { filter: [Y2021, { field: "currencyCode", op: "contains", value: "%" }] }, null],
    ["contains value _", RATES, { filter: [Y2021, { field: "currencyCode", op: "contains", value: "_" }] }, null],
    ["contains value with a quote", SERIES, { filter: [{ field: "prefix", op: "contains", value: "' or ''='" }] }, null],
    ["in values with quotes", RATES, { filter: [Y2021, { field: "currencyCode", op: "in", value: ["HUF') or ('1'='1", "x"] }] }, null],
    ["string gte value with a subquery", COMPANIES, { filter: [{ field: "name", op: "gte", value: "z' or (select pg_sleep(2)) is null --" }] }, null],
    ["decimal value with SQL", RATES, { filter: [Y2021, { field: "rate", op: "eq", value: "1 or 1=1" }] }, "filter[1].value"],
    ["date value with SQL", RATES, { filter: [{ field: "date", op: "eq", value: "2021-06-01' or '1'='1" }] }, "filter[0].value"],
    ["uuid value with SQL", SERIES, { filter: [{ field: "id", op: "eq", value: "' or 1=1 --" }] }, "filter[0].value"],
    [
      "timestamp value with SQL",
      SERIES,
      { filter: [{ field: "createdAt", op: "gte", value: "2020-01-01'; drop table number_series; --" }] },
      "filter[0].value",
    ],
  ];

  test.each(cases)("%s", async (_label, path, body, field) => {
    const options = path === COMPANIES ? { key: a.apiKey } : asA;
    // An injected statement that made the database wait would show here (bound: test/support/timing.ts).
    const started = Date.now();
    const res = await h.post(path, body, options);
    expect(Date.now() - started).toBeLessThan(AT_ONCE_MS);
    if (field) return expectInvalid(res, field);
    expect(res.status).toBe(200);
    expect(res.body.rows).toEqual([]);
    expect(res.body.total).toBe(0);
  });

  test("afterwards every table exists and no row count changed", async () => {
    const exist = await h.db.raw<{ rows: { t: string | null }[] }>(
      `select to_regclass(t)::text as t from unnest(array['companies', 'exchange_rates', 'exchange_rate_overrides', 'number_series', 'api_keys', 'accounts']) as t`,
    );
    expect(exist.rows.map((r) => r.t)).toEqual(["companies", "exchange_rates", "exchange_rate_overrides", "number_series", "api_keys", "accounts"]);
    expect(await counts()).toEqual(before);
    const huf = await ok(h.post(RATES, { filter: [{ field: "currencyCode", op: "eq", value: "HUF" }] }, asA));
    expect(huf.rows).toEqual([{ currencyCode: "HUF", date: "2021-06-01", rate: "350" }]);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Tenancy: another company's overrides and series never appear; api-keys and companies stay in the account.
// ---------------------------------------------------------------------------------------------------------

describe("tenancy", () => {
  test("exchange-rates/list: b's overrides neither replace a's rates nor add rows", async () => {
    const res = await ok(h.post(RATES, { filter: [{ field: "currencyCode", op: "in", value: ["GBP", "CHF"] }, ...Y2024], pageSize: 500 }, asA));
    expect(sorted(res.rows.map(rateKey))).toEqual([GBP1, GBP2]);
    const asB = await ok(
      h.post(
        RATES,
        { filter: [{ field: "currencyCode", op: "in", value: ["GBP", "CHF"] }, ...Y2024], pageSize: 500 },
        { key: b.apiKey, companyId: b.companyId },
      ),
    );
    expect(sorted(asB.rows.map(rateKey))).toEqual(["CHF 2024-01-01 0.95", "GBP 2024-01-01 9.99", GBP2]);
  });

  test("overrides/list: only the company's own, even when filtered by b's values", async () => {
    const all = await ok(h.post(OVERRIDES, { pageSize: 500 }, asA));
    const mine = await h.db("exchange_rate_overrides").where({ company_id: a.companyId }).count<{ count: string }[]>("* as count");
    expect(all.total).toBe(Number(mine[0].count));
    expect(all.rows.every((r: { setByKeyId: string }) => r.setByKeyId === a.keyId)).toBe(true);
    const probe = await ok(h.post(OVERRIDES, { filter: [{ field: "rate", op: "in", value: ["9.99", "0.95", "5555.5"] }], totals: ["rate"] }, asA));
    expect(probe).toMatchObject({ rows: [], total: 0, totals: { rate: "0" } });
  });

  test("series/list: b's series never appears, not even by its id or prefix", async () => {
    const all = await ok(h.post(SERIES, { pageSize: 500 }, asA));
    expect(sorted(all.rows.map(seriesKey))).toEqual(sorted([s1, s2, s3, s4]));
    for (const filter of [
      { field: "id", op: "eq", value: SB.id },
      { field: "prefix", op: "eq", value: "BX" },
    ]) {
      expect(await ok(h.post(SERIES, { filter: [filter] }, asA))).toMatchObject({ rows: [], total: 0 });
    }
    const asB = await ok(h.post(SERIES, {}, { key: b.apiKey, companyId: b.companyId }));
    expect(asB.rows.map(seriesKey)).toEqual(["BX/2024"]);
  });

  test("companies/list and api-keys/list: only the caller's account", async () => {
    const companies = await ok(h.post(COMPANIES, { pageSize: 500 }, { key: a.apiKey }));
    expect(companies.rows.map((r: { id: string }) => r.id)).toEqual([a.companyId]);
    const probe = await ok(h.post(COMPANIES, { filter: [{ field: "id", op: "in", value: [b.companyId, C1.id] }] }, { key: a.apiKey }));
    expect(probe).toMatchObject({ rows: [], total: 0 });
    const keys = await ok(h.post(KEYS, { pageSize: 500 }, { key: a.apiKey }));
    expect(keys.rows.map((r: { id: string }) => r.id)).toEqual([a.keyId]);
    const keyProbe = await ok(h.post(KEYS, { filter: [{ field: "id", op: "eq", value: b.keyId }] }, { key: a.apiKey }));
    expect(keyProbe).toMatchObject({ rows: [], total: 0 });
  });
});

// ---------------------------------------------------------------------------------------------------------
// api-keys/list through the engine: string, uuid and a nullable timestamp.
// ---------------------------------------------------------------------------------------------------------

describe("api-keys/list", () => {
  let owner: { apiKey: string; keyId: string };
  let first: { id: string; prefix: string };
  let second: { id: string };

  beforeAll(async () => {
    owner = await h.bootstrap("Keys list account");
    first = await ok(h.post("/v1/account/api-keys/create", { name: "Pirmas", scopes: ["ledger:read"] }, { key: owner.apiKey }));
    second = await ok(h.post("/v1/account/api-keys/create", { name: "Antras", scopes: ["ledger:read"] }, { key: owner.apiKey }));
    await ok(h.post("/v1/account/api-keys/revoke", { id: first.id }, { key: owner.apiKey }));
  });

  const cases: [string, Record<string, unknown>[], () => string[]][] = [
    ["revokedAt gte: only the revoked key", [{ field: "revokedAt", op: "gte", value: "2000-01-01" }], () => [first.id]],
    ["revokedAt ne: keys without a revocation are kept", [{ field: "revokedAt", op: "ne", value: "2000-01-01" }], () => [owner.keyId, first.id, second.id]],
    ["name in", [{ field: "name", op: "in", value: ["Pirmas", "Antras"] }], () => [first.id, second.id]],
    ["name contains", [{ field: "name", op: "contains", value: "AS" }], () => [first.id, second.id]],
    ["prefix eq", [{ field: "prefix", op: "eq", value: "" }], () => []],
    ["id ne", [{ field: "id", op: "ne", value: "00000000-0000-4000-8000-000000000000" }], () => [owner.keyId, first.id, second.id]],
    ["createdAt in the future", [{ field: "createdAt", op: "gte", value: "2199-01-01T00:00:00Z" }], () => []],
  ];

  test.each(cases)("%s", async (_label, filter, expected) => {
    const res = await ok(h.post(KEYS, { filter, pageSize: 500 }, { key: owner.apiKey }));
    expect(sorted(res.rows.map((r: { id: string }) => r.id))).toEqual(sorted(expected()));
    expect(res.total).toBe(expected().length);
  });

  test("pageSize 1 pages through the keys newest first", async () => {
    const ids: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await ok(h.post(KEYS, { pageSize: 1, page }, { key: owner.apiKey }));
      expect(res.total).toBe(3);
      ids.push(res.rows[0].id);
    }
    expect(ids).toEqual([second.id, first.id, owner.keyId]);
  });
});
