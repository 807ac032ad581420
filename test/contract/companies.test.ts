// account/companies/{create,get,list,update}: defaults, the profile round trip, paging/sorting/filtering,
// partial updates, and code uniqueness within an account. Every call goes through the SDK; a body the contract forbids
// only through invalid().
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { startHarness, type Harness } from "../support/harness.js";
import { expectApiError, invalid } from "../support/expect.js";
import { ltCompanyCode } from "../support/codes.js";
import { UUID, ISO_INSTANT as ISO } from "../support/patterns.js";
import { sleep } from "../support/timing.js";
import { world } from "../support/world.js";
import type { AccountingApi, RequestBody, ResponseData } from "../../sdk/typescript/src/index.js";

type Company = ResponseData<"account_companies_create">;
type CreateBody = RequestBody<"account_companies_create">;

let h: Harness;
let key: string;
let accountId: string;
/** The account-level SDK client of the test's account. */
let api: AccountingApi;

beforeAll(async () => {
  h = await startHarness();
  ({ apiKey: key, accountId } = await h.bootstrap("Companies test"));
  api = h.sdk(key);
});
afterAll(() => h.close());

let _seq = 0;
// Valid Lithuanian legal entity codes: a Lithuanian company's code must pass the mod-11 check (src/shared/identifiers.ts).
const code = (_prefix = "C") => (++_seq, ltCompanyCode());

const fullCompany = (): CreateBody => ({
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
  invoiceIssuer: { name: "Ona Onaitė", position: "Vyr. buhalterė" },
  contactPerson: { firstName: "Jonas", lastName: "Jonaitis", phone: "+370 600 00001", email: "jonas@pilnoji.lt" },
});

const create = (body: CreateBody, client: AccountingApi = api): Promise<Company> => client.account.companies.create(body);

describe("create", () => {
  test("with every field: the response echoes them all, and the row holds them", async () => {
    const input = fullCompany();
    const made = await create(input);
    expect(made).toEqual({ ...input, id: expect.stringMatching(UUID), createdAt: expect.stringMatching(ISO), updatedAt: expect.stringMatching(ISO) });
    expect(made.createdAt).toBe(made.updatedAt);
    const row = await h.db("companies").where({ id: made.id }).first();
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
      invoice_issuer: { name: "Ona Onaitė", position: "Vyr. buhalterė" },
      contact_person: { firstName: "Jonas", lastName: "Jonaitis", phone: "+370 600 00001", email: "jonas@pilnoji.lt" },
    });
  });

  test("with only the required fields: defaults EUR, invoiceCurrency = baseCurrency, month 1, nullable fields null", async () => {
    const input = { name: "Minimali UAB", code: code("MIN"), countryCode: "LV" } as const;
    const made = await create(input);
    expect(made).toEqual({
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
      invoiceIssuer: null,
      contactPerson: null,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    expect(await h.db("companies").where({ id: made.id }).first()).toMatchObject({
      base_currency: "EUR",
      invoice_currency: "EUR",
      fiscal_year_start_month: 1,
      vat_code: null,
      address: null,
    });
  });

  test("invoiceCurrency defaults to a non-EUR baseCurrency", async () => {
    const made = await create({ name: "Krona AB", code: code("SEK"), countryCode: "SE", baseCurrency: "SEK" });
    expect(made).toMatchObject({ baseCurrency: "SEK", invoiceCurrency: "SEK", countryCode: "SE" });
    expect(await h.db("companies").where({ id: made.id }).first()).toMatchObject({ base_currency: "SEK", invoice_currency: "SEK" });
  });

  test.each(["US", "GB", "CH", "lt"])("countryCode %s (not an EU/EEA code) -> 400 naming countryCode", async (countryCode) => {
    const c = code("US");
    const error = await expectApiError(create(invalid({ name: "Foreign Inc", code: c, countryCode })), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["countryCode"]);
    expect(await h.db("companies").where({ code: c })).toHaveLength(0);
  });

  test.each(["NO", "IS", "LI"] as const)("countryCode %s (EEA, not EU) is accepted", async (countryCode) => {
    const made = await create({ name: "EEA AS", code: code(countryCode), countryCode });
    expect(made.countryCode).toBe(countryCode);
    expect((await h.db("companies").where({ id: made.id }).first()).country_code).toBe(countryCode);
  });

  test("an address may be in any country, even when the company is in the EEA", async () => {
    const address = { line1: "1 Main St", city: "Springfield", postalCode: "12345", countryCode: "US" };
    const made = await create({ name: "Adresas UAB", code: code("ADDR"), countryCode: "LT", address });
    expect(made.address).toEqual(address);
    expect((await h.db("companies").where({ id: made.id }).first()).address).toEqual(address);
  });
});

