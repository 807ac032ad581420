// partners/create and partners/get: the partner's shape, lookup by id or by code, and code uniqueness within
// a company.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { startHarness, type ApiResponse, type Harness } from "../support/harness.js";

let h: Harness;
let key: string;
let companyId: string;

beforeAll(async () => {
  h = await startHarness();
  ({ apiKey: key, companyId } = await h.tenant());
});
afterAll(() => h.close());

const CREATE = "/v1/partners/create";
const GET = "/v1/partners/get";
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NO_SUCH_ID = "00000000-0000-4000-8000-000000000000";

let seq = 0;
const code = (prefix = "P") => `${prefix}${Date.now().toString(36)}-${++seq}`;

function expectError(res: ApiResponse, status: number, code: string) {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
}

async function createPartner(body: { name: string; code: string }, company = companyId, apiKey = key) {
  const res = await h.post(CREATE, body, { key: apiKey, companyId: company });
  if (res.status !== 200) throw new Error(`partner create failed: ${JSON.stringify(res.body)}`);
  return res.body;
}

describe("create", () => {
  test("returns id, code, name and timestamps, and stores the row in the company", async () => {
    const input = { name: "Tiekėjas UAB", code: code("SUP") };
    const res = await h.post(CREATE, input, { key, companyId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.stringMatching(UUID), ...input, createdAt: expect.stringMatching(ISO), updatedAt: expect.stringMatching(ISO) });
    expect(res.body.createdAt).toBe(res.body.updatedAt);
    const rows = await h.db("partners").where({ id: res.body.id });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ company_id: companyId, code: input.code, name: input.name });
    expect(new Date(rows[0].created_at).toISOString()).toBe(res.body.createdAt);
  });

  test("a code of 64 characters and a name of 255 are kept whole", async () => {
    const input = { name: "Ž".repeat(255), code: (code("LONG") + "9".repeat(64)).slice(0, 64) };
    const res = await h.post(CREATE, input, { key, companyId });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject(input);
  });

  test("X-Company-Id is required for an unrestricted key", async () => {
    const c = code();
    const res = await h.post(CREATE, { name: "Be įmonės", code: c }, { key });
    expectError(res, 400, "validation");
    expect(Object.keys(res.body.error.fieldErrors)).toEqual(["X-Company-Id"]);
    expect(await h.db("partners").where({ code: c })).toHaveLength(0);
  });

  test("another account's company -> 404, nothing stored", async () => {
    const other = await h.tenant();
    const c = code();
    const res = await h.post(CREATE, { name: "Svetimas", code: c }, { key, companyId: other.companyId });
    expectError(res, 404, "not_found");
    expect(await h.db("partners").where({ code: c })).toHaveLength(0);
  });

  test("missing name and code -> 400 naming both", async () => {
    const res = await h.post(CREATE, {}, { key, companyId });
    expectError(res, 400, "validation");
    expect(Object.keys(res.body.error.fieldErrors).sort()).toEqual(["code", "name"]);
  });
});

