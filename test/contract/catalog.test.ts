// catalog/items/create, get, list, update and delete: the item's shape, decimal prices end to end, barcode check
// digits, the VAT rate checked against the company's country's rates of today, code uniqueness, deletes refused
// while referenced, and tenancy. Every call goes through the SDK and the shared world; a body the contract forbids
// only through invalid().
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { startHarness, type Harness } from "../support/harness.js";
import { expectApiError, invalid } from "../support/expect.js";
import { keyWith } from "../support/keys.js";
import { UUID, ISO_INSTANT as ISO } from "../support/patterns.js";
import { sleep } from "../support/timing.js";
import { world, type World } from "../support/world.js";
import type { AccountingApi, RequestBody, ResponseData } from "../../sdk/typescript/src/index.js";

type Item = ResponseData<"catalog_items_create">;
type CreateBody = RequestBody<"catalog_items_create">;
type ListBody = RequestBody<"catalog_items_list">;

let h: Harness;
let w: World;
let key: string;
let companyId: string;
/** The SDK client of the main tenant's company. */
let api: AccountingApi;

beforeAll(async () => {
  h = await startHarness();
  w = await world(h, { chart: false });
  ({ apiKey: key, companyId, api } = w);
});
afterAll(() => h.close());

const NO_SUCH_ID = "00000000-0000-4000-8000-000000000000";

let seq = 0;
const code = (prefix = "I") => `${prefix}-${Date.now().toString(36)}-${++seq}`;
const MINIMAL = { name: "Kava", type: "product", unit: "kg", vatRatePercent: "21" } as const;

/** An item of MINIMAL with a fresh code and `body` over it, created by `client` (the main tenant's by default). */
const createItem = (body: Partial<CreateBody>, client: AccountingApi = api): Promise<Item> =>
  client.catalog.items.create({ ...MINIMAL, code: code(), ...body });