describe("the company's own identifiers (Lithuanian code, VAT code, IBAN)", () => {
  test.each<{ name: string; body: Partial<CreateBody>; field: string; key: string }>([
    { name: "a Lithuanian code with a wrong check digit", body: { countryCode: "LT", code: "110053843" }, field: "code", key: "company_code.invalid" },
    { name: "a Lithuanian code that is not 9 digits", body: { countryCode: "LT", code: "UAB-1" }, field: "code", key: "company_code.invalid" },
    { name: "an LT VAT code without the fixed 1", body: { vatCode: "LT123456789" }, field: "vatCode", key: "vat_code.invalid" },
    { name: "a GR VAT prefix", body: { vatCode: "GR094259216" }, field: "vatCode", key: "vat_code.invalid" },
    { name: "an IBAN failing mod 97", body: { iban: "LT121000011101001001" }, field: "iban", key: "iban.invalid" },
  ])("create with $name -> 422 $key naming $field, nothing stored", async ({ body, field, key: errorKey }) => {
    const input: CreateBody = { name: "Tikrinama UAB", code: code(), countryCode: "LT", ...body };
    const error = await expectApiError(create(input), 422, "unprocessable", errorKey);
    expect(Object.keys(error.fieldErrors ?? {})).toEqual([field]);
    expect(await h.db("companies").where({ account_id: accountId, code: input.code })).toHaveLength(0);
  });

  test("a Latvian company's code is not held to the Lithuanian rule", async () => {
    const made = await create({ name: "Latvija SIA", code: "40003000000-X", countryCode: "LV" });
    expect((await h.db("companies").where({ id: made.id }).first()).code).toBe("40003000000-X");
  });

  test("a real Lithuanian code with its VAT code and IBAN is accepted", async () => {
    const other = h.sdk((await h.bootstrap("Telia account")).apiKey);
    const made = await create({ name: "Telia Lietuva, AB", code: "121215434", vatCode: "LT212154314", countryCode: "LT", iban: "LT121000011101001000" }, other);
    expect(made).toMatchObject({ code: "121215434", vatCode: "LT212154314" });
    expect(await h.db("companies").where({ id: made.id }).first()).toMatchObject({ vat_code: "LT212154314", iban: "LT121000011101001000" });
  });

  test.each<{ name: string; body: Partial<RequestBody<"account_companies_update">>; key: string }>([
    { name: "code", body: { code: "123456789" }, key: "company_code.invalid" },
    { name: "vatCode", body: { vatCode: "LT119511516" }, key: "vat_code.invalid" },
    { name: "iban", body: { iban: "LT131000011101001000" }, key: "iban.invalid" },
  ])("update of $name to an invalid value -> 422 $key, and nothing changes", async ({ body, key: errorKey }) => {
    const created = await create(fullCompany());
    await expectApiError(api.account.companies.update({ id: created.id, name: "Neturi keistis", ...body }), 422, "unprocessable", errorKey);
    const row = await h.db("companies").where({ id: created.id }).first();
    expect(row).toMatchObject({ name: created.name, code: created.code, vat_code: created.vatCode, iban: created.iban });
  });
});

describe("get", () => {
  test("returns the same body as create", async () => {
    const created = await create(fullCompany());
    expect(await api.account.companies.get({ id: created.id })).toEqual(created);
  });

  test("an unknown id -> 404 not_found", async () => {
    await expectApiError(api.account.companies.get({ id: "00000000-0000-4000-8000-000000000000" }), 404, "not_found", "company.not_found");
  });

  test("another account's company -> 404, the same answer as for an unknown id", async () => {
    const other = await world(h, { chart: false });
    const error = await expectApiError(api.account.companies.get({ id: other.companyId }), 404, "not_found", "company.not_found");
    expect(error.message).not.toContain("account");
  });
});

