// account/companies/{create,get,list,update}: defaults, the profile round trip, paging/sorting/filtering,
// partial updates, and code uniqueness within an account.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { startHarness, type Harness } from "../support/harness.js";
import { expectError } from "../support/expect.js";
import { ltCompanyCode } from "../support/codes.js";
import { UUID, ISO_INSTANT as ISO } from "../support/patterns.js";

let h: Harness;
let key: string;
let accountId: string;

beforeAll(async () => {
  h = await startHarness();
  ({ apiKey: key, accountId } = await h.bootstrap("Companies test"));
});
afterAll(() => h.close());

const CREATE = "/v1/account/companies/create";
const GET = "/v1/account/companies/get";
const LIST = "/v1/account/companies/list";
const UPDATE = "/v1/account/companies/update";

let _seq = 0;
// Valid Lithuanian legal entity codes: a Lithuanian company's code must pass the mod-11 check (src/shared/identifiers.ts).
const code = (_prefix = "C") => (++_seq, ltCompanyCode());

const fullCompany = () => ({
  name: "Pilnoji UAB",
  code: code("FULL"),
  vatCode: "LT100001919017",
  countryCode: "LT",
  baseCurrency: "EUR",
  invoiceCurrency: "USD",
  address: { line1: "Gedimino pr. 1", line2: "3 aukštas", city: "Vilnius", postalCode: "LT-01100", countryCode: "LT" },
  email: "info@pilnoji.lt",
  phone: "+370 600 00000",
  iban: "LT121000011101001000",
  fiscalYearStartMonth: 7,
});

async function create(body: Record<string, unknown>, apiKey = key) {
  const res = await h.post(CREATE, body, { key: apiKey });
  if (res.status !== 200) throw new Error(`create failed: ${JSON.stringify(res.body)}`);
  return res.body;
}

