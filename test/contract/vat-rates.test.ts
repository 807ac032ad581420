// reference/vat-rates/list: the VAT rates of the company's country with their validity, through the shared list
// engine. Lithuania is published (with the reform of 2026-01-01); other countries answer an empty list. Every call
// goes through the SDK; a body the contract forbids only through invalid().
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { startHarness, type Harness } from "../support/harness.js";
import { expectApiError, invalid } from "../support/expect.js";
import { keyWith } from "../support/keys.js";
import { world, type World } from "../support/world.js";
import type { AccountingApi, RequestBody, ResponseData } from "../../sdk/typescript/src/index.js";

type ListBody = RequestBody<"reference_vat_rates_list">;

let h: Harness;
let w: World;
/** Today in Vilnius by the database's clock: what validToday is computed against. */
let today: string;

beforeAll(async () => {
  h = await startHarness();
  w = await world(h, { chart: false });
  const { rows } = await h.db.raw<{ rows: { today: string }[] }>("select to_char((now() at time zone 'Europe/Vilnius')::date, 'YYYY-MM-DD') as today");
  today = rows[0].today;
});
afterAll(() => h.close());

const list = (body: ListBody, client: AccountingApi = w.api) => client.reference.vatRates.list(body);
const summary = (page: ResponseData<"reference_vat_rates_list">) => page.rows.map((r) => `${r.rate} ${r.validFrom}..${r.validTo ?? ""}`);

describe("Lithuania", () => {
  test("every row, newest first, with validity and today's flag", async () => {
    const res = await list({});
    expect(res).toMatchObject({ page: 1, pageSize: 50, total: 6 });
    expect(summary(res)).toEqual([
      "12.00 2026-01-01..",
      "5.00 2026-01-01..",
      "21.00 2025-01-01..",
      "9.00 2025-01-01..2025-12-31",
      "5.00 2025-01-01..2025-12-31",
      "0.00 2025-01-01..",
    ]);
    // validToday is each row's validity on the database's today (in Vilnius), whatever that day is.
    expect(res.rows.map((r) => [r.kind, r.validToday])).toEqual(
      res.rows.map((r) => [r.kind, r.validFrom <= today && (r.validTo === null || today <= r.validTo)]),
    );
    expect(res.rows.map((r) => r.kind)).toEqual(["reduced", "reduced", "standard", "reduced", "reduced", "zero"]);
    for (const row of res.rows) {
      expect(row.countryCode).toBe("LT");
      expect(row.description.length).toBeGreaterThan(10);
    }
    expect(res.rows[0].description).toMatch(/accommodation/i);
  });

  test("validToday filters on the database's today", async () => {
    const all = await list({});
    const validNow = all.rows.filter((r) => r.validFrom <= today && (r.validTo === null || today <= r.validTo));
    const valid = await list({ filter: [{ field: "validToday", op: "eq", value: true }] });
    expect(summary(valid)).toEqual(summary({ ...all, rows: validNow }));
    const invalidNow = await list({ filter: [{ field: "validToday", op: "ne", value: true }] });
    expect(summary(invalidNow)).toEqual(summary({ ...all, rows: all.rows.filter((r) => !validNow.includes(r)) }));
    expect(valid.total + invalidNow.total).toBe(6);
  });

  test.each<{ name: string; body: ListBody; rows: string[] }>([
    {
      name: "valid on 2025-06-30 (from <= day, to >= day)",
      body: {
        filter: [
          { field: "validFrom", op: "lte", value: "2025-06-30" },
          { field: "validTo", op: "gte", value: "2025-06-30" },
        ],
      },
      rows: ["9.00 2025-01-01..2025-12-31", "5.00 2025-01-01..2025-12-31"],
    },
    { name: "kind standard", body: { filter: [{ field: "kind", op: "eq", value: "standard" }] }, rows: ["21.00 2025-01-01.."] },
    {
      name: "rate in 5, 9 (decimal compare)",
      body: { filter: [{ field: "rate", op: "in", value: ["5", 9] }] },
      rows: ["5.00 2026-01-01..", "9.00 2025-01-01..2025-12-31", "5.00 2025-01-01..2025-12-31"],
    },
    { name: "rate gte 12", body: { filter: [{ field: "rate", op: "gte", value: "12" }] }, rows: ["12.00 2026-01-01..", "21.00 2025-01-01.."] },
    {
      name: "sort by rate ascending",
      body: { sort: [{ field: "rate" }, { field: "validFrom" }] },
      rows: [
        "0.00 2025-01-01..",
        "5.00 2025-01-01..2025-12-31",
        "5.00 2026-01-01..",
        "9.00 2025-01-01..2025-12-31",
        "12.00 2026-01-01..",
        "21.00 2025-01-01..",
      ],
    },
  ])("$name", async ({ body, rows }) => {
    const res = await list(body);
    expect(summary(res)).toEqual(rows);
    expect(res.total).toBe(rows.length);
  });

  test("pages", async () => {
    const second = await list({ pageSize: 4, page: 2 });
    expect([summary(second), second.total]).toEqual([["5.00 2025-01-01..2025-12-31", "0.00 2025-01-01.."], 6]);
  });

  test.each([
    { name: "totals of rate (this list totals nothing: the contract takes no totals)", body: { totals: ["rate"] }, field: "totals", also: ["totals[0]"] },
    { name: "filter on description", body: { filter: [{ field: "description", op: "contains", value: "x" }] }, field: "filter[0].field" },
    { name: "a date filter that is no date", body: { filter: [{ field: "validFrom", op: "gte", value: "2026-13-01" }] }, field: "filter[0].value" },
    { name: "validToday with a string", body: { filter: [{ field: "validToday", op: "eq", value: "yes" }] }, field: "filter[0].value" },
  ])("$name -> 400 naming $field", async ({ body, field, also }: { body: object; field: string; also?: string[] }) => {
    const error = await expectApiError(list(invalid(body)), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {}).sort()).toEqual([field, ...(also ?? [])].sort());
  });
});

describe("other countries and access", () => {
  test("a country whose rates are not published answers an empty list", async () => {
    const lv = await world(h, { chart: false, company: { countryCode: "LV" } });
    expect(await list({}, lv.api)).toEqual({ rows: [], page: 1, pageSize: 50, total: 0 });
  });

  test("another account's company -> 404; no company -> 400 naming X-Company-Id", async () => {
    const other = await world(h, { chart: false });
    await expectApiError(w.api.reference.vatRates.list({}, { companyId: other.companyId }), 404, "not_found");
    const error = await expectApiError(h.sdk(w.apiKey).reference.vatRates.list({}), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["X-Company-Id"]);
  });

  test("the scope is reference:read", async () => {
    const catalog = await keyWith(h, w.apiKey, ["catalog:write"], { name: "Katalogas", companyId: w.companyId });
    await expectApiError(list({}, catalog.api), 403, "forbidden");
    const reader = await keyWith(h, w.apiKey, ["reference:read"], { name: "Žinynai", companyId: w.companyId });
    expect((await list({}, reader.api)).total).toBe(6);
  });
});
