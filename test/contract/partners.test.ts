// partners/create, get, list, update and delete: the partner's shape, lookup by id or by code, code uniqueness
// within a company, the rules of VAT codes, IBANs and country codes, and deletes refused while referenced.
// Every call goes through the SDK generated from the contract (sdk/typescript), as an integrator's would: a body the
// contract rejects is sent only through `invalid(...)`, so a contract change that breaks clients breaks this file's
// type-check.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { startHarness, type Harness } from "../support/harness.js";
import { expectApiError, invalid } from "../support/expect.js";
import { ltCompanyCode } from "../support/codes.js";
import type { AccountingApi, RequestBody, ResponseData } from "../../sdk/typescript/src/index.js";
import { UUID, ISO_INSTANT as ISO } from "../support/patterns.js";

type Partner = ResponseData<"partners_create">;
type CreateBody = RequestBody<"partners_create">;
type ListBody = RequestBody<"partners_list">;

let h: Harness;
let key: string;
let companyId: string;
/** The SDK client of the main tenant, acting on its company. */
let api: AccountingApi;

beforeAll(async () => {
  h = await startHarness();
  ({ apiKey: key, companyId, api } = await h.tenant());
});
afterAll(() => h.close());

const NO_SUCH_ID = "00000000-0000-4000-8000-000000000000";

// What a partner created with only name and code has.
const DEFAULTS = {
  vatCode: null,
  registrationCode: null,
  countryCode: null,
  address: null,
  email: null,
  phone: null,
  iban: null,
  isCustomer: true,
  isSupplier: false,
  isPrivatePerson: false,
  paymentTermDays: 0,
  documentLanguage: "lt-en",
  peppolId: null,
};

let seq = 0;
const code = (prefix = "P") => `${prefix}${Date.now().toString(36)}-${++seq}`;

/** A partner created through the SDK, by the main tenant or by another one. */
const createPartner = (body: CreateBody, client: AccountingApi = api): Promise<Partner> => client.partners.create(body);

describe("create", () => {
  test("returns id, code, name and timestamps, and stores the row in the company", async () => {
    const input = { name: "Tiekėjas UAB", code: code("SUP") };
    const partner = await api.partners.create(input);
    expect(partner).toEqual({
      id: expect.stringMatching(UUID),
      ...input,
      ...DEFAULTS,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    expect(partner.createdAt).toBe(partner.updatedAt);
    const rows = await h.db("partners").where({ id: partner.id });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ company_id: companyId, code: input.code, name: input.name });
    expect(new Date(rows[0].created_at).toISOString()).toBe(partner.createdAt);
  });

  test("a code of 64 characters and a name of 255 are kept whole", async () => {
    const input = { name: "Ž".repeat(255), code: (code("LONG") + "9".repeat(64)).slice(0, 64) };
    expect(await api.partners.create(input)).toMatchObject(input);
  });

  test("X-Company-Id is required for an unrestricted key", async () => {
    const c = code();
    const error = await expectApiError(h.sdk(key).partners.create({ name: "Be įmonės", code: c }), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["X-Company-Id"]);
    expect(await h.db("partners").where({ code: c })).toHaveLength(0);
  });

  test("another account's company -> 404, nothing stored", async () => {
    const other = await h.tenant();
    const c = code();
    await expectApiError(api.withCompany(other.companyId).partners.create({ name: "Svetimas", code: c }), 404, "not_found");
    expect(await h.db("partners").where({ code: c })).toHaveLength(0);
  });

  test("missing name and code -> 400 naming both", async () => {
    const error = await expectApiError(api.partners.create(invalid({})), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {}).sort()).toEqual(["code", "name"]);
  });
});