describe("list", () => {
  let lister: AccountingApi;
  let companies: Company[];

  beforeAll(async () => {
    // An account of its own, so that the list holds exactly these five.
    lister = h.sdk((await h.bootstrap("List account")).apiKey);
    companies = [];
    for (const [name, c] of [
      ["Delta UAB", "LST-D"],
      ["Alfa UAB", "LST-A"],
      ["Echo UAB", "LST-E"],
      ["Charlie UAB", "LST-C"],
      ["Bravo UAB", "LST-B"],
    ]) {
      companies.push(await create({ name, code: c, countryCode: "LV" }, lister));
    }
  });

  test("pages of 2 cover all 5 companies exactly once, in the default order (name asc), with total 5", async () => {
    const seen: string[] = [];
    for (const page of [1, 2, 3]) {
      const res = await lister.account.companies.list({ page, pageSize: 2 });
      expect(res).toMatchObject({ page, pageSize: 2, total: 5 });
      expect(res.rows).toHaveLength(page === 3 ? 1 : 2);
      expect("totals" in res).toBe(false);
      seen.push(...res.rows.map((r) => r.name));
    }
    expect(seen).toEqual(["Alfa UAB", "Bravo UAB", "Charlie UAB", "Delta UAB", "Echo UAB"]);
    const beyond = await lister.account.companies.list({ page: 4, pageSize: 2 });
    expect(beyond).toMatchObject({ rows: [], page: 4, total: 5 });
  });

  test("rows are full companies, the same as get returns", async () => {
    const res = await lister.account.companies.list();
    expect(res.pageSize).toBe(50);
    const byId = new Map(res.rows.map((r) => [r.id, r]));
    for (const company of companies) expect(byId.get(company.id)).toEqual(company);
  });

  test("sort by name desc", async () => {
    const res = await lister.account.companies.list({ sort: [{ field: "name", dir: "desc" }] });
    expect(res.rows.map((r) => r.name)).toEqual(["Echo UAB", "Delta UAB", "Charlie UAB", "Bravo UAB", "Alfa UAB"]);
  });

  test("sort by code asc, paged", async () => {
    const res = await lister.account.companies.list({ sort: [{ field: "code" }], pageSize: 3, page: 2 });
    expect(res.rows.map((r) => r.code)).toEqual(["LST-D", "LST-E"]);
    expect(res.total).toBe(5);
  });

  test("filter code eq", async () => {
    const res = await lister.account.companies.list({ filter: [{ field: "code", op: "eq", value: "LST-C" }] });
    expect(res.total).toBe(1);
    expect(res.rows.map((r) => r.name)).toEqual(["Charlie UAB"]);
  });

  test("filter contains is a case-insensitive substring match", async () => {
    const res = await lister.account.companies.list({ filter: [{ field: "name", op: "contains", value: "ARL" }] });
    expect(res.rows.map((r) => r.name)).toEqual(["Charlie UAB"]);
    const codes = await lister.account.companies.list({ filter: [{ field: "code", op: "contains", value: "lst-" }] });
    expect(codes.total).toBe(5);
    const none = await lister.account.companies.list({ filter: [{ field: "code", op: "contains", value: "%" }] });
    expect(none).toMatchObject({ rows: [], total: 0 });
  });

  test("filters combine (all must hold) and total counts the filtered rows, not the page", async () => {
    const res = await lister.account.companies.list({
      filter: [
        { field: "code", op: "in", value: ["LST-A", "LST-B", "LST-C"] },
        { field: "code", op: "ne", value: "LST-B" },
      ],
      pageSize: 1,
    });
    expect(res.total).toBe(2);
    expect(res.rows.map((r) => r.code)).toEqual(["LST-A"]);
  });

  test("only the key's account's companies are listed", async () => {
    const res = await api.account.companies.list({ filter: [{ field: "code", op: "eq", value: "LST-A" }] });
    expect(res).toMatchObject({ rows: [], total: 0 });
  });

  test("a filter on an unknown field -> 400 naming filter[0].field", async () => {
    const error = await expectApiError(
      lister.account.companies.list(invalid({ filter: [{ field: "accountId", op: "eq", value: accountId }] })),
      400,
      "validation",
    );
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["filter[0].field"]);
  });
});

