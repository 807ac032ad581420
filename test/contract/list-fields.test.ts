// Issue 14: every list operation declares the field names it filters on, sorts by and totals as enums (so SDKs type
// them), and those enums are exactly what the list engine accepts for the operation, in both directions. The engine
// is asked directly: a server on the same contract with the enums widened back to plain names answers an unknown
// field with the engine's own list of the names it accepts. The engine is asked raw (through the widened contract,
// which no SDK types); the contract's own lists through the SDK.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { loadDocument } from "../../src/http/openapi.js";
import { expectApiError, invalid } from "../support/expect.js";
import { startHarness, type Harness } from "../support/harness.js";
import { listOperations, widenListFields, type ListOperation } from "../support/list-fields.js";

const document = loadDocument();
const lists = listOperations(document);

/** "is not a sortable field; one of: a, b" -> [a, b] */
const namesIn = (messages: string[] | undefined): string[] => {
  const match = /one of: (.*)$/.exec(messages?.[0] ?? "");
  if (!match) throw new Error(`no list of names in ${JSON.stringify(messages)}`);
  return match[1] === "(none)" ? [] : match[1].split(", ");
};

let engine: Harness;
let tenant: { apiKey: string; companyId: string };
beforeAll(async () => {
  engine = await startHarness({ document: widenListFields(document) });
  tenant = await engine.tenant();
});
afterAll(() => engine.close());

describe("list field enums", () => {
  test("every list operation has its own request with typed filter, sort and totals names", () => {
    expect(lists.length).toBeGreaterThanOrEqual(18);
    for (const list of lists) {
      expect(list.request).toMatch(/ListRequest$/);
      expect(list.filter.length).toBeGreaterThan(0);
      expect(list.sort.length).toBeGreaterThan(0);
    }
  });

  test.each(lists.map((l) => [l.operationId, l] as [string, ListOperation]))("%s: the enums are exactly what the list engine accepts", async (_, list) => {
    const unknown = "noSuchField";
    const res = await engine.post(
      list.path,
      { filter: [{ field: unknown, op: "eq", value: "x" }], sort: [{ field: unknown }], totals: [unknown] },
      { key: tenant.apiKey, companyId: list.companyScoped ? tenant.companyId : undefined },
    );
    expect(res.status).toBe(400);
    expect(res.body.error.key).toBe("list.invalid");
    const fieldErrors = res.body.error.fieldErrors;
    expect({
      filter: namesIn(fieldErrors["filter[0].field"]).sort(),
      sort: namesIn(fieldErrors["sort[0].field"]).sort(),
      totals: namesIn(fieldErrors["totals[0]"]).sort(),
    }).toEqual({ filter: [...list.filter].sort(), sort: [...list.sort].sort(), totals: [...list.totals].sort() });
  });
});

describe("against the published contract", () => {
  let h: Harness;
  let t: { apiKey: string; companyId: string };
  beforeAll(async () => {
    h = await startHarness();
    t = await h.tenant();
  });
  afterAll(() => h.close());

  test("the SDK types a list that totals nothing with empty totals: a field name there does not compile", async () => {
    const api = h.sdk(t.apiKey, t.companyId);
    // @ts-expect-error partners/list totals nothing (`totals?: never[]`); `npm test` type-checks this line
    const refused = await api.partners.list({ totals: ["paymentTermDays"] }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 400 });
    expect(await api.partners.list({ totals: [] })).toMatchObject({ rows: [], total: 0 });
  });

  test.each([
    { name: "an unknown filter field", body: { filter: [{ field: "noSuchField", op: "eq", value: "x" }] }, field: "filter[0].field" },
    { name: "an unknown sort field", body: { sort: [{ field: "noSuchField" }] }, field: "sort[0].field" },
    { name: "totals on a list that totals nothing", body: { totals: ["paymentTermDays"] }, field: "totals" },
  ])("partners/list refuses $name with a 400 naming it, and lists nothing", async ({ body, field }) => {
    const error = await expectApiError(h.sdk(t.apiKey, t.companyId).partners.list(invalid(body)), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {})).toContain(field);
    expect((error.body as { rows?: unknown }).rows).toBeUndefined();
  });

  test("a declared field filters, sorts and totals", async () => {
    const res = await h.sdk(t.apiKey, t.companyId).sales.invoices.list({
      filter: [{ field: "status", op: "eq", value: "draft" }],
      sort: [{ field: "issueDate", dir: "desc" }],
      totals: ["grossTotal"],
    });
    expect(res).toEqual({ rows: [], page: 1, pageSize: 50, total: 0, totals: { grossTotal: expect.stringMatching(/^0(\.00)?$/) } });
  });
});