describe("get", () => {
  let partner: Partner;
  beforeAll(async () => {
    partner = await createPartner({ name: "Pirkėjas UAB", code: code("CUS") });
  });

  test("by id and by code give the same body as create", async () => {
    const byId = await api.partners.get({ id: partner.id });
    const byCode = await api.partners.get({ code: partner.code });
    expect(byId).toEqual(partner);
    expect(byCode).toEqual(byId);
  });

  test.each([
    { name: "both id and code", body: () => ({ id: partner.id, code: partner.code }) },
    { name: "neither id nor code", body: () => ({}) },
  ])("$name -> 400 naming id and code", async ({ body }) => {
    // The contract's oneOf: the SDK's types refuse these bodies (test/unit/sdk-types.test.ts).
    const error = await expectApiError(api.partners.get(invalid(body())), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {}).sort()).toEqual(["code", "id"]);
  });

  test.each([
    { name: "an unknown id", body: { id: NO_SUCH_ID }, params: { id: NO_SUCH_ID } },
    { name: "an unknown code", body: { code: "NO-SUCH-CODE" }, params: { code: "NO-SUCH-CODE" } },
  ])("$name -> 404 not_found partner.not_found", async ({ body, params }) => {
    const error = await expectApiError(api.partners.get(body), 404, "not_found", "partner.not_found");
    expect(error.params).toEqual(params);
  });

  test("a code is matched exactly (not by prefix or case)", async () => {
    for (const near of [partner.code.slice(0, -1), partner.code.toLowerCase(), `${partner.code}x`]) {
      await expectApiError(api.partners.get({ code: near }), 404, "not_found");
    }
  });

  test("a malformed id -> 400 naming id", async () => {
    const error = await expectApiError(api.partners.get({ id: "P-1" }), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["id"]);
  });

  test("another company's partner is not found, by id or by code", async () => {
    const other = await h.tenant();
    const theirs = await createPartner({ name: "Kito partneris", code: code("THEIRS") }, other.api);
    await expectApiError(api.partners.get({ id: theirs.id }), 404, "not_found");
    await expectApiError(api.partners.get({ code: theirs.code }), 404, "not_found");
    // ... and through the other account's key naming this company.
    await expectApiError(other.api.withCompany(companyId).partners.get({ id: partner.id }), 404, "not_found");
  });
});

describe("code uniqueness within a company", () => {
  test("a duplicate code -> 409 conflict partner.code_taken, and no second row", async () => {
    const c = code("DUP");
    const first = await createPartner({ name: "Pirmas", code: c });
    const error = await expectApiError(api.partners.create({ name: "Antras", code: c }), 409, "conflict", "partner.code_taken");
    expect(error.params).toEqual({ code: c });
    const rows = await h.db("partners").where({ company_id: companyId, code: c });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: first.id, name: "Pirmas" });
  });

  test("the same code in another company (same account) is fine", async () => {
    const c = code("SHARED");
    const mine = await createPartner({ name: "Mano", code: c });
    const second = await api.account.companies.create({ name: "Antra įmonė UAB", code: ltCompanyCode(), countryCode: "LT" });
    const theirs = await api.withCompany(second.id).partners.create({ name: "Kitos įmonės", code: c });
    expect(theirs.id).not.toBe(mine.id);
    const rows = await h.db("partners").where({ code: c }).orderBy("name");
    expect(rows.map((r: { company_id: string; name: string }) => [r.company_id, r.name])).toEqual([
      [second.id, "Kitos įmonės"],
      [companyId, "Mano"],
    ]);
    // Each company's get by code returns its own partner.
    expect((await api.partners.get({ code: c })).id).toBe(mine.id);
    expect((await api.withCompany(second.id).partners.get({ code: c })).id).toBe(theirs.id);
  });

  test("the same code in another account's company is fine", async () => {
    const c = code("ACCT");
    await createPartner({ name: "Mano", code: c });
    const other = await h.tenant();
    await other.api.partners.create({ name: "Svetimas", code: c });
    expect(await h.db("partners").where({ code: c })).toHaveLength(2);
  });

  test("concurrent creates of one code: exactly one succeeds, the rest are 409", async () => {
    const c = code("RACE");
    const results = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => api.partners.create({ name: `Lenktynės ${i}`, code: c })));
    const failures = results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(failures.map((e) => [e.status, e.key])).toEqual(Array(4).fill([409, "partner.code_taken"]));
    expect(await h.db("partners").where({ company_id: companyId, code: c })).toHaveLength(1);
  });
});

const FULL = {
  vatCode: "LT100001919017",
  registrationCode: "304000001",
  countryCode: "LT",
  address: { line1: "Gedimino pr. 1", line2: "3 aukštas", city: "Vilnius", postalCode: "LT-01103", countryCode: "LT" },
  email: "buhalterija@pirkejas.lt",
  phone: "+370 600 00000",
  iban: "LT121000011101001000",
  isCustomer: false,
  isSupplier: true,
  isPrivatePerson: true,
  paymentTermDays: 30,
  documentLanguage: "en" as const,
  peppolId: "0200:300000003",
};

