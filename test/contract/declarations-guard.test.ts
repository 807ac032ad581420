// The jurisdiction guard (spec: "What the service does", rule 4): a compliance operation under
// /v1/declarations/{cc}/... answers 422 unless the company is registered in country cc. No declaration operation
// exists yet, so this file adds a placeholder one to a copy of the contract.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import type { Document } from "openapi-backend";
import { defineHandler, requireCompany, type Handler } from "../../src/handlers/types.js";
import { loadDocument } from "../../src/http/openapi.js";
import { startHarness, type Harness } from "../support/harness.js";
import { ltCompanyCode } from "../support/codes.js";

const PATH = "/v1/declarations/lt/placeholder/get";
const OPERATION_ID = "declarations_lt_placeholder_get";

let h: Harness;
const handled: string[] = [];

function documentWithPlaceholder(): Document {
  const document = structuredClone(loadDocument()) as Document & { paths: Record<string, { post: Record<string, any> }> };
  const template = document.paths["/v1/partners/get"].post;
  const responses = structuredClone(template.responses) as Record<string, any>;
  // scripts/gen.mjs gives an operation under /v1/declarations/{cc}/ a 422 carrying `jurisdiction.mismatch`.
  responses["422"] = {
    description: "The company is not registered in LT (`jurisdiction.mismatch`).",
    content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorEnvelope" } } },
    "x-error-keys": ["jurisdiction.mismatch"],
  };
  responses["200"].content = {
    "application/json": {
      schema: {
        type: "object",
        required: ["ok", "companyId"],
        additionalProperties: false,
        properties: { ok: { type: "boolean" }, companyId: { type: "string", format: "uuid" } },
      },
    },
  };
  document.paths[PATH] = {
    post: {
      operationId: OPERATION_ID,
      description: "Test only: a Lithuanian compliance operation.",
      "x-required-scope": "declarations:read",
      parameters: [{ $ref: "#/components/parameters/CompanyHeader" }],
      requestBody: {
        required: true,
        content: { "application/json": { schema: { type: "object", additionalProperties: false, properties: {} } } },
      },
      responses,
    },
  };
  return document;
}

beforeAll(async () => {
  const handler = defineHandler(OPERATION_ID as "partners_get", async (ctx) => {
    const companyId = requireCompany(ctx).id;
    handled.push(companyId);
    return { ok: true, companyId } as never;
  }) as unknown as Handler;
  h = await startHarness({ document: documentWithPlaceholder(), extraHandlers: new Map([[OPERATION_ID, handler]]) });
});
afterAll(() => h.close());

let seq = 0;
const uniq = (prefix: string) => `${prefix}-${++seq}-${Date.now().toString(36)}`;

async function keyWith(root: { apiKey: string }, scopes: string[], companyIds?: string[]): Promise<string> {
  const res = await h.post("/v1/account/api-keys/create", { name: uniq("key"), scopes, ...(companyIds ? { companyIds } : {}) }, { key: root.apiKey });
  if (res.status !== 200) throw new Error(`api-keys/create failed: ${JSON.stringify(res.body)}`);
  return res.body.key;
}

describe("/v1/declarations/lt/...", () => {
  test("an LT company reaches the handler: 200", async () => {
    const t = await h.tenant();
    const res = await h.post(PATH, {}, { key: t.apiKey, companyId: t.companyId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, companyId: t.companyId });
    expect(handled).toContain(t.companyId);

    // A key holding exactly declarations:read, restricted to this one company, may omit X-Company-Id.
    const narrow = await keyWith(t, ["declarations:read"], [t.companyId]);
    const implicit = await h.post(PATH, {}, { key: narrow });
    expect(implicit.status).toBe(200);
    expect(implicit.body).toEqual({ ok: true, companyId: t.companyId });
  });

  test("an LV company: 422 unprocessable jurisdiction.mismatch, and the handler does not run", async () => {
    const t = await h.tenant({ countryCode: "LV", name: "Latvija SIA" });
    expect(await h.db("companies").where({ id: t.companyId }).first("country_code")).toEqual({ country_code: "LV" });
    const calls = handled.length;

    const res = await h.post(PATH, {}, { key: t.apiKey, companyId: t.companyId });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({
      code: "unprocessable",
      key: "jurisdiction.mismatch",
      params: { jurisdiction: "LT", companyCountry: "LV" },
    });
    expect(res.body.error.message).toContain("LT");

    // The same account's LT company is still allowed: the guard looks at the named company, not the account.
    const lt = await h.post("/v1/account/companies/create", { name: "Lietuva UAB", code: ltCompanyCode(), countryCode: "LT" }, { key: t.apiKey });
    expect(lt.status).toBe(200);
    const ok = await h.post(PATH, {}, { key: t.apiKey, companyId: lt.body.id });
    expect(ok.body).toEqual({ ok: true, companyId: lt.body.id });
    expect(handled.slice(calls)).toEqual([lt.body.id]);
  });

  test("an unknown company, or another account's, is 404 not_found", async () => {
    const t = await h.tenant();
    const other = await h.tenant();
    const calls = handled.length;
    for (const companyId of ["7f1c2a9e-4b1d-4c5e-9a8f-3d2e1c0b9a87", other.companyId]) {
      const res = await h.post(PATH, {}, { key: t.apiKey, companyId });
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: "not_found", key: "company.not_found", params: { companyId } });
    }
    expect(handled.length).toBe(calls);
  });

  test("a key without declarations:read is 403 forbidden, even for an LT company", async () => {
    const t = await h.tenant();
    const partnersOnly = await keyWith(t, ["partners:write"]);
    const calls = handled.length;
    const res = await h.post(PATH, {}, { key: partnersOnly, companyId: t.companyId });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: "forbidden", key: "auth.scope_missing", params: { requiredScope: "declarations:read" } });
    expect(handled.length).toBe(calls);
  });

  test("the company must be named (400), and the body is validated against the contract (400)", async () => {
    const t = await h.tenant();
    const unnamed = await h.post(PATH, {}, { key: t.apiKey });
    expect(unnamed.status).toBe(400);
    expect(Object.keys(unnamed.body.error.fieldErrors)).toEqual(["X-Company-Id"]);

    const extra = await h.post(PATH, { year: 2026 }, { key: t.apiKey, companyId: t.companyId });
    expect(extra.status).toBe(400);
    expect(extra.body.error.code).toBe("validation");
  });
});