describe("get", () => {
  let partner: { id: string; code: string; name: string; createdAt: string; updatedAt: string };
  beforeAll(async () => {
    partner = await createPartner({ name: "Pirkėjas UAB", code: code("CUS") });
  });

  test("by id and by code give the same body as create", async () => {
    const byId = await h.post(GET, { id: partner.id }, { key, companyId });
    const byCode = await h.post(GET, { code: partner.code }, { key, companyId });
    expect(byId.status).toBe(200);
    expect(byCode.status).toBe(200);
    expect(byId.body).toEqual(partner);
    expect(byCode.body).toEqual(byId.body);
  });

  test.each([
    { name: "both id and code", body: () => ({ id: partner.id, code: partner.code }) },
    { name: "neither id nor code", body: () => ({}) },
  ])("$name -> 400 naming id and code", async ({ body }) => {
    const res = await h.post(GET, body(), { key, companyId });
    expectError(res, 400, "validation");
    expect(Object.keys(res.body.error.fieldErrors).sort()).toEqual(["code", "id"]);
  });

  test.each([
    { name: "an unknown id", body: { id: NO_SUCH_ID }, params: { id: NO_SUCH_ID } },
    { name: "an unknown code", body: { code: "NO-SUCH-CODE" }, params: { code: "NO-SUCH-CODE" } },
  ])("$name -> 404 not_found partner.not_found", async ({ body, params }) => {
    const res = await h.post(GET, body, { key, companyId });
    expectError(res, 404, "not_found");
    expect(res.body.error.key).toBe("partner.not_found");
    expect(res.body.error.params).toEqual(params);
  });

  test("a code is matched exactly (not by prefix or case)", async () => {
    for (const near of [partner.code.slice(0, -1), partner.code.toLowerCase(), `${partner.code}x`]) {
      const res = await h.post(GET, { code: near }, { key, companyId });
      expectError(res, 404, "not_found");
    }
  });

  test("a malformed id -> 400 naming id", async () => {
    const res = await h.post(GET, { id: "P-1" }, { key, companyId });
    expectError(res, 400, "validation");
    expect(Object.keys(res.body.error.fieldErrors)).toEqual(["id"]);
  });

  test("another company's partner is not found, by id or by code", async () => {
    const other = await h.tenant();
    const theirs = await createPartner({ name: "Kito partneris", code: code("THEIRS") }, other.companyId, other.apiKey);
    expectError(await h.post(GET, { id: theirs.id }, { key, companyId }), 404, "not_found");
    expectError(await h.post(GET, { code: theirs.code }, { key, companyId }), 404, "not_found");
    // ... and through the other account's key naming this company.
    expectError(await h.post(GET, { id: partner.id }, { key: other.apiKey, companyId }), 404, "not_found");
  });
});

describe("code uniqueness within a company", () => {
  test("a duplicate code -> 409 conflict partner.code_taken, and no second row", async () => {
    const c = code("DUP");
    const first = await createPartner({ name: "Pirmas", code: c });
    const res = await h.post(CREATE, { name: "Antras", code: c }, { key, companyId });
    expectError(res, 409, "conflict");
    expect(res.body.error.key).toBe("partner.code_taken");
    expect(res.body.error.params).toEqual({ code: c });
    const rows = await h.db("partners").where({ company_id: companyId, code: c });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: first.id, name: "Pirmas" });
  });

  test("the same code in another company (same account) is fine", async () => {
    const c = code("SHARED");
    const mine = await createPartner({ name: "Mano", code: c });
    const second = await h.post("/v1/account/companies/create", { name: "Antra įmonė UAB", code: code("CO"), countryCode: "LT" }, { key });
    expect(second.status).toBe(200);
    const res = await h.post(CREATE, { name: "Kitos įmonės", code: c }, { key, companyId: second.body.id });
    expect(res.status).toBe(200);
    expect(res.body.id).not.toBe(mine.id);
    const rows = await h.db("partners").where({ code: c }).orderBy("name");
    expect(rows.map((r: { company_id: string; name: string }) => [r.company_id, r.name])).toEqual([
      [second.body.id, "Kitos įmonės"],
      [companyId, "Mano"],
    ]);
    // Each company's get by code returns its own partner.
    expect((await h.post(GET, { code: c }, { key, companyId })).body.id).toBe(mine.id);
    expect((await h.post(GET, { code: c }, { key, companyId: second.body.id })).body.id).toBe(res.body.id);
  });

  test("the same code in another account's company is fine", async () => {
    const c = code("ACCT");
    await createPartner({ name: "Mano", code: c });
    const other = await h.tenant();
    const res = await h.post(CREATE, { name: "Svetimas", code: c }, { key: other.apiKey, companyId: other.companyId });
    expect(res.status).toBe(200);
    expect(await h.db("partners").where({ code: c })).toHaveLength(2);
  });

  test("concurrent creates of one code: exactly one succeeds, the rest are 409", async () => {
    const c = code("RACE");
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => h.post(CREATE, { name: `Lenktynės ${i}`, code: c }, { key, companyId })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    for (const r of results.filter((r) => r.status === 409)) expect(r.body.error.key).toBe("partner.code_taken");
    expect(await h.db("partners").where({ company_id: companyId, code: c })).toHaveLength(1);
  });
});