describe("master data on create", () => {
  test("every field is returned and stored in its column", async () => {
    const input = { name: "Pilnas UAB", code: code("FULL"), ...FULL };
    const partner = await api.partners.create(input);
    expect(partner).toEqual({ id: expect.stringMatching(UUID), ...input, createdAt: expect.stringMatching(ISO), updatedAt: expect.stringMatching(ISO) });
    const row = await h.db("partners").where({ company_id: companyId, id: partner.id }).first();
    expect(row).toMatchObject({
      vat_code: FULL.vatCode,
      registration_code: FULL.registrationCode,
      country_code: "LT",
      address: FULL.address,
      email: FULL.email,
      phone: FULL.phone,
      iban: FULL.iban,
      is_customer: false,
      is_supplier: true,
      is_private_person: true,
      payment_term_days: 30,
      document_language: "en",
      peppol_id: "0200:300000003",
    });
  });

  test.each([
    { name: "LT with 9 digits", vatCode: "LT123456715" },
    { name: "LT with 12 digits", vatCode: "LT100001919017" },
    { name: "LT whose check digit needs the second weighting", vatCode: "LT100004801610" },
    { name: "LT of Telia Lietuva", vatCode: "LT212154314" },
    { name: "DE with 9 digits", vatCode: "DE136695976" },
    { name: "AT with U and 8 digits", vatCode: "ATU13585627" },
    { name: "NL with B and 2 digits", vatCode: "NL004495445B01" },
    { name: "FR with a letter key", vatCode: "FRK7399859412" },
    { name: "IE in the old format", vatCode: "IE8Z49289F" },
    { name: "IE in the new format", vatCode: "IE3628739UA" },
    { name: "EL (Greece) with 9 digits", vatCode: "EL094259216" },
    { name: "ES with letters at both ends", vatCode: "ESX2482300W" },
    { name: "NO with MVA", vatCode: "NO974760673MVA" },
    { name: "a prefix without a known format (pattern only)", vatCode: "CHE123456789" },
  ])("vatCode $name is accepted", async ({ vatCode }) => {
    expect((await api.partners.create({ name: "PVM", code: code("VAT"), vatCode })).vatCode).toBe(vatCode);
  });

  test.each([
    { name: "LT with 8 digits", vatCode: "LT12345678" },
    { name: "LT with 10 digits", vatCode: "LT1234567890" },
    { name: "LT with 11 digits", vatCode: "LT12345678901" },
    { name: "LT with 13 digits", vatCode: "LT1234567890123" },
    { name: "LT with a letter", vatCode: "LT12345678A" },
    { name: "DE with 8 digits", vatCode: "DE12345678" },
    { name: "AT without the U", vatCode: "AT123456789" },
    { name: "NL without the B", vatCode: "NL123456789012" },
    { name: "PL with 9 digits", vatCode: "PL123456789" },
    { name: "SE not ending in 01", vatCode: "SE123456789012" },
    { name: "LT without the fixed 1 in the 8th digit", vatCode: "LT123456789" },
    { name: "LT with a wrong check digit", vatCode: "LT119511516" },
    { name: "LT of 12 digits with a wrong check digit", vatCode: "LT100001919018" },
    { name: "GR (Greece's prefix is EL)", vatCode: "GR094259216" },
  ])("vatCode $name -> 422 vat_code.invalid naming vatCode, nothing stored", async ({ vatCode }) => {
    const c = code("BADVAT");
    const error = await expectApiError(api.partners.create({ name: "PVM", code: c, vatCode }), 422, "unprocessable", "vat_code.invalid");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["vatCode"]);
    expect(await h.db("partners").where({ company_id: companyId, code: c })).toHaveLength(0);
  });

  test.each([
    { name: "lower case", vatCode: "lt123456789" },
    { name: "with a space", vatCode: "LT 123456789" },
    { name: "too short", vatCode: "LT1" },
    { name: "too long", vatCode: "LT12345678901234" },
    { name: "a number", vatCode: 123456789 },
  ])("vatCode $name -> 400 (the contract's pattern)", async ({ vatCode }) => {
    const error = await expectApiError(api.partners.create(invalid({ name: "PVM", code: code("PATVAT"), vatCode })), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["vatCode"]);
  });

  test.each([
    { name: "LT (the issue's example)", iban: "LT121000011101001000" },
    { name: "DE", iban: "DE89370400440532013000" },
    { name: "GB with letters", iban: "GB82WEST12345698765432" },
    { name: "NO, the shortest (15)", iban: "NO9386011117947" },
    { name: "a country without a known length (checksum only)", iban: "BR1800360305000010009795493C1" },
  ])("iban $name is accepted", async ({ iban }) => {
    expect((await api.partners.create({ name: "Bankas", code: code("IBAN"), iban })).iban).toBe(iban);
  });

  test.each([
    { name: "one digit changed", iban: "LT121000011101001001", message: /check digits/ },
    { name: "two digits swapped", iban: "LT121000011101000100", message: /check digits/ },
    { name: "wrong check digits", iban: "LT131000011101001000", message: /check digits/ },
    { name: "LT of 21 characters", iban: "LT1210000111010010000", message: /20 characters/ },
    { name: "DE of 21 characters", iban: "DE8937040044053201300", message: /22 characters/ },
  ])("iban $name -> 422 iban.invalid naming iban", async ({ iban, message }) => {
    const c = code("BADIBAN");
    const error = await expectApiError(api.partners.create({ name: "Bankas", code: c, iban }), 422, "unprocessable", "iban.invalid");
    expect(error.fieldErrors?.iban[0]).toMatch(message);
    expect(await h.db("partners").where({ company_id: companyId, code: c })).toHaveLength(0);
  });

  test.each([
    { name: "with spaces", iban: "LT12 1000 0111 0100 1000" },
    { name: "lower case", iban: "lt121000011101001000" },
    { name: "too short for any country", iban: "LT1210000111" },
  ])("iban $name -> 400 (the contract's pattern)", async ({ iban }) => {
    const error = await expectApiError(api.partners.create({ name: "Bankas", code: code("PATIBAN"), iban }), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["iban"]);
  });

  test("several rule failures -> one 422 partner.invalid_fields naming each field", async () => {
    // "LT1" fails the pattern first: the contract's 400 comes before any rule.
    await expectApiError(
      api.partners.create({
        name: "Visi blogi",
        code: code("MANY"),
        vatCode: "LT1",
        iban: "LT121000011101001001",
        countryCode: "XX",
        address: { ...FULL.address, countryCode: "ZZ" },
      }),
      400,
      "validation",
    );
    const rules = await expectApiError(
      api.partners.create({
        name: "Visi blogi",
        code: code("MANY"),
        vatCode: "LT12345678",
        iban: "LT121000011101001001",
        countryCode: "XX",
        address: { ...FULL.address, countryCode: "ZZ" },
      }),
      422,
      "unprocessable",
      "partner.invalid_fields",
    );
    expect(Object.keys(rules.fieldErrors ?? {}).sort()).toEqual(["address.countryCode", "countryCode", "iban", "vatCode"]);
  });

  describe("a Lithuanian partner's registration code", () => {
    test.each<{ name: string; body: Partial<CreateBody> }>([
      { name: "a legal entity code", body: { registrationCode: "110053842", countryCode: "LT" } },
      { name: "a private person's personal code", body: { registrationCode: "33309240064", countryCode: "LT", isPrivatePerson: true } },
      { name: "a private person's other code (not checked)", body: { registrationCode: "IV-123456", countryCode: "LT", isPrivatePerson: true } },
      { name: "a foreign partner's code (not checked)", body: { registrationCode: "HRB 12345", countryCode: "DE" } },
      { name: "no country (not checked)", body: { registrationCode: "123456789" } },
    ])("$name is accepted and stored", async ({ body }) => {
      const partner = await api.partners.create({ name: "Registras", code: code("REG"), ...body });
      const row = await h.db("partners").where({ company_id: companyId, id: partner.id }).first();
      expect(row.registration_code).toBe(body.registrationCode);
    });

    test.each<{ name: string; body: Partial<CreateBody>; message: RegExp }>([
      { name: "a wrong check digit", body: { registrationCode: "110053843", countryCode: "LT" }, message: /check digit/ },
      { name: "not 9 digits", body: { registrationCode: "UAB-1", countryCode: "LT" }, message: /9 digits/ },
      {
        name: "a private person's personal code with a wrong check digit",
        body: { registrationCode: "33309240164", countryCode: "LT", isPrivatePerson: true },
        message: /check digit/,
      },
    ])("$name -> 422 registration_code.invalid, nothing stored", async ({ body, message }) => {
      const c = code("BADREG");
      const error = await expectApiError(api.partners.create({ name: "Registras", code: c, ...body }), 422, "unprocessable", "registration_code.invalid");
      expect(error.fieldErrors?.registrationCode[0]).toMatch(message);
      expect(await h.db("partners").where({ company_id: companyId, code: c })).toHaveLength(0);
    });

    test("an update making the partner Lithuanian checks the code it already has; nothing changes", async () => {
      const p = await createPartner({ name: "Užsienietis", code: code("FOREIGN"), registrationCode: "12345", countryCode: "LV" });
      await expectApiError(api.partners.update({ id: p.id, countryCode: "LT" }), 422, "unprocessable", "registration_code.invalid");
      expect(await h.db("partners").where({ company_id: companyId, id: p.id }).first()).toMatchObject({ country_code: "LV", registration_code: "12345" });
    });
  });

  test.each<{ name: string; body: Partial<CreateBody>; field: string }>([
    { name: "countryCode not assigned", body: { countryCode: "XX" }, field: "countryCode" },
    { name: "address.countryCode not assigned", body: { address: { ...FULL.address, countryCode: "ZZ" } }, field: "address.countryCode" },
  ])("$name -> 422 country_code.unknown", async ({ body, field }) => {
    const error = await expectApiError(api.partners.create({ name: "Šalis", code: code("CC"), ...body }), 422, "unprocessable", "country_code.unknown");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual([field]);
  });

  test.each<{ name: string; body: Partial<CreateBody> }>([
    { name: "paymentTermDays 0", body: { paymentTermDays: 0 } },
    { name: "paymentTermDays 365", body: { paymentTermDays: 365 } },
    { name: "an address without line2", body: { address: { line1: "A", city: "B", postalCode: "1", countryCode: "LV" } } },
    { name: "Kosovo (XK)", body: { countryCode: "XK" } },
    { name: "an e-mail of 254 characters", body: { email: `${"a".repeat(64)}@${"b".repeat(185)}.com` } },
  ])("edge $name is accepted", async ({ body }) => {
    expect(await api.partners.create({ name: "Kraštas", code: code("EDGE"), ...body })).toMatchObject(body);
  });

  // Bodies the contract rejects: sent through invalid(), the one way past the SDK's types.
  test.each([
    { name: "paymentTermDays -1", body: { paymentTermDays: -1 }, field: "paymentTermDays" },
    { name: "paymentTermDays 366", body: { paymentTermDays: 366 }, field: "paymentTermDays" },
    { name: "paymentTermDays 1.5", body: { paymentTermDays: 1.5 }, field: "paymentTermDays" },
    { name: "paymentTermDays as a string", body: { paymentTermDays: "30" }, field: "paymentTermDays" },
    { name: "countryCode in lower case", body: { countryCode: "lt" }, field: "countryCode" },
    { name: "countryCode of 3 letters", body: { countryCode: "LTU" }, field: "countryCode" },
    { name: "email without @", body: { email: "pirkejas.lt" }, field: "email" },
    { name: "email of 255 characters", body: { email: `${"a".repeat(64)}@${"b".repeat(186)}.com` }, field: "email" },
    { name: "phone with letters", body: { phone: "+370 six" }, field: "phone" },
    { name: "registrationCode empty", body: { registrationCode: "" }, field: "registrationCode" },
    { name: "registrationCode with a leading space", body: { registrationCode: " 304" }, field: "registrationCode" },
    { name: "isCustomer as a string", body: { isCustomer: "yes" }, field: "isCustomer" },
    { name: "isSupplier null", body: { isSupplier: null }, field: "isSupplier" },
    { name: "address without city", body: { address: { line1: "A", postalCode: "1", countryCode: "LT" } }, field: "address.city" },
    { name: "address with an unknown property", body: { address: { ...FULL.address, zip: "1" } }, field: "address.zip" },
    { name: "vatCode null on create", body: { vatCode: null }, field: "vatCode" },
    { name: "an unknown property", body: { website: "x" }, field: "website" },
  ])("$name -> 400 naming $field", async ({ body, field }) => {
    const error = await expectApiError(api.partners.create(invalid({ name: "Blogas", code: code("BAD"), ...body })), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual([field]);
  });
});