describe("update", () => {
  test("only the sent fields change; updatedAt moves, createdAt does not", async () => {
    const created = await create(fullCompany());
    await sleep(20);
    const updated = await api.account.companies.update({ id: created.id, name: "Pervadinta UAB", fiscalYearStartMonth: 3 });
    const { updatedAt, ...rest } = updated;
    const { updatedAt: before, ...createdRest } = created;
    expect(rest).toEqual({ ...createdRest, name: "Pervadinta UAB", fiscalYearStartMonth: 3 });
    expect(Date.parse(updatedAt)).toBeGreaterThan(Date.parse(before));
    expect(await api.account.companies.get({ id: created.id })).toEqual(updated);
    expect(await h.db("companies").where({ id: created.id }).first()).toMatchObject({ name: "Pervadinta UAB", fiscal_year_start_month: 3, code: created.code });
  });

  test("null clears vatCode, address, email, phone and iban", async () => {
    const created = await create(fullCompany());
    const updated = await api.account.companies.update({ id: created.id, vatCode: null, address: null, email: null, phone: null, iban: null });
    expect(updated).toMatchObject({ vatCode: null, address: null, email: null, phone: null, iban: null, name: created.name, invoiceCurrency: "USD" });
    const row = await h.db("companies").where({ id: created.id }).first();
    expect(row).toMatchObject({ vat_code: null, address: null, email: null, phone: null, iban: null });
  });

  test("an address can be replaced, and set on a company that had none", async () => {
    const created = await create({ name: "Be adreso UAB", code: code("NOADDR"), countryCode: "LT" });
    const address = { line1: "Laisvės al. 10", city: "Kaunas", postalCode: "LT-44001", countryCode: "LT" };
    expect((await api.account.companies.update({ id: created.id, address })).address).toEqual(address);
    expect((await h.db("companies").where({ id: created.id }).first()).address).toEqual(address);
    const moved = { ...address, line1: "Savanorių pr. 1" };
    expect((await api.account.companies.update({ id: created.id, address: moved })).address).toEqual(moved);
    expect((await h.db("companies").where({ id: created.id }).first()).address).toEqual(moved);
  });

  test("the contact person is replaced whole (phone and e-mail null when not sent), and null clears it", async () => {
    const created = await create({ name: "Kontaktas UAB", code: code("CONTACT"), countryCode: "LT" });
    expect(created.contactPerson).toBeNull();
    const named = await api.account.companies.update({ id: created.id, contactPerson: { firstName: "Ona", lastName: "Onaitė" } });
    expect(named.contactPerson).toEqual({ firstName: "Ona", lastName: "Onaitė", phone: null, email: null });
    expect((await h.db("companies").where({ id: created.id }).first()).contact_person).toEqual({ firstName: "Ona", lastName: "Onaitė" });
    const full = { firstName: "Petras", lastName: "Petraitis", phone: "+370 611 11111", email: "petras@kontaktas.lt" };
    expect((await api.account.companies.update({ id: created.id, contactPerson: full })).contactPerson).toEqual(full);
    expect(await api.account.companies.get({ id: created.id })).toMatchObject({ contactPerson: full });
    expect((await api.account.companies.update({ id: created.id, contactPerson: null })).contactPerson).toBeNull();
    expect((await h.db("companies").where({ id: created.id }).first()).contact_person).toBeNull();
  });

  test.each([
    { name: "an empty first name", contactPerson: { firstName: "", lastName: "Onaitė" }, field: "contactPerson.firstName" },
    { name: "no last name", contactPerson: { firstName: "Ona" }, field: "contactPerson.lastName" },
    { name: "a bad e-mail", contactPerson: { firstName: "Ona", lastName: "Onaitė", email: "ona" }, field: "contactPerson.email" },
  ])("a contact person with $name -> 400 naming $field, nothing changes", async ({ contactPerson, field }) => {
    const created = await create(fullCompany());
    const error = await expectApiError(api.account.companies.update(invalid({ id: created.id, contactPerson })), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual([field]);
    expect(await api.account.companies.get({ id: created.id })).toEqual(created);
  });

  test("an empty update changes nothing", async () => {
    const created = await create(fullCompany());
    expect(await api.account.companies.update({ id: created.id })).toEqual(created);
    expect(await api.account.companies.get({ id: created.id })).toEqual(created);
  });

  test.each([
    { field: "countryCode", value: "LV" },
    { field: "baseCurrency", value: "USD" },
  ])("$field cannot be sent -> 400 naming it as an unknown property, and nothing changes", async ({ field, value }) => {
    const created = await create(fullCompany());
    const error = await expectApiError(api.account.companies.update(invalid({ id: created.id, name: "Neturi pasikeisti", [field]: value })), 400, "validation");
    expect(error.fieldErrors).toEqual({ [field]: [expect.stringMatching(/not a known property/)] });
    expect(await api.account.companies.get({ id: created.id })).toEqual(created);
  });

  test("bad values are refused: name null, bad vatCode, month 0", async () => {
    const created = await create(fullCompany());
    const error = await expectApiError(
      api.account.companies.update(invalid({ id: created.id, name: null, vatCode: "nope", fiscalYearStartMonth: 0 })),
      400,
      "validation",
    );
    expect(Object.keys(error.fieldErrors ?? {}).sort()).toEqual(["fiscalYearStartMonth", "name", "vatCode"]);
    expect(await api.account.companies.get({ id: created.id })).toEqual(created);
  });

  test("an unknown id -> 404", async () => {
    await expectApiError(api.account.companies.update({ id: "00000000-0000-4000-8000-000000000000", name: "X" }), 404, "not_found", "company.not_found");
  });

  test("another account's company -> 404 and it is not changed", async () => {
    const other = await world(h, { chart: false });
    await expectApiError(api.account.companies.update({ id: other.companyId, name: "Užgrobta" }), 404, "not_found", "company.not_found");
    expect((await h.db("companies").where({ id: other.companyId }).first()).name).not.toBe("Užgrobta");
  });
});

describe("code uniqueness within an account", () => {
  test("create with a code already used in the account -> 409 conflict company.code_taken, no second row", async () => {
    const c = code("DUP");
    const first = await create({ name: "Pirma UAB", code: c, countryCode: "LT" });
    const error = await expectApiError(create({ name: "Antra UAB", code: c, countryCode: "LV" }), 409, "conflict", "company.code_taken");
    expect(error.params).toEqual({ code: c });
    const rows = await h.db("companies").where({ account_id: accountId, code: c });
    expect(rows.map((r: { id: string }) => r.id)).toEqual([first.id]);
  });

  test("update to a code used by another company of the account -> 409, and nothing changes", async () => {
    const a = await create({ name: "A UAB", code: code("UA"), countryCode: "LT" });
    const b = await create({ name: "B UAB", code: code("UB"), countryCode: "LT" });
    await expectApiError(api.account.companies.update({ id: b.id, code: a.code, name: "B pervadinta" }), 409, "conflict", "company.code_taken");
    expect(await api.account.companies.get({ id: b.id })).toEqual(b);
    expect((await h.db("companies").where({ id: b.id }).first()).name).toBe("B UAB");
  });

  test("update to the company's own code is no conflict", async () => {
    const a = await create({ name: "Sava UAB", code: code("OWN"), countryCode: "LT" });
    expect((await api.account.companies.update({ id: a.id, code: a.code })).code).toBe(a.code);
    expect((await h.db("companies").where({ id: a.id }).first()).code).toBe(a.code);
  });

  test("the same code in another account is fine", async () => {
    const c = code("SHARED");
    const mine = await create({ name: "Mano UAB", code: c, countryCode: "LT" });
    const other = await h.bootstrap("Other account");
    const theirs = await create({ name: "Kita UAB", code: c, countryCode: "LT" }, h.sdk(other.apiKey));
    expect(theirs.code).toBe(c);
    expect(theirs.id).not.toBe(mine.id);
    expect(await h.db("companies").where({ code: c })).toHaveLength(2);
  });
});