describe("create", () => {
  test("returns every field with defaults; decimals come back in their canonical scale and are numeric columns", async () => {
    const c = code("COFFEE");
    const item = await api.catalog.items.create({ ...MINIMAL, code: c, salePriceExclVat: "12.5", barcode: "4006381333931" });
    expect(item).toEqual({
      id: expect.stringMatching(UUID),
      code: c,
      name: "Kava",
      type: "product",
      unit: "kg",
      barcode: "4006381333931",
      vatRatePercent: "21.00",
      vatClassifier: "PVM1",
      salePriceExclVat: "12.500000",
      purchasePriceExclVat: null,
      tracking: "none",
      revenueAccountCode: null,
      expenseAccountCode: null,
      active: true,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    const row = await h.db("catalog_items").where({ company_id: companyId, id: item.id }).first();
    expect(row).toMatchObject({
      code: c,
      vat_rate_percent: "21.00",
      vat_classifier: "PVM1",
      sale_price_excl_vat: "12.500000",
      purchase_price_excl_vat: null,
      tracking: "none",
      active: true,
    });
    const types = await h.db.raw(
      "select data_type from information_schema.columns where table_name = 'catalog_items' and column_name in ('vat_rate_percent', 'sale_price_excl_vat', 'purchase_price_excl_vat')",
    );
    expect(types.rows.map((r: { data_type: string }) => r.data_type)).toEqual(["numeric", "numeric", "numeric"]);
  });

  test("the largest price keeps every digit (no float on the way)", async () => {
    const item = await createItem({ salePriceExclVat: "999999999999999.999999", purchasePriceExclVat: "0.000001" });
    expect([item.salePriceExclVat, item.purchasePriceExclVat]).toEqual(["999999999999999.999999", "0.000001"]);
    expect(await h.db("catalog_items").where({ id: item.id }).first()).toMatchObject({
      sale_price_excl_vat: "999999999999999.999999",
      purchase_price_excl_vat: "0.000001",
    });
  });

  test.each<{ name: string; body: Partial<CreateBody> }>([
    { name: "a service tracked by serial, inactive", body: { type: "service", tracking: "serial", active: false, unit: "h" } },
    { name: "tracking by lot", body: { tracking: "lot" } },
    { name: "a unit of 16 characters", body: { unit: "x".repeat(16) } },
    { name: "a unit of 1 character", body: { unit: "m" } },
    { name: "EAN-8", body: { barcode: "96385074" } },
    { name: "UPC-E (8 digits, check digit of its UPC-A 042100005264)", body: { barcode: "04252614" } },
    { name: "UPC-A", body: { barcode: "036000291452" } },
    { name: "EAN-13", body: { barcode: "5901234123457" } },
    { name: "a free-text barcode", body: { barcode: "ABC-123/x" } },
    { name: "14 digits (free text, no check)", body: { barcode: "12345678901234" } },
    { name: "10 digits (free text, no check)", body: { barcode: "1234567890" } },
    { name: "a barcode of 64 characters", body: { barcode: "B".repeat(64) } },
    { name: "prices of 0", body: { salePriceExclVat: "0", purchasePriceExclVat: "0" } },
  ])("$name is accepted", async ({ body }) => {
    const item = await createItem(body);
    expect(item).toMatchObject(Object.fromEntries(Object.entries(body).filter(([k]) => !k.endsWith("ExclVat"))));
    expect(await h.db("catalog_items").where({ company_id: companyId, id: item.id }).first()).toMatchObject({
      type: item.type,
      unit: item.unit,
      barcode: item.barcode,
      tracking: item.tracking,
      active: item.active,
      sale_price_excl_vat: item.salePriceExclVat,
      purchase_price_excl_vat: item.purchasePriceExclVat,
    });
  });

  test.each([
    { name: "EAN-13 with a wrong check digit", barcode: "4006381333932", kind: "EAN-13" },
    { name: "EAN-8 with a wrong check digit", barcode: "96385075", kind: "EAN-8" },
    { name: "UPC-A with a wrong check digit", barcode: "036000291453", kind: "UPC-A" },
    { name: "8 digits neither an EAN-8 nor a UPC-E", barcode: "04252615", kind: "UPC-E" },
  ])("$name -> 422 barcode.invalid_checksum naming barcode, nothing stored", async ({ barcode, kind }) => {
    const c = code("BAR");
    const error = await expectApiError(api.catalog.items.create({ ...MINIMAL, code: c, barcode }), 422, "unprocessable", "barcode.invalid_checksum");
    expect(error.fieldErrors).toEqual({ barcode: [expect.stringContaining(kind)] });
    expect(await h.db("catalog_items").where({ company_id: companyId, code: c })).toHaveLength(0);
  });

  // An item is master data with no tax point: its classifier must carry its rate in some period, never "today"
  // (a document line's rate is checked at its tax point date, test/contract/vat-classifiers.test.ts).
  test.each<{ name: string; body: Partial<CreateBody>; rate: string; classifier: string }>([
    { name: "21 alone names PVM1", body: { vatRatePercent: "21" }, rate: "21.00", classifier: "PVM1" },
    { name: "21.00 with PVM1", body: { vatRatePercent: "21.00", vatClassifier: "PVM1" }, rate: "21.00", classifier: "PVM1" },
    { name: "12 alone names PVM58 (from 2026-01-01)", body: { vatRatePercent: "12" }, rate: "12.00", classifier: "PVM58" },
    { name: "5.0 alone names PVM3", body: { vatRatePercent: "5.0" }, rate: "5.00", classifier: "PVM3" },
    { name: "9 alone names PVM2 (a supply of December 2025 may still be invoiced)", body: { vatRatePercent: "9" }, rate: "9.00", classifier: "PVM2" },
    { name: "0 with PVM13 (intra-Community supply)", body: { vatRatePercent: "0", vatClassifier: "PVM13" }, rate: "0.00", classifier: "PVM13" },
    { name: "0 with PVM5 (exempt)", body: { vatRatePercent: "0", vatClassifier: "PVM5" }, rate: "0.00", classifier: "PVM5" },
    { name: "21 with PVM21 (reverse charge)", body: { vatRatePercent: "21", vatClassifier: "PVM21" }, rate: "21.00", classifier: "PVM21" },
  ])("$name -> stored with its classifier", async ({ body, rate, classifier }) => {
    const item = await createItem(body);
    expect(item).toMatchObject({ vatRatePercent: rate, vatClassifier: classifier });
    const row = await h.db("catalog_items").where({ company_id: companyId, id: item.id }).first();
    expect(row).toMatchObject({ vat_rate_percent: rate, vat_classifier: classifier });
  });

  test.each<{ name: string; body: Partial<CreateBody>; field: string; errorKey: string; message: string }>([
    {
      name: "7 (never an LT rate)",
      body: { vatRatePercent: "7" },
      field: "vatRatePercent",
      errorKey: "vat_rate.unknown",
      message: "0.00, 5.00, 9.00, 12.00, 21.00",
    },
    { name: "21.5", body: { vatRatePercent: "21.5" }, field: "vatRatePercent", errorKey: "vat_rate.unknown", message: "0.00, 5.00, 9.00, 12.00, 21.00" },
    { name: "100", body: { vatRatePercent: "100" }, field: "vatRatePercent", errorKey: "vat_rate.unknown", message: "one of" },
    {
      name: "0 without a classifier (shared by PVM5, PVM12, PVM13…)",
      body: { vatRatePercent: "0" },
      field: "vatClassifier",
      errorKey: "vat_classifier.required",
      message: "PVM13",
    },
    {
      name: "PVM1 at 9%",
      body: { vatRatePercent: "9", vatClassifier: "PVM1" },
      field: "vatRatePercent",
      errorKey: "vat_classifier.rate_mismatch",
      message: "21.00",
    },
    {
      name: "PVM58 at 9% (the 12% rate is not the 9% rate)",
      body: { vatRatePercent: "9", vatClassifier: "PVM58" },
      field: "vatRatePercent",
      errorKey: "vat_classifier.rate_mismatch",
      message: "12.00",
    },
    {
      name: "PVM99 (no such classifier)",
      body: { vatRatePercent: "21", vatClassifier: "PVM99" },
      field: "vatClassifier",
      errorKey: "vat_classifier.unknown",
      message: "PVM99",
    },
  ])("$name -> 422 $errorKey naming $field, nothing stored", async ({ body, field, errorKey, message }) => {
    const c = code("VAT");
    const error = await expectApiError(api.catalog.items.create({ ...MINIMAL, code: c, ...body }), 422, "unprocessable", errorKey);
    expect(error.fieldErrors).toEqual({ [field]: [expect.stringContaining(message)] });
    expect(await h.db("catalog_items").where({ company_id: companyId, code: c })).toHaveLength(0);
  });

  test("a classifier outside the contract's pattern -> 400", async () => {
    const c = code();
    const error = await expectApiError(api.catalog.items.create({ ...MINIMAL, code: c, vatClassifier: "VAT1" }), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["vatClassifier"]);
    expect(await h.db("catalog_items").where({ company_id: companyId, code: c })).toHaveLength(0);
  });

  test("a country without published rates (LV) accepts any rate", async () => {
    const lv = await world(h, { chart: false, company: { countryCode: "LV" } });
    const item = await createItem({ vatRatePercent: "9" }, lv.api);
    expect(item).toMatchObject({ vatRatePercent: "9.00", vatClassifier: null });
    expect(await h.db("catalog_items").where({ company_id: lv.companyId, id: item.id }).first()).toMatchObject({
      vat_rate_percent: "9.00",
      vat_classifier: null,
    });
  });

  test("a bad barcode and an unknown rate together -> 422 catalog_item.invalid_fields naming both", async () => {
    const c = code();
    const error = await expectApiError(
      api.catalog.items.create({ ...MINIMAL, code: c, vatRatePercent: "7", barcode: "96385075" }),
      422,
      "unprocessable",
      "catalog_item.invalid_fields",
    );
    expect(Object.keys(error.fieldErrors ?? {}).sort()).toEqual(["barcode", "vatRatePercent"]);
    expect(await h.db("catalog_items").where({ company_id: companyId, code: c })).toHaveLength(0);
  });

  test.each([
    {
      name: "no type, unit, name, code or rate",
      body: { code: undefined, name: undefined, type: undefined, unit: undefined, vatRatePercent: undefined },
      fields: ["code", "name", "type", "unit", "vatRatePercent"],
    },
    { name: "type goods", body: { type: "goods" }, fields: ["type"] },
    { name: "tracking batch", body: { tracking: "batch" }, fields: ["tracking"] },
    { name: "an empty unit", body: { unit: "" }, fields: ["unit"] },
    { name: "a unit of 17 characters", body: { unit: "x".repeat(17) }, fields: ["unit"] },
    { name: "a unit with a leading space", body: { unit: " kg" }, fields: ["unit"] },
    { name: "a barcode of 65 characters", body: { barcode: "B".repeat(65) }, fields: ["barcode"] },
    { name: "a negative price", body: { salePriceExclVat: "-1" }, fields: ["salePriceExclVat"] },
    { name: "a price with 7 decimals", body: { purchasePriceExclVat: "1.1234567" }, fields: ["purchasePriceExclVat"] },
    { name: "a price as a JSON number", body: { salePriceExclVat: 12.5 }, fields: ["salePriceExclVat"] },
    { name: "a price of 16 integer digits", body: { salePriceExclVat: "1000000000000000" }, fields: ["salePriceExclVat"] },
    { name: "a rate above 100", body: { vatRatePercent: "101" }, fields: ["vatRatePercent"] },
    { name: "a rate with 3 decimals", body: { vatRatePercent: "21.001" }, fields: ["vatRatePercent"] },
    { name: "a rate as a JSON number", body: { vatRatePercent: 21 }, fields: ["vatRatePercent"] },
    { name: "active as a string", body: { active: "true" }, fields: ["active"] },
    { name: "barcode null on create", body: { barcode: null }, fields: ["barcode"] },
    { name: "an unknown property", body: { price: "1" }, fields: ["price"] },
  ])("$name -> 400 naming $fields", async ({ body, fields }) => {
    const before = await h.db("catalog_items").where({ company_id: companyId }).count({ n: "*" }).first();
    const error = await expectApiError(api.catalog.items.create(invalid({ ...MINIMAL, code: code(), ...body })), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {}).sort()).toEqual(fields);
    expect(await h.db("catalog_items").where({ company_id: companyId }).count({ n: "*" }).first()).toEqual(before);
  });

  test("a duplicate code -> 409 catalog_item.code_taken; the same code in another company is fine", async () => {
    const c = code("DUP");
    const first = await createItem({ code: c });
    const error = await expectApiError(api.catalog.items.create({ ...MINIMAL, code: c, name: "Antras" }), 409, "conflict", "catalog_item.code_taken");
    expect(error.params).toMatchObject({ code: c });
    expect(await h.db("catalog_items").where({ company_id: companyId, code: c })).toEqual([expect.objectContaining({ id: first.id, name: "Kava" })]);
    const other = await world(h, { chart: false });
    const theirs = await other.api.catalog.items.create({ ...MINIMAL, code: c });
    expect(await h.db("catalog_items").where({ code: c }).orderBy("created_at").pluck("company_id")).toEqual([companyId, other.companyId]);
    expect(theirs.id).not.toBe(first.id);
  });

  test("another account's company -> 404; a key without catalog scope -> 403", async () => {
    const other = await world(h, { chart: false });
    const c1 = code();
    await expectApiError(api.catalog.items.create({ ...MINIMAL, code: c1 }, { companyId: other.companyId }), 404, "not_found");
    const readOnly = await keyWith(h, key, ["catalog:read"], { name: "Skaitytojas", companyId });
    const c2 = code();
    await expectApiError(createItem({ code: c2 }, readOnly.api), 403, "forbidden");
    expect(await h.db("catalog_items").whereIn("code", [c1, c2])).toHaveLength(0);
    const listed = await readOnly.api.catalog.items.list({ pageSize: 500 });
    expect(listed.total).toBe(Number((await h.db("catalog_items").where({ company_id: companyId }).count({ n: "*" }).first())?.n));
  });
});

describe("default accounts of the item's document lines", () => {
  let chartCompany: string;
  let chart: AccountingApi;
  beforeAll(async () => {
    ({ companyId: chartCompany, api: chart } = await world(h));
  });

  test("a postable income account for sales and an expense or asset account for purchases are kept; null clears them", async () => {
    const created = await createItem({ revenueAccountCode: "5001", expenseAccountCode: "2040" }, chart);
    expect(created).toMatchObject({ revenueAccountCode: "5001", expenseAccountCode: "2040" });
    expect(await h.db("catalog_items").where({ company_id: chartCompany, id: created.id }).first()).toMatchObject({
      revenue_account_code: "5001",
      expense_account_code: "2040",
    });
    const listed = await chart.catalog.items.list({ filter: [{ field: "revenueAccountCode", op: "eq", value: "5001" }] });
    expect(listed.rows.map((r) => r.id)).toEqual([created.id]);
    const cleared = await chart.catalog.items.update({ id: created.id, revenueAccountCode: null, expenseAccountCode: "6000" });
    expect(cleared).toMatchObject({ revenueAccountCode: null, expenseAccountCode: "6000" });
    expect(await h.db("catalog_items").where({ company_id: chartCompany, id: created.id }).first()).toMatchObject({
      revenue_account_code: null,
      expense_account_code: "6000",
    });
  });

  test.each<{ name: string; body: Partial<CreateBody>; field: string; message: RegExp }>([
    { name: "an unknown account", body: { revenueAccountCode: "5999" }, field: "revenueAccountCode", message: /5999 does not exist/ },
    { name: "a header account", body: { revenueAccountCode: "500" }, field: "revenueAccountCode", message: /500 is a header account/ },
    { name: "an expense account as revenue", body: { revenueAccountCode: "6000" }, field: "revenueAccountCode", message: /6000 is of type expense/ },
    { name: "an income account as cost", body: { expenseAccountCode: "5000" }, field: "expenseAccountCode", message: /5000 is of type income/ },
  ])("$name -> 422 catalog_item.account_invalid naming the field; nothing stored or changed", async ({ body, field, message }) => {
    const c = code();
    const error = await expectApiError(chart.catalog.items.create({ ...MINIMAL, code: c, ...body }), 422, "unprocessable", "catalog_item.account_invalid");
    expect(error.fieldErrors?.[field]?.[0]).toMatch(message);
    expect(await h.db("catalog_items").where({ company_id: chartCompany, code: c })).toHaveLength(0);
    const item = await createItem({}, chart);
    await expectApiError(chart.catalog.items.update({ id: item.id, ...body }), 422, "unprocessable", "catalog_item.account_invalid");
    expect(await h.db("catalog_items").where({ company_id: chartCompany, id: item.id }).first()).toMatchObject({
      revenue_account_code: null,
      expense_account_code: null,
    });
  });
});

describe("get", () => {
  test("by id and by code give the body create gave; unknown, both or neither fail", async () => {
    const item = await createItem({ barcode: "96385074", salePriceExclVat: "1.5" });
    expect(await api.catalog.items.get({ id: item.id })).toEqual(item);
    expect(await api.catalog.items.get({ code: item.code })).toEqual(item);
    const unknown = await expectApiError(api.catalog.items.get({ code: "NO-SUCH" }), 404, "not_found", "catalog_item.not_found");
    expect(unknown.params).toMatchObject({ code: "NO-SUCH" });
    await expectApiError(api.catalog.items.get(invalid({ id: item.id, code: item.code })), 400, "validation");
    await expectApiError(api.catalog.items.get(invalid({})), 400, "validation");
  });

  test("another company's item is not found", async () => {
    const other = await world(h, { chart: false });
    const theirs = await createItem({}, other.api);
    await expectApiError(api.catalog.items.get({ id: theirs.id }), 404, "not_found", "catalog_item.not_found");
    await expectApiError(api.catalog.items.get({ code: theirs.code }), 404, "not_found", "catalog_item.not_found");
  });
});

describe("update", () => {
  test("changes only the fields sent; null clears optional fields", async () => {
    const before = await createItem({ barcode: "96385074", salePriceExclVat: "10", purchasePriceExclVat: "7.25" });
    await sleep(20); // so that updatedAt can only move forward
    const updated = await api.catalog.items.update({ id: before.id, name: "Kava pupelėmis", barcode: null, purchasePriceExclVat: null, vatRatePercent: "12" });
    expect(updated).toEqual({
      ...before,
      name: "Kava pupelėmis",
      barcode: null,
      purchasePriceExclVat: null,
      vatRatePercent: "12.00",
      vatClassifier: "PVM58",
      updatedAt: expect.stringMatching(ISO),
    });
    expect(new Date(updated.updatedAt).getTime()).toBeGreaterThan(new Date(before.updatedAt).getTime());
    const row = await h.db("catalog_items").where({ company_id: companyId, id: before.id }).first();
    expect(row).toMatchObject({
      barcode: null,
      purchase_price_excl_vat: null,
      sale_price_excl_vat: "10.000000",
      vat_rate_percent: "12.00",
      vat_classifier: "PVM58",
    });
  });

  test("a new classifier alone is checked against the item's current rate", async () => {
    const before = await createItem({ vatRatePercent: "21" });
    expect(await api.catalog.items.update({ id: before.id, vatClassifier: "PVM25" })).toMatchObject({ vatRatePercent: "21.00", vatClassifier: "PVM25" });
    await expectApiError(api.catalog.items.update({ id: before.id, vatClassifier: "PVM3" }), 422, "unprocessable", "vat_classifier.rate_mismatch");
    expect(await h.db("catalog_items").where({ company_id: companyId, id: before.id }).first()).toMatchObject({ vat_classifier: "PVM25" });
  });

  test.each<{ name: string; body: Partial<CreateBody>; key: string }>([
    { name: "rate 7 (never an LT rate)", body: { vatRatePercent: "7" }, key: "vat_rate.unknown" },
    { name: "rate 0 without a classifier", body: { vatRatePercent: "0" }, key: "vat_classifier.required" },
    { name: "a bad EAN-13", body: { barcode: "5901234123458" }, key: "barcode.invalid_checksum" },
  ])("$name -> 422 $key, nothing changes", async ({ body, key: errorKey }) => {
    const before = await createItem({});
    await expectApiError(api.catalog.items.update({ id: before.id, name: "Neturi keistis", ...body }), 422, "unprocessable", errorKey);
    expect(await api.catalog.items.get({ id: before.id })).toEqual(before);
    expect((await h.db("catalog_items").where({ id: before.id }).first()).name).toBe("Kava");
  });

  test.each([
    { name: "vatRatePercent null", body: { vatRatePercent: null }, field: "vatRatePercent" },
    { name: "name null", body: { name: null }, field: "name" },
    { name: "type null", body: { type: null }, field: "type" },
    { name: "active null", body: { active: null }, field: "active" },
    { name: "a negative price", body: { salePriceExclVat: "-0.01" }, field: "salePriceExclVat" },
  ])("$name -> 400 naming $field", async ({ body, field }) => {
    const before = await createItem({});
    const error = await expectApiError(api.catalog.items.update(invalid({ id: before.id, ...body })), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual([field]);
    expect(await api.catalog.items.get({ id: before.id })).toEqual(before);
  });

  test("a new free code is taken; a code of another item is 409 catalog_item.code_taken", async () => {
    const a = await createItem({});
    const b = await createItem({});
    const fresh = code("NEW");
    expect((await api.catalog.items.update({ id: a.id, code: fresh })).code).toBe(fresh);
    await expectApiError(api.catalog.items.update({ id: a.id, code: b.code }), 409, "conflict", "catalog_item.code_taken");
    expect(await h.db("catalog_items").whereIn("id", [a.id, b.id]).orderBy("code").pluck("code")).toEqual([b.code, fresh].sort());
  });

  test("an unknown id or another account's item -> 404, theirs unchanged", async () => {
    await expectApiError(api.catalog.items.update({ id: NO_SUCH_ID, name: "X" }), 404, "not_found", "catalog_item.not_found");
    const other = await world(h, { chart: false });
    const theirs = await createItem({}, other.api);
    await expectApiError(api.catalog.items.update({ id: theirs.id, name: "Užgrobta" }), 404, "not_found", "catalog_item.not_found");
    expect((await h.db("catalog_items").where({ id: theirs.id }).first()).name).toBe("Kava");
  });
});

describe("delete", () => {
  test.each([
    { name: "by id", by: (i: Item): RequestBody<"catalog_items_delete"> => ({ id: i.id }) },
    { name: "by code", by: (i: Item): RequestBody<"catalog_items_delete"> => ({ code: i.code }) },
  ])("$name returns the item and removes the row", async ({ by }) => {
    const item = await createItem({ salePriceExclVat: "3" });
    expect(await api.catalog.items.delete(by(item))).toEqual(item);
    expect(await h.db("catalog_items").where({ company_id: companyId, id: item.id })).toHaveLength(0);
    await expectApiError(api.catalog.items.delete(by(item)), 404, "not_found", "catalog_item.not_found");
  });

  test("another account's item -> 404 and stays", async () => {
    const other = await world(h, { chart: false });
    const theirs = await createItem({}, other.api);
    await expectApiError(api.catalog.items.delete({ id: theirs.id }), 404, "not_found", "catalog_item.not_found");
    expect(await h.db("catalog_items").where({ id: theirs.id })).toHaveLength(1);
  });

  test("while a row references the item: delete and code change are 409 catalog_item.referenced", async () => {
    await h.db.raw(`
      create table test_item_refs (
        company_id uuid not null,
        id serial,
        item_code text not null,
        primary key (company_id, id),
        foreign key (company_id, item_code) references catalog_items (company_id, code)
      )`);
    const item = await createItem({});
    await h.db("test_item_refs").insert({ company_id: companyId, item_code: item.code });
    const del = await expectApiError(api.catalog.items.delete({ code: item.code }), 409, "conflict", "catalog_item.referenced");
    expect(del.params).toMatchObject({ id: item.id, code: item.code });
    await expectApiError(api.catalog.items.update({ id: item.id, code: code("X") }), 409, "conflict", "catalog_item.referenced");
    expect((await h.db("catalog_items").where({ company_id: companyId, id: item.id }).first()).code).toBe(item.code);
    await h.db("test_item_refs").delete();
    expect(await api.catalog.items.delete({ id: item.id })).toEqual(item);
    expect(await h.db("catalog_items").where({ id: item.id })).toHaveLength(0);
  });
});

describe("list", () => {
  let t: World;
  const list = (body: ListBody) => t.api.catalog.items.list(body);
  const codes = (page: ResponseData<"catalog_items_list">) => page.rows.map((r) => r.code);

  beforeAll(async () => {
    t = await world(h, { chart: false });
    const items: Partial<CreateBody>[] = [
      { code: "C", name: "Cukrus", salePriceExclVat: "1.10", purchasePriceExclVat: "0.80", vatRatePercent: "21" },
      { code: "A", name: "Arbata", salePriceExclVat: "0.333333", purchasePriceExclVat: "0.1", vatRatePercent: "21", barcode: "96385074" },
      { code: "K", name: "Knyga", salePriceExclVat: "15", vatRatePercent: "5", active: false },
      { code: "V", name: "Viešbutis", type: "service", unit: "naktis", vatRatePercent: "12" },
      { code: "E", name: "Eksportas", type: "service", unit: "vnt", salePriceExclVat: "100", vatRatePercent: "0", vatClassifier: "PVM14", tracking: "serial" },
    ];
    for (const item of items) await createItem(item, t.api);
    await createItem({ code: "A", salePriceExclVat: "1000" }); // another company's
  });

  test("default order is code; totals sum decimals exactly over every matching row", async () => {
    const res = await list({ totals: ["salePriceExclVat", "purchasePriceExclVat"], pageSize: 2 });
    expect(codes(res)).toEqual(["A", "C"]);
    expect(res).toMatchObject({ total: 5, page: 1, pageSize: 2, totals: { salePriceExclVat: "116.433333", purchasePriceExclVat: "0.900000" } });
  });

  test.each<{ name: string; body: ListBody; codes: string[] }>([
    { name: "type eq service", body: { filter: [{ field: "type", op: "eq", value: "service" }] }, codes: ["E", "V"] },
    { name: "active eq false", body: { filter: [{ field: "active", op: "eq", value: false }] }, codes: ["K"] },
    { name: "vatRatePercent eq 21 (decimal compare)", body: { filter: [{ field: "vatRatePercent", op: "eq", value: "21.0" }] }, codes: ["A", "C"] },
    { name: "vatRatePercent in 0, 5", body: { filter: [{ field: "vatRatePercent", op: "in", value: ["0", 5] }] }, codes: ["E", "K"] },
    { name: "vatClassifier eq PVM58 (the 12% item)", body: { filter: [{ field: "vatClassifier", op: "eq", value: "PVM58" }] }, codes: ["V"] },
    { name: "salePriceExclVat gte 1.1", body: { filter: [{ field: "salePriceExclVat", op: "gte", value: "1.1" }] }, codes: ["C", "E", "K"] },
    { name: "barcode eq", body: { filter: [{ field: "barcode", op: "eq", value: "96385074" }] }, codes: ["A"] },
    { name: "name contains 'ARB'", body: { filter: [{ field: "name", op: "contains", value: "ARB" }] }, codes: ["A"] },
    { name: "tracking ne none", body: { filter: [{ field: "tracking", op: "ne", value: "none" }] }, codes: ["E"] },
    {
      name: "sort salePriceExclVat desc",
      body: { sort: [{ field: "salePriceExclVat", dir: "desc" }], filter: [{ field: "salePriceExclVat", op: "gte", value: 0 }] },
      codes: ["E", "K", "C", "A"],
    },
    { name: "sort name", body: { sort: [{ field: "name" }] }, codes: ["A", "C", "E", "K", "V"] },
  ])("$name", async ({ body, codes: expected }) => {
    const res = await list(body);
    expect(codes(res)).toEqual(expected);
    expect(res.total).toBe(expected.length);
  });

  test("totals follow the filter", async () => {
    const res = await list({ filter: [{ field: "vatRatePercent", op: "eq", value: "21" }], totals: ["salePriceExclVat"] });
    expect(res.totals).toEqual({ salePriceExclVat: "1.433333" });
  });

  test.each([
    { name: "totals of vatRatePercent", body: { totals: ["vatRatePercent"] }, field: "totals[0]" },
    { name: "a price filter that is not a decimal", body: { filter: [{ field: "salePriceExclVat", op: "eq", value: "abc" }] }, field: "filter[0].value" },
    { name: "contains on active", body: { filter: [{ field: "active", op: "contains", value: "t" }] }, field: "filter[0].op" },
  ])("$name -> 400 naming $field", async ({ body, field }) => {
    const error = await expectApiError(list(invalid(body)), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual([field]);
  });

  test("another account's company -> 404", async () => {
    await expectApiError(api.catalog.items.list({}, { companyId: t.companyId }), 404, "not_found");
  });
});