describe("update", () => {
  test("changes only the fields sent and moves updatedAt", async () => {
    const before = await createPartner({ name: "Keičiamas", code: code("UPD"), ...FULL });
    await new Promise((r) => setTimeout(r, 20)); // so that updatedAt can only move forward
    const after = await api.partners.update({ id: before.id, name: "Pakeistas", paymentTermDays: 45, isCustomer: true });
    expect(after).toEqual({ ...before, name: "Pakeistas", paymentTermDays: 45, isCustomer: true, updatedAt: expect.stringMatching(ISO) });
    expect(new Date(after.updatedAt).getTime()).toBeGreaterThan(new Date(before.updatedAt).getTime());
    const row = await h.db("partners").where({ company_id: companyId, id: before.id }).first();
    expect(row).toMatchObject({ name: "Pakeistas", payment_term_days: 45, is_customer: true, iban: FULL.iban, vat_code: FULL.vatCode });
  });

  test("null clears every optional field", async () => {
    const before = await createPartner({ name: "Valomas", code: code("CLR"), ...FULL });
    const cleared = { vatCode: null, registrationCode: null, countryCode: null, address: null, email: null, phone: null, iban: null };
    expect(await api.partners.update({ id: before.id, ...cleared })).toMatchObject({ ...cleared, name: "Valomas", isSupplier: true, paymentTermDays: 30 });
    const row = await h.db("partners").where({ company_id: companyId, id: before.id }).first();
    expect([row.vat_code, row.registration_code, row.country_code, row.address, row.email, row.phone, row.iban]).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  test("an empty change returns the partner unchanged", async () => {
    const before = await createPartner({ name: "Nekeičiamas", code: code("SAME") });
    expect(await api.partners.update({ id: before.id })).toEqual(before);
  });

  test.each([
    { name: "name null", body: { name: null }, field: "name" },
    { name: "code null", body: { code: null }, field: "code" },
    { name: "isCustomer null", body: { isCustomer: null }, field: "isCustomer" },
    { name: "paymentTermDays null", body: { paymentTermDays: null }, field: "paymentTermDays" },
    { name: "paymentTermDays 366", body: { paymentTermDays: 366 }, field: "paymentTermDays" },
    { name: "no id", body: { id: undefined }, field: "id" },
  ])("$name -> 400 naming $field", async ({ body, field }) => {
    const p = await createPartner({ name: "Tvirtas", code: code("NN") });
    const error = await expectApiError(api.partners.update(invalid({ id: p.id, ...body })), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual([field]);
  });

  test.each([
    { name: "a corrupted iban", body: { iban: "LT121000011101001001" }, key: "iban.invalid" },
    { name: "a malformed LT VAT code", body: { vatCode: "LT1234567890" }, key: "vat_code.invalid" },
    { name: "an unassigned country", body: { countryCode: "AA" }, key: "country_code.unknown" },
  ])("$name -> 422 $key, and nothing changes", async ({ body, key: errorKey }) => {
    const p = await createPartner({ name: "Saugomas", code: code("R"), ...FULL });
    await expectApiError(api.partners.update({ id: p.id, name: "Neturi keistis", ...body }), 422, "unprocessable", errorKey);
    expect(await api.partners.get({ id: p.id })).toEqual(p);
  });

  test("the code changes while nothing references the partner; a taken code is 409 partner.code_taken", async () => {
    const a = await createPartner({ name: "A", code: code("A") });
    const b = await createPartner({ name: "B", code: code("B") });
    const fresh = code("NEW");
    expect((await api.partners.update({ id: a.id, code: fresh })).code).toBe(fresh);
    expect((await api.partners.get({ code: fresh })).id).toBe(a.id);
    const taken = await expectApiError(api.partners.update({ id: a.id, code: b.code }), 409, "conflict", "partner.code_taken");
    expect(taken.params).toEqual({ code: b.code });
    expect((await h.db("partners").where({ company_id: companyId, id: a.id }).first()).code).toBe(fresh);
  });

  test("an unknown id, or another account's partner -> 404", async () => {
    await expectApiError(api.partners.update({ id: NO_SUCH_ID, name: "X" }), 404, "not_found");
    const other = await h.tenant();
    const theirs = await createPartner({ name: "Svetimas", code: code("T") }, other.api);
    await expectApiError(api.partners.update({ id: theirs.id, name: "Užgrobtas" }), 404, "not_found");
    await expectApiError(api.withCompany(other.companyId).partners.update({ id: theirs.id, name: "Užgrobtas" }), 404, "not_found");
    expect((await h.db("partners").where({ id: theirs.id }).first()).name).toBe("Svetimas");
  });
});

describe("delete", () => {
  test.each([
    { name: "by id", by: (p: Partner) => ({ id: p.id }) },
    { name: "by code", by: (p: Partner) => ({ code: p.code }) },
  ])("$name returns the partner as it was and removes the row", async ({ by }) => {
    const p = await createPartner({ name: "Trinamas", code: code("DEL"), ...FULL });
    expect(await api.partners.delete(by(p))).toEqual(p);
    expect(await h.db("partners").where({ company_id: companyId, id: p.id })).toHaveLength(0);
    await expectApiError(api.partners.get({ id: p.id }), 404, "not_found");
    await expectApiError(api.partners.delete(by(p)), 404, "not_found");
  });

  test.each([
    { name: "both id and code", body: invalid({ id: NO_SUCH_ID, code: "X" }), status: 400, code: "validation" },
    { name: "neither", body: invalid({}), status: 400, code: "validation" },
    { name: "an unknown code", body: { code: "NO-SUCH" }, status: 404, code: "not_found" },
  ])("$name -> $status", async ({ body, status, code: errorCode }) => {
    await expectApiError(api.partners.delete(body), status, errorCode);
  });

  test("another account's partner cannot be deleted (404) and stays", async () => {
    const other = await h.tenant();
    const theirs = await createPartner({ name: "Svetimas", code: code("T") }, other.api);
    await expectApiError(api.partners.delete({ id: theirs.id }), 404, "not_found");
    await expectApiError(api.partners.delete({ code: theirs.code }), 404, "not_found");
    expect(await h.db("partners").where({ id: theirs.id })).toHaveLength(1);
  });

  describe("while referenced (any table with a foreign key to the partner's code)", () => {
    // A table of this test database that references partners the way journal_entries does, so the 23503 mapping
    // is proven for any referencing table, not only the ledger's.
    beforeAll(async () => {
      await h.db.raw(`
        create table test_partner_refs (
          company_id uuid not null,
          id serial,
          partner_code text not null,
          primary key (company_id, id),
          constraint test_partner_refs_partner_fkey foreign key (company_id, partner_code) references partners (company_id, code)
        )`);
    });

    test("delete and code change are 409 partner.referenced and change nothing; both work once the reference is gone", async () => {
      const p = await createPartner({ name: "Naudojamas", code: code("REF") });
      await h.db("test_partner_refs").insert({ company_id: companyId, partner_code: p.code });

      for (const body of [{ id: p.id }, { code: p.code }]) {
        const error = await expectApiError(
          api.partners.delete(body, { idempotencyKey: `del-${p.id}-${Object.keys(body)[0]}` }),
          409,
          "conflict",
          "partner.referenced",
        );
        expect(error.params).toEqual({ id: p.id, code: p.code });
      }
      await expectApiError(api.partners.update({ id: p.id, code: code("RENAMED") }), 409, "conflict", "partner.referenced");
      expect(await h.db("partners").where({ company_id: companyId, id: p.id }).first()).toMatchObject({ code: p.code, name: "Naudojamas" });

      // Other fields still change while referenced.
      expect(await api.partners.update({ id: p.id, name: "Pervadintas", code: p.code })).toMatchObject({ name: "Pervadintas", code: p.code });

      await h.db("test_partner_refs").where({ company_id: companyId, partner_code: p.code }).delete();
      await api.partners.delete({ id: p.id });
      expect(await h.db("partners").where({ company_id: companyId, id: p.id })).toHaveLength(0);
    });
  });
});

describe("list", () => {
  let t: { apiKey: string; companyId: string; api: AccountingApi };
  const seeded: CreateBody[] = [
    { name: "Alfa UAB", code: "A1", countryCode: "LT", isSupplier: true, paymentTermDays: 30, email: "alfa@alfa.lt" },
    { name: "Beta SIA", code: "B1", countryCode: "LV", isCustomer: false, isSupplier: true, paymentTermDays: 14 },
    { name: "Gama OÜ", code: "G1", countryCode: "EE", paymentTermDays: 0 },
    { name: "Delta UAB", code: "D1", countryCode: "LT", isPrivatePerson: true, paymentTermDays: 60 },
    { name: "Alfa Vardenis", code: "A2", isPrivatePerson: true },
  ];
  const codes = (page: { rows: { code: string }[] }) => page.rows.map((r) => r.code);

  beforeAll(async () => {
    t = await h.tenant();
    for (const p of seeded) await createPartner(p, t.api);
    // Another company's partners never show.
    const other = await h.tenant();
    await createPartner({ name: "Alfa svetimas", code: "A1" }, other.api);
  });

  test("default order is name then code; rows have the full shape", async () => {
    const page = await t.api.partners.list();
    expect(page).toMatchObject({ page: 1, pageSize: 50, total: 5 });
    expect(codes(page)).toEqual(["A1", "A2", "B1", "D1", "G1"]);
    expect(page.rows[0]).toEqual({
      id: expect.stringMatching(UUID),
      ...DEFAULTS,
      ...seeded[0],
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
  });

  test.each<{ name: string; body: ListBody; codes: string[] }>([
    { name: "isSupplier eq true", body: { filter: [{ field: "isSupplier", op: "eq", value: true }] }, codes: ["A1", "B1"] },
    { name: "isCustomer ne true", body: { filter: [{ field: "isCustomer", op: "ne", value: true }] }, codes: ["B1"] },
    { name: "isPrivatePerson eq true", body: { filter: [{ field: "isPrivatePerson", op: "eq", value: true }] }, codes: ["A2", "D1"] },
    { name: "countryCode in LT, EE", body: { filter: [{ field: "countryCode", op: "in", value: ["LT", "EE"] }] }, codes: ["A1", "D1", "G1"] },
    { name: "countryCode ne LT (null counts as different)", body: { filter: [{ field: "countryCode", op: "ne", value: "LT" }] }, codes: ["A2", "B1", "G1"] },
    { name: "name contains 'ALFA'", body: { filter: [{ field: "name", op: "contains", value: "ALFA" }] }, codes: ["A1", "A2"] },
    {
      name: "paymentTermDays gte 14 and lte 30",
      body: {
        filter: [
          { field: "paymentTermDays", op: "gte", value: 14 },
          { field: "paymentTermDays", op: "lte", value: 30 },
        ],
      },
      codes: ["A1", "B1"],
    },
    { name: "email eq", body: { filter: [{ field: "email", op: "eq", value: "alfa@alfa.lt" }] }, codes: ["A1"] },
    {
      name: "sort paymentTermDays desc then code",
      body: { sort: [{ field: "paymentTermDays", dir: "desc" }, { field: "code" }] },
      codes: ["D1", "A1", "B1", "A2", "G1"],
    },
    { name: "sort code desc", body: { sort: [{ field: "code", dir: "desc" }] }, codes: ["G1", "D1", "B1", "A2", "A1"] },
  ])("$name", async ({ body, codes: expected }) => {
    const page = await t.api.partners.list(body);
    expect(codes(page)).toEqual(expected);
    expect(page.total).toBe(expected.length);
  });

  test("pages split the ordered rows and total counts them all", async () => {
    const first = await t.api.partners.list({ pageSize: 2, page: 1 });
    const third = await t.api.partners.list({ pageSize: 2, page: 3 });
    expect([codes(first), first.total, codes(third), third.total]).toEqual([["A1", "A2"], 5, ["G1"], 5]);
  });

  test.each([
    {
      name: "totals of paymentTermDays (this list totals nothing: the contract takes no totals)",
      body: { totals: ["paymentTermDays"] },
      field: "totals",
      also: ["totals[0]"],
    },
    { name: "filter on address", body: { filter: [{ field: "address", op: "eq", value: "x" }] }, field: "filter[0].field" },
    { name: "contains on a boolean", body: { filter: [{ field: "isSupplier", op: "contains", value: "t" }] }, field: "filter[0].op" },
    { name: "a boolean filter with a string", body: { filter: [{ field: "isSupplier", op: "eq", value: "true" }] }, field: "filter[0].value" },
    { name: "sort by id", body: { sort: [{ field: "id" }] }, field: "sort[0].field" },
  ])("$name -> 400 naming $field", async ({ body, field, also }: { body: object; field: string; also?: string[] }) => {
    // Bodies the list engine refuses; the contract may or may not already refuse them by type (field-name enums).
    const error = await expectApiError(t.api.partners.list(invalid(body)), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {}).sort()).toEqual([field, ...(also ?? [])].sort());
  });

  test("another account's company -> 404", async () => {
    await expectApiError(api.withCompany(t.companyId).partners.list(), 404, "not_found");
  });
});

describe("peppolId (issue 25): scheme:id with a scheme of Peppol's EAS list", () => {
  test.each([
    { name: "a scheme Peppol does not know", peppolId: "1234:5678", status: 422, errorKey: "peppol_id.invalid" },
    { name: "a Lithuanian company code (0200) that is not 9 digits", peppolId: "0200:12345", status: 422, errorKey: "peppol_id.invalid" },
    { name: "no scheme", peppolId: "304000004", status: 400, errorKey: "request.invalid" },
    { name: "a space in the id", peppolId: "0088:73 00", status: 400, errorKey: "request.invalid" },
  ])("$name -> $status, nothing stored", async ({ peppolId, status, errorKey }) => {
    const c = code("PEP");
    const res = await h.post("/v1/partners/create", { name: "Peppol UAB", code: c, peppolId }, { key, companyId });
    expect([res.status, res.body.error?.key]).toEqual([status, errorKey]);
    if (status === 422) expect(Object.keys(res.body.error.fieldErrors)).toEqual(["peppolId"]);
    expect(await h.db("partners").where({ company_id: companyId, code: c })).toHaveLength(0);
  });

  test("kept, changed and removed by update", async () => {
    const p = await api.partners.create({ name: "Peppol UAB", code: code("PEP"), peppolId: "9937:LT100001919017" });
    expect(p.peppolId).toBe("9937:LT100001919017");
    expect((await api.partners.update({ id: p.id, peppolId: "0088:7300010000001" })).peppolId).toBe("0088:7300010000001");
    expect((await api.partners.update({ id: p.id, peppolId: null })).peppolId).toBeNull();
    expect((await h.db("partners").where({ id: p.id }).first()).peppol_id).toBeNull();
    await expectApiError(api.partners.update({ id: p.id, peppolId: "0000:1" }), 422, "unprocessable", "peppol_id.invalid");
  });
});
