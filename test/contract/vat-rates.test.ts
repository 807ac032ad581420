// reference/vat-rates/list: the VAT rates of the company's country with their validity, through the shared list
// engine. Lithuania is published (with the reform of 2026-01-01); other countries answer an empty list.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { startHarness, type ApiResponse, type Harness } from "../support/harness.js";
import { expectError } from "../support/expect.js";

let h: Harness;
let key: string;
let companyId: string;

beforeAll(async () => {
  h = await startHarness();
  ({ apiKey: key, companyId } = await h.tenant());
});
afterAll(() => h.close());

const LIST = "/v1/reference/vat-rates/list";
const list = (body: object, o: { key?: string; companyId?: string } = {}) => h.post(LIST, body, { key: o.key ?? key, companyId: o.companyId ?? companyId });
const summary = (res: ApiResponse) =>
  res.body.rows.map((r: { rate: string; validFrom: string; validTo: string | null }) => `${r.rate} ${r.validFrom}..${r.validTo ?? ""}`);

// This test runs after 2026-01-01: the 9% rows (and the 2025 scope of 5%) are history.
const today = new Date().toISOString().slice(0, 10);

describe("Lithuania", () => {
  test("every row, newest first, with validity and today's flag", async () => {
    const res = await list({});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ page: 1, pageSize: 50, total: 6 });
    expect(summary(res)).toEqual([
      "12.00 2026-01-01..",
      "5.00 2026-01-01..",
      "21.00 2025-01-01..",
      "9.00 2025-01-01..2025-12-31",
      "5.00 2025-01-01..2025-12-31",
      "0.00 2025-01-01..",
    ]);
    expect(today >= "2026-01-01").toBe(true);
    expect(res.body.rows.map((r: { kind: string; validToday: boolean }) => [r.kind, r.validToday])).toEqual([
      ["reduced", true],
      ["reduced", true],
      ["standard", true],
      ["reduced", false],
      ["reduced", false],
      ["zero", true],
    ]);
    for (const row of res.body.rows) {
      expect(row.countryCode).toBe("LT");
      expect(row.description.length).toBeGreaterThan(10);
    }
    expect(res.body.rows[0].description).toMatch(/accommodation/i);
  });

  test.each([
    {
      name: "valid today",
      body: { filter: [{ field: "validToday", op: "eq", value: true }] },
      rows: ["12.00 2026-01-01..", "5.00 2026-01-01..", "21.00 2025-01-01..", "0.00 2025-01-01.."],
    },
    {
      name: "no longer valid",
      body: { filter: [{ field: "validToday", op: "ne", value: true }] },
      rows: ["9.00 2025-01-01..2025-12-31", "5.00 2025-01-01..2025-12-31"],
    },
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
    expect(res.status).toBe(200);
    expect(summary(res)).toEqual(rows);
    expect(res.body.total).toBe(rows.length);
  });

  test("pages", async () => {
    const second = await list({ pageSize: 4, page: 2 });
    expect([summary(second), second.body.total]).toEqual([["5.00 2025-01-01..2025-12-31", "0.00 2025-01-01.."], 6]);
  });

  test.each([
    { name: "totals of rate (this list totals nothing: the contract takes no totals)", body: { totals: ["rate"] }, field: "totals", also: ["totals[0]"] },
    { name: "filter on description", body: { filter: [{ field: "description", op: "contains", value: "x" }] }, field: "filter[0].field" },
    { name: "a date filter that is no date", body: { filter: [{ field: "validFrom", op: "gte", value: "2026-13-01" }] }, field: "filter[0].value" },
    { name: "validToday with a string", body: { filter: [{ field: "validToday", op: "eq", value: "yes" }] }, field: "filter[0].value" },
  ])("$name -> 400 naming $field", async ({ body, field, also }: { body: object; field: string; also?: string[] }) => {
    const res = await list(body);
    expectError(res, 400, "validation");
    expect(Object.keys(res.body.error.fieldErrors).sort()).toEqual([field, ...(also ?? [])].sort());
  });
});

describe("other countries and access", () => {
  test("a country whose rates are not published answers an empty list", async () => {
    const lv = await h.tenant({ countryCode: "LV" });
    const res = await list({}, { key: lv.apiKey, companyId: lv.companyId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ rows: [], page: 1, pageSize: 50, total: 0 });
  });

  test("another account's company -> 404; no company -> 400 naming X-Company-Id", async () => {
    const other = await h.tenant();
    expectError(await list({}, { companyId: other.companyId }), 404, "not_found");
    const res = await h.post(LIST, {}, { key });
    expectError(res, 400, "validation");
    expect(Object.keys(res.body.error.fieldErrors)).toEqual(["X-Company-Id"]);
  });

  test("the scope is reference:read", async () => {
    const created = await h.post("/v1/account/api-keys/create", { name: "Katalogas", scopes: ["catalog:write"] }, { key });
    expectError(await list({}, { key: created.body.key }), 403, "forbidden");
    const reader = await h.post("/v1/account/api-keys/create", { name: "Žinynai", scopes: ["reference:read"] }, { key });
    expect((await list({}, { key: reader.body.key })).status).toBe(200);
  });
});