describe("create", () => {
  test("with every field: the response echoes them all, and the row holds them", async () => {
    const input = fullCompany();
    const res = await h.post(CREATE, input, { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...input, id: expect.stringMatching(UUID), createdAt: expect.stringMatching(ISO), updatedAt: expect.stringMatching(ISO) });
    expect(res.body.createdAt).toBe(res.body.updatedAt);
    const row = await h.db("companies").where({ id: res.body.id }).first();
    expect(row).toMatchObject({
      account_id: accountId,
      name: input.name,
      code: input.code,
      vat_code: input.vatCode,
      country_code: "LT",
      base_currency: "EUR",
      invoice_currency: "USD",
      address: input.address,
      email: input.email,
      phone: input.phone,
      iban: input.iban,
      fiscal_year_start_month: 7,
    });
  });

  test("with only the required fields: defaults EUR, invoiceCurrency = baseCurrency, month 1, nullable fields null", async () => {
    const input = { name: "Minimali UAB", code: code("MIN"), countryCode: "LV" };
    const res = await h.post(CREATE, input, { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      ...input,
      vatCode: null,
      baseCurrency: "EUR",
      invoiceCurrency: "EUR",
      address: null,
      email: null,
      phone: null,
      iban: null,
      fiscalYearStartMonth: 1,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
  });

  test("invoiceCurrency defaults to a non-EUR baseCurrency", async () => {
    const res = await h.post(CREATE, { name: "Krona AB", code: code("SEK"), countryCode: "SE", baseCurrency: "SEK" }, { key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ baseCurrency: "SEK", invoiceCurrency: "SEK", countryCode: "SE" });
  });

  test.each(["US", "GB", "CH", "lt"])("countryCode %s (not an EU/EEA code) -> 400 naming countryCode", async (countryCode) => {
    const c = code("US");
    const res = await h.post(CREATE, { name: "Foreign Inc", code: c, countryCode }, { key });
    expectError(res, 400, "validation");
    expect(Object.keys(res.body.error.fieldErrors)).toEqual(["countryCode"]);
    expect(await h.db("companies").where({ code: c })).toHaveLength(0);
  });

  test.each(["NO", "IS", "LI"])("countryCode %s (EEA, not EU) is accepted", async (countryCode) => {
    const res = await h.post(CREATE, { name: "EEA AS", code: code(countryCode), countryCode }, { key });
    expect(res.status).toBe(200);
    expect(res.body.countryCode).toBe(countryCode);
  });

  test("an address may be in any country, even when the company is in the EEA", async () => {
    const address = { line1: "1 Main St", city: "Springfield", postalCode: "12345", countryCode: "US" };
    const res = await h.post(CREATE, { name: "Adresas UAB", code: code("ADDR"), countryCode: "LT", address }, { key });
    expect(res.status).toBe(200);
    expect(res.body.address).toEqual(address);
  });
});

describe("the company's own identifiers (Lithuanian code, VAT code, IBAN)", () => {
  test.each([
    { name: "a Lithuanian code with a wrong check digit", body: { countryCode: "LT", code: "110053843" }, field: "code", key: "company_code.invalid" },
    { name: "a Lithuanian code that is not 9 digits", body: { countryCode: "LT", code: "UAB-1" }, field: "code", key: "company_code.invalid" },
    { name: "an LT VAT code without the fixed 1", body: { vatCode: "LT123456789" }, field: "vatCode", key: "vat_code.invalid" },
    { name: "a GR VAT prefix", body: { vatCode: "GR094259216" }, field: "vatCode", key: "vat_code.invalid" },
    { name: "an IBAN failing mod 97", body: { iban: "LT121000011101001001" }, field: "iban", key: "iban.invalid" },
  ])("create with $name -> 422 $key naming $field, nothing stored", async ({ body, field, key: errorKey }) => {
    const input = { name: "Tikrinama UAB", code: code(), countryCode: "LT", ...body };
    const res = await h.post(CREATE, input, { key });
    expectError(res, 422, "unprocessable");
    expect(res.body.error.key).toBe(errorKey);
    expect(Object.keys(res.body.error.fieldErrors)).toEqual([field]);
    expect(await h.db("companies").where({ account_id: accountId, code: input.code })).toHaveLength(0);
  });

  test("a Latvian company's code is not held to the Lithuanian rule", async () => {
    const res = await h.post(CREATE, { name: "Latvija SIA", code: "40003000000-X", countryCode: "LV" }, { key });
    expect(res.status).toBe(200);
  });

  test("a real Lithuanian code with its VAT code and IBAN is accepted", async () => {
    const other = (await h.bootstrap("Telia account")).apiKey;
    const res = await h.post(
      CREATE,
      { name: "Telia Lietuva, AB", code: "121215434", vatCode: "LT212154314", countryCode: "LT", iban: "LT121000011101001000" },
      { key: other },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: "121215434", vatCode: "LT212154314" });
  });

  test.each([
    { name: "code", body: { code: "123456789" }, key: "company_code.invalid" },
    { name: "vatCode", body: { vatCode: "LT119511516" }, key: "vat_code.invalid" },
    { name: "iban", body: { iban: "LT131000011101001000" }, key: "iban.invalid" },
  ])("update of $name to an invalid value -> 422 $key, and nothing changes", async ({ body, key: errorKey }) => {
    const created = await create(fullCompany());
    const res = await h.post(UPDATE, { id: created.id, name: "Neturi keistis", ...body }, { key });
    expectError(res, 422, "unprocessable");
    expect(res.body.error.key).toBe(errorKey);
    const row = await h.db("companies").where({ id: created.id }).first();
    expect(row).toMatchObject({ name: created.name, code: created.code, vat_code: created.vatCode, iban: created.iban });
  });
});

describe("get", () => {
  test("returns the same body as create", async () => {
    const created = await create(fullCompany());
    const res = await h.post(GET, { id: created.id }, { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
  });

  test("an unknown id -> 404 not_found", async () => {
    const res = await h.post(GET, { id: "00000000-0000-4000-8000-000000000000" }, { key });
    expectError(res, 404, "not_found");
    expect(res.body.error.key).toBe("company.not_found");
  });

  test("another account's company -> 404, the same answer as for an unknown id", async () => {
    const other = await h.tenant();
    const res = await h.post(GET, { id: other.companyId }, { key });
    expectError(res, 404, "not_found");
    expect(res.body.error.key).toBe("company.not_found");
    expect(res.body.error.message).not.toContain("account");
  });
});

describe("list", () => {
  let listKey: string;
  let companies: Array<{ id: string; name: string; code: string }>;

  beforeAll(async () => {
    // An account of its own, so that the list holds exactly these five.
    listKey = (await h.bootstrap("List account")).apiKey;
    companies = [];
    for (const [name, c] of [
      ["Delta UAB", "LST-D"],
      ["Alfa UAB", "LST-A"],
      ["Echo UAB", "LST-E"],
      ["Charlie UAB", "LST-C"],
      ["Bravo UAB", "LST-B"],
    ]) {
      companies.push(await create({ name, code: c, countryCode: "LV" }, listKey));
    }
  });

  test("pages of 2 cover all 5 companies exactly once, in the default order (name asc), with total 5", async () => {
    const seen: string[] = [];
    for (const page of [1, 2, 3]) {
      const res = await h.post(LIST, { page, pageSize: 2 }, { key: listKey });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ page, pageSize: 2, total: 5 });
      expect(res.body.rows).toHaveLength(page === 3 ? 1 : 2);
      expect(res.body.totals).toBeUndefined();
      seen.push(...res.body.rows.map((r: { name: string }) => r.name));
    }
    expect(seen).toEqual(["Alfa UAB", "Bravo UAB", "Charlie UAB", "Delta UAB", "Echo UAB"]);
    const beyond = await h.post(LIST, { page: 4, pageSize: 2 }, { key: listKey });
    expect(beyond.body).toMatchObject({ rows: [], page: 4, total: 5 });
  });

  test("rows are full companies, the same as get returns", async () => {
    const res = await h.post(LIST, {}, { key: listKey });
    expect(res.body.pageSize).toBe(50);
    const byId = new Map(res.body.rows.map((r: { id: string }) => [r.id, r]));
    for (const company of companies) expect(byId.get(company.id)).toEqual(company);
  });

  test("sort by name desc", async () => {
    const res = await h.post(LIST, { sort: [{ field: "name", dir: "desc" }] }, { key: listKey });
    expect(res.body.rows.map((r: { name: string }) => r.name)).toEqual(["Echo UAB", "Delta UAB", "Charlie UAB", "Bravo UAB", "Alfa UAB"]);
  });

  test("sort by code asc, paged", async () => {
    const res = await h.post(LIST, { sort: [{ field: "code" }], pageSize: 3, page: 2 }, { key: listKey });
    expect(res.body.rows.map((r: { code: string }) => r.code)).toEqual(["LST-D", "LST-E"]);
    expect(res.body.total).toBe(5);
  });

  test("filter code eq", async () => {
    const res = await h.post(LIST, { filter: [{ field: "code", op: "eq", value: "LST-C" }] }, { key: listKey });
    expect(res.body.total).toBe(1);
    expect(res.body.rows.map((r: { name: string }) => r.name)).toEqual(["Charlie UAB"]);
  });

  test("filter contains is a case-insensitive substring match", async () => {
    const res = await h.post(LIST, { filter: [{ field: "name", op: "contains", value: "ARL" }] }, { key: listKey });
    expect(res.body.rows.map((r: { name: string }) => r.name)).toEqual(["Charlie UAB"]);
    const codes = await h.post(LIST, { filter: [{ field: "code", op: "contains", value: "lst-" }] }, { key: listKey });
    expect(codes.body.total).toBe(5);
    const none = await h.post(LIST, { filter: [{ field: "code", op: "contains", value: "%" }] }, { key: listKey });
    expect(none.body).toMatchObject({ rows: [], total: 0 });
  });

  test("filters combine (all must hold) and total counts the filtered rows, not the page", async () => {
    const res = await h.post(
      LIST,
      {
        filter: [
          { field: "code", op: "in", value: ["LST-A", "LST-B", "LST-C"] },
          { field: "code", op: "ne", value: "LST-B" },
        ],
        pageSize: 1,
      },
      { key: listKey },
    );
    expect(res.body.total).toBe(2);
    expect(res.body.rows.map((r: { code: string }) => r.code)).toEqual(["LST-A"]);
  });

  test("only the key's account's companies are listed", async () => {
    const res = await h.post(LIST, { filter: [{ field: "code", op: "eq", value: "LST-A" }] }, { key });
    expect(res.body).toMatchObject({ rows: [], total: 0 });
  });

  test("a filter on an unknown field -> 400 naming filter[0].field", async () => {
    const res = await h.post(LIST, { filter: [{ field: "accountId", op: "eq", value: accountId }] }, { key: listKey });
    expectError(res, 400, "validation");
    expect(Object.keys(res.body.error.fieldErrors)).toEqual(["filter[0].field"]);
  });
});

describe("update", () => {
  test("only the sent fields change; updatedAt moves, createdAt does not", async () => {
    const created = await create(fullCompany());
    await new Promise((r) => setTimeout(r, 20));
    const res = await h.post(UPDATE, { id: created.id, name: "Pervadinta UAB", fiscalYearStartMonth: 3 }, { key });
    expect(res.status).toBe(200);
    const { updatedAt, ...rest } = res.body;
    const { updatedAt: before, ...createdRest } = created;
    expect(rest).toEqual({ ...createdRest, name: "Pervadinta UAB", fiscalYearStartMonth: 3 });
    expect(Date.parse(updatedAt)).toBeGreaterThan(Date.parse(before));
    expect((await h.post(GET, { id: created.id }, { key })).body).toEqual(res.body);
  });

  test("null clears vatCode, address, email, phone and iban", async () => {
    const created = await create(fullCompany());
    const res = await h.post(UPDATE, { id: created.id, vatCode: null, address: null, email: null, phone: null, iban: null }, { key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ vatCode: null, address: null, email: null, phone: null, iban: null, name: created.name, invoiceCurrency: "USD" });
    const row = await h.db("companies").where({ id: created.id }).first();
    expect(row).toMatchObject({ vat_code: null, address: null, email: null, phone: null, iban: null });
  });

  test("an address can be replaced, and set on a company that had none", async () => {
    const created = await create({ name: "Be adreso UAB", code: code("NOADDR"), countryCode: "LT" });
    const address = { line1: "Laisvės al. 10", city: "Kaunas", postalCode: "LT-44001", countryCode: "LT" };
    const res = await h.post(UPDATE, { id: created.id, address }, { key });
    expect(res.body.address).toEqual(address);
    expect((await h.db("companies").where({ id: created.id }).first()).address).toEqual(address);
    const moved = { ...address, line1: "Savanorių pr. 1" };
    expect((await h.post(UPDATE, { id: created.id, address: moved }, { key })).body.address).toEqual(moved);
  });

  test("an empty update changes nothing", async () => {
    const created = await create(fullCompany());
    const res = await h.post(UPDATE, { id: created.id }, { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
  });

  test.each([
    { field: "countryCode", value: "LV" },
    { field: "baseCurrency", value: "USD" },
  ])("$field cannot be sent -> 400 naming it as an unknown property, and nothing changes", async ({ field, value }) => {
    const created = await create(fullCompany());
    const res = await h.post(UPDATE, { id: created.id, name: "Neturi pasikeisti", [field]: value }, { key });
    expectError(res, 400, "validation");
    expect(res.body.error.fieldErrors).toEqual({ [field]: [expect.stringMatching(/not a known property/)] });
    expect((await h.post(GET, { id: created.id }, { key })).body).toEqual(created);
  });

  test("bad values are refused: name null, bad vatCode, month 0", async () => {
    const created = await create(fullCompany());
    const res = await h.post(UPDATE, { id: created.id, name: null, vatCode: "nope", fiscalYearStartMonth: 0 }, { key });
    expectError(res, 400, "validation");
    expect(Object.keys(res.body.error.fieldErrors).sort()).toEqual(["fiscalYearStartMonth", "name", "vatCode"]);
  });

  test("an unknown id -> 404", async () => {
    const res = await h.post(UPDATE, { id: "00000000-0000-4000-8000-000000000000", name: "X" }, { key });
    expectError(res, 404, "not_found");
  });

  test("another account's company -> 404 and it is not changed", async () => {
    const other = await h.tenant();
    const res = await h.post(UPDATE, { id: other.companyId, name: "Užgrobta" }, { key });
    expectError(res, 404, "not_found");
    expect((await h.db("companies").where({ id: other.companyId }).first()).name).not.toBe("Užgrobta");
  });
});

describe("code uniqueness within an account", () => {
  test("create with a code already used in the account -> 409 conflict company.code_taken, no second row", async () => {
    const c = code("DUP");
    const first = await create({ name: "Pirma UAB", code: c, countryCode: "LT" });
    const res = await h.post(CREATE, { name: "Antra UAB", code: c, countryCode: "LV" }, { key });
    expectError(res, 409, "conflict");
    expect(res.body.error.key).toBe("company.code_taken");
    expect(res.body.error.params).toEqual({ code: c });
    const rows = await h.db("companies").where({ account_id: accountId, code: c });
    expect(rows.map((r: { id: string }) => r.id)).toEqual([first.id]);
  });

  test("update to a code used by another company of the account -> 409, and nothing changes", async () => {
    const a = await create({ name: "A UAB", code: code("UA"), countryCode: "LT" });
    const b = await create({ name: "B UAB", code: code("UB"), countryCode: "LT" });
    const res = await h.post(UPDATE, { id: b.id, code: a.code, name: "B pervadinta" }, { key });
    expectError(res, 409, "conflict");
    expect(res.body.error.key).toBe("company.code_taken");
    expect((await h.post(GET, { id: b.id }, { key })).body).toEqual(b);
  });

  test("update to the company's own code is no conflict", async () => {
    const a = await create({ name: "Sava UAB", code: code("OWN"), countryCode: "LT" });
    const res = await h.post(UPDATE, { id: a.id, code: a.code }, { key });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(a.code);
  });

  test("the same code in another account is fine", async () => {
    const c = code("SHARED");
    const mine = await create({ name: "Mano UAB", code: c, countryCode: "LT" });
    const other = await h.bootstrap("Other account");
    const res = await h.post(CREATE, { name: "Kita UAB", code: c, countryCode: "LT" }, { key: other.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(c);
    expect(res.body.id).not.toBe(mine.id);
    expect(await h.db("companies").where({ code: c })).toHaveLength(2);
  });
});
