// Request validation through the real pipeline: body parsing (400 naming `body`), the contract's schema (400
// naming every offending field by its path), the list request's bounds, the body size limit (413), unknown
// routes (404) and the request id. Every error is checked against the envelope by the harness as well.
// Raw HTTP throughout: each test sends what the contract forbids or the SDK cannot send (malformed JSON, wrong
// content types, oversize bodies, unknown routes, request ids of its own).
import { request, type IncomingHttpHeaders } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { defineHandler } from "../../src/handlers/types.js";
import { startHarness, type ApiResponse, type Harness, type RequestOptions } from "../support/harness.js";
import { ltCompanyCode } from "../support/codes.js";

let h: Harness;
let key: string;
let companyId: string;

beforeAll(async () => {
  h = await startHarness();
  ({ apiKey: key, companyId } = await h.tenant());
});
afterAll(() => h.close());

const CREATE = "/v1/account/companies/create";
const LIST = "/v1/account/companies/list";
const MB = 1024 * 1024;

let _seq = 0;
// A valid Lithuanian legal entity code: the companies here are Lithuanian.
const uniqueCode = () => (++_seq, ltCompanyCode());
const validCompany = (overrides: Record<string, unknown> = {}) => ({ name: "Validacija UAB", code: uniqueCode(), countryCode: "LT", ...overrides });

/** A 400 `validation` whose fieldErrors name exactly `fields`, each with at least one non-empty message. */
function expectFieldErrors(res: ApiResponse, fields: string[]): Record<string, string[]> {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status: 400, code: "validation" });
  const fieldErrors = res.body.error.fieldErrors as Record<string, string[]>;
  expect(Object.keys(fieldErrors).sort()).toEqual([...fields].sort());
  for (const messages of Object.values(fieldErrors)) {
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) expect(message.trim().length).toBeGreaterThan(0);
  }
  expect(res.body.error.message.length).toBeLessThanOrEqual(2000);
  return fieldErrors;
}

describe("the body must be a JSON object sent as application/json", () => {
  const validJson = JSON.stringify({ pageSize: 1 });
  test.each<{ name: string; rawBody: string | Buffer; contentType?: string | null; fields?: string[] }>([
    { name: "a body that is not JSON", rawBody: "hello" },
    { name: "malformed JSON", rawBody: '{"pageSize": ' },
    { name: "JSON with a trailing comma", rawBody: '{"pageSize": 1,}' },
    { name: "valid JSON sent as text/plain", rawBody: validJson, contentType: "text/plain" },
    { name: "valid JSON sent as application/x-www-form-urlencoded", rawBody: validJson, contentType: "application/x-www-form-urlencoded" },
    { name: "valid JSON without any Content-Type", rawBody: Buffer.from(validJson), contentType: null },
    { name: "an empty body", rawBody: "" },
    { name: "an empty body without Content-Type", rawBody: Buffer.alloc(0), contentType: null },
    { name: "JSON null", rawBody: "null" },
    { name: "a JSON array", rawBody: "[]" },
    { name: "a JSON string", rawBody: '"hello"' },
  ])("$name -> 400 validation naming body", async ({ rawBody, contentType }) => {
    const res = await h.post(LIST, undefined, { key, rawBody, contentType });
    expectFieldErrors(res, ["body"]);
  });

  test("application/json with a charset parameter is accepted", async () => {
    const res = await h.post(LIST, undefined, { key, rawBody: validJson, contentType: "application/json; charset=utf-8" });
    expect(res.status).toBe(200);
    expect(res.body.pageSize).toBe(1);
  });

  test("the body is parsed before the schema is checked: malformed JSON on create names only body and stores nothing", async () => {
    const before = await h.db("companies").count<{ count: string }[]>("* as count");
    const res = await h.post(CREATE, undefined, { key, rawBody: '{"name": "X", "code": "Y", "countryCode": "LT"' });
    expectFieldErrors(res, ["body"]);
    expect(res.body.error.fieldErrors.body[0]).toMatch(/JSON/);
    const after = await h.db("companies").count<{ count: string }[]>("* as count");
    expect(after).toEqual(before);
  });
});

describe("schema violations name every offending field at once, by path", () => {
  const longName = "N".repeat(256);
  test.each<{ name: string; path: string; body: Record<string, unknown>; fields: string[]; message?: RegExp }>([
    {
      name: "four bad fields of companies/create, one nested in address",
      path: CREATE,
      body: {
        name: "",
        code: "X".repeat(65),
        countryCode: "US",
        address: { line1: "Gedimino pr. 1", city: "", postalCode: "01100", countryCode: "LT" },
      },
      fields: ["name", "code", "countryCode", "address.city"],
    },
    {
      name: "every required field missing",
      path: CREATE,
      body: {},
      fields: ["name", "code", "countryCode"],
      message: /required/,
    },
    {
      name: "a required field missing inside address",
      path: CREATE,
      body: validCompany({ address: { line1: "Gedimino pr. 1", postalCode: "01100", countryCode: "LT" } }),
      fields: ["address.city"],
      message: /required/,
    },
    {
      name: "an unknown top-level property",
      path: CREATE,
      body: validCompany({ colour: "blue" }),
      fields: ["colour"],
      message: /not a known property/,
    },
    {
      name: "an unknown property nested in address",
      path: CREATE,
      body: validCompany({ address: { line1: "Gedimino pr. 1", city: "Vilnius", postalCode: "01100", countryCode: "LT", zip: "x" } }),
      fields: ["address.zip"],
      message: /not a known property/,
    },
    {
      name: "type errors (number for a string, string for an integer, array for an object)",
      path: CREATE,
      body: validCompany({ name: 5, fiscalYearStartMonth: "1", address: [] }),
      fields: ["name", "fiscalYearStartMonth", "address"],
    },
    {
      name: "pattern errors",
      path: CREATE,
      body: validCompany({ vatCode: "lt1", email: "not-an-email", phone: "call me", iban: "LT12", baseCurrency: "eur" }),
      fields: ["vatCode", "email", "phone", "iban", "baseCurrency"],
    },
    {
      name: "a code with surrounding spaces and a name of only spaces",
      path: CREATE,
      body: validCompany({ code: " C1 ", name: "   " }),
      fields: ["code", "name"],
    },
    {
      name: "an enum error: a country outside the EEA",
      path: CREATE,
      body: validCompany({ countryCode: "US" }),
      fields: ["countryCode"],
      message: /must be one of: .*"LT"/,
    },
    {
      name: "enum errors in a list request",
      path: LIST,
      body: { sort: [{ field: "name", dir: "up" }], filter: [{ field: "code", op: "like", value: "x" }] },
      fields: ["sort[0].dir", "filter[0].op"],
      message: /must be one of/,
    },
    {
      name: "month out of range",
      path: CREATE,
      body: validCompany({ fiscalYearStartMonth: 13 }),
      fields: ["fiscalYearStartMonth"],
    },
    {
      name: "name of 256 characters",
      path: CREATE,
      body: validCompany({ name: longName }),
      fields: ["name"],
    },
    {
      name: "code of 65 characters",
      path: CREATE,
      body: validCompany({ code: "C".repeat(65) }),
      fields: ["code"],
    },
    {
      name: "a bad field name in the second filter item",
      path: LIST,
      body: {
        filter: [
          { field: "code", op: "eq", value: "x" },
          { field: "f".repeat(65), op: "eq", value: "x" },
        ],
      },
      fields: ["filter[1].field"],
    },
    {
      name: "a filter item missing its members",
      path: LIST,
      body: { filter: [{ field: "code" }] },
      fields: ["filter[0].op", "filter[0].value"],
      message: /required/,
    },
    {
      name: "the id of companies/get must be a UUID",
      path: "/v1/account/companies/get",
      body: { id: "not-a-uuid" },
      fields: ["id"],
    },
  ])("$name", async ({ path, body, fields, message }) => {
    const fieldErrors = expectFieldErrors(await h.post(path, body, { key }), fields);
    if (message) for (const field of fields) expect(fieldErrors[field].join(" ")).toMatch(message);
  });

  test("nothing is stored when a create is rejected", async () => {
    const code = uniqueCode();
    const res = await h.post(CREATE, validCompany({ code, colour: "blue" }), { key });
    expect(res.status).toBe(400);
    expect(await h.db("companies").where({ code })).toHaveLength(0);
  });
});

describe("length limits at the edge and one past it", () => {
  test("name of 255 characters is accepted and stored whole; 256 is refused", async () => {
    const name = "Ą".repeat(255);
    const ok = await h.post(CREATE, validCompany({ name }), { key });
    expect(ok.status).toBe(200);
    expect(ok.body.name).toBe(name);
    expect((await h.db("companies").where({ id: ok.body.id }).first()).name).toBe(name);
    expectFieldErrors(await h.post(CREATE, validCompany({ name: `${name}Ą` }), { key }), ["name"]);
  });

  test("code of 64 characters is accepted; 65 is refused", async () => {
    // A Latvian company: the contract's limit is the point here, not the Lithuanian 9-digit code.
    const code = (uniqueCode() + "x".repeat(64)).slice(0, 64);
    const ok = await h.post(CREATE, validCompany({ code, countryCode: "LV" }), { key });
    expect(ok.status).toBe(200);
    expect(ok.body.code).toBe(code);
    expectFieldErrors(await h.post(CREATE, validCompany({ code: `${code}y`, countryCode: "LV" }), { key }), ["code"]);
  });

  test.each<{ name: string; idempotencyKey: string; ok: boolean }>([
    { name: "255 printable ASCII characters", idempotencyKey: "k".repeat(255), ok: true },
    { name: "1 character", idempotencyKey: "k", ok: true },
    { name: "256 characters", idempotencyKey: "k".repeat(256), ok: false },
    // Header values travel as bytes: a UTF-8 key arrives as its bytes, each read as one latin-1 character.
    { name: "a non-ASCII (UTF-8) character", idempotencyKey: Buffer.from("raktas-ž", "utf8").toString("latin1"), ok: false },
    { name: "a latin-1 character", idempotencyKey: "clé", ok: false },
  ])("Idempotency-Key of $name", async ({ idempotencyKey, ok }) => {
    const body = validCompany();
    const res = await h.post(CREATE, body, { key, idempotencyKey });
    if (ok) {
      expect(res.status).toBe(200);
      expect(res.body.code).toBe(body.code);
      const replay = await h.post(CREATE, body, { key, idempotencyKey });
      expect(replay.status).toBe(200);
      expect(replay.headers.get("x-idempotent-replay")).toBe("true");
      expect(replay.body).toEqual(res.body);
    } else {
      const fieldErrors = expectFieldErrors(res, ["Idempotency-Key"]);
      expect(fieldErrors["Idempotency-Key"].length).toBeGreaterThan(0);
      expect(await h.db("companies").where({ code: body.code })).toHaveLength(0);
    }
  });
});

describe("arrays of distinct items", () => {
  // 20,000 event types of a wrong type took six minutes of the event loop (the contract fuzzer, issue 22): each item's
  // failed union was matched against every error, and ajv compares every pair of items for uniqueItems whatever
  // maxItems says. 100,000 would take hours that way; within the test's timeout it is a plain 400.
  test.each([
    { name: "each of a wrong type", item: 1, fields: (f: string[]) => f.every((k) => k === "eventTypes" || /^eventTypes\[\d+\]$/.test(k)) },
    { name: "all the same valid one", item: "*", fields: (f: string[]) => f.length === 1 && f[0] === "eventTypes" },
    { name: "all distinct", item: (i: number) => `e${i}`, fields: (f: string[]) => f.every((k) => k === "eventTypes" || /^eventTypes\[\d+\]$/.test(k)) },
  ])("100,000 items ($name) where 20 distinct are allowed: 400 naming the array, at once", async ({ item, fields }) => {
    const eventTypes = Array.from({ length: 100_000 }, (_, i) => (typeof item === "function" ? item(i) : item));
    const res = await h.post("/v1/webhooks/subscriptions/create", { url: "https://hooks.example.test/in", eventTypes }, { key, companyId });
    expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status: 400, code: "validation" });
    const named = Object.keys(res.body.error.fieldErrors);
    expect([named.includes("eventTypes"), fields(named), named.length <= 100]).toEqual([true, true, true]);
    expect(res.body.error.fieldErrors.eventTypes.join(" ")).toMatch(/more than 20/);
    expect(await h.db("webhook_subscriptions").where({ company_id: companyId }).count({ n: "*" })).toEqual([{ n: "0" }]);
  });

  test.each([
    {
      name: "two equal scopes",
      path: "/v1/account/api-keys/create",
      body: { name: "Dup", scopes: ["partners:read", "partners:read"] },
      field: "scopes",
      duplicate: true,
    },
    {
      name: "equal event types",
      path: "/v1/webhooks/subscriptions/create",
      body: { url: "https://hooks.example.test/in", eventTypes: ["sale_invoice.paid", "sale_invoice.issued", "sale_invoice.paid"] },
      field: "eventTypes",
      duplicate: true,
    },
  ])("$name within the bound: 400 naming the field as duplicate items", async ({ path, body, field }) => {
    const res = await h.post(path, body, { key, companyId: path.includes("webhooks") ? companyId : undefined });
    expect(expectFieldErrors(res, [field])[field].join(" ")).toMatch(/duplicate items/);
  });
});

describe("list request bounds (account/companies/list)", () => {
  const filters = (n: number) => Array.from({ length: n }, (_, i) => ({ field: "code", op: "ne", value: `nope-${i}` }));
  test.each<{ name: string; body: Record<string, unknown>; fields?: string[] }>([
    { name: "pageSize 0", body: { pageSize: 0 }, fields: ["pageSize"] },
    { name: "pageSize 1", body: { pageSize: 1 } },
    { name: "pageSize 500", body: { pageSize: 500 } },
    { name: "pageSize 501", body: { pageSize: 501 }, fields: ["pageSize"] },
    { name: "pageSize 1.5", body: { pageSize: 1.5 }, fields: ["pageSize"] },
    { name: "page 0", body: { page: 0 }, fields: ["page"] },
    { name: "page -1", body: { page: -1 }, fields: ["page"] },
    { name: "page 1", body: { page: 1 } },
    { name: "3 sort items", body: { sort: [{ field: "name" }, { field: "code", dir: "desc" }, { field: "createdAt" }] } },
    { name: "4 sort items", body: { sort: [{ field: "name" }, { field: "code" }, { field: "createdAt" }, { field: "id" }] }, fields: ["sort"] },
    { name: "10 filter items", body: { filter: filters(10) } },
    { name: "11 filter items", body: { filter: filters(11) }, fields: ["filter"] },
    { name: "0 totals", body: { totals: [] } },
    // Companies total nothing: too many totals, and each of them is refused too.
    {
      name: "11 totals",
      body: { totals: Array.from({ length: 11 }, (_, i) => `t${i}`) },
      fields: ["totals", ...Array.from({ length: 11 }, (_, i) => `totals[${i}]`)],
    },
    { name: "an empty field name", body: { sort: [{ field: "" }] }, fields: ["sort[0].field"] },
    { name: "65-character totals name (companies total nothing)", body: { totals: ["t".repeat(65)] }, fields: ["totals", "totals[0]"] },
    { name: "`in` with 0 values", body: { filter: [{ field: "code", op: "in", value: [] }] }, fields: ["filter[0].value"] },
    { name: "`in` with 100 values", body: { filter: [{ field: "code", op: "in", value: Array.from({ length: 100 }, (_, i) => `c${i}`) }] } },
    {
      name: "`in` with 101 values",
      body: { filter: [{ field: "code", op: "in", value: Array.from({ length: 101 }, (_, i) => `c${i}`) }] },
      fields: ["filter[0].value"],
    },
    { name: "a filter value that is an object", body: { filter: [{ field: "code", op: "eq", value: { a: 1 } }] }, fields: ["filter[0].value"] },
    { name: "an unknown property of a sort item", body: { sort: [{ field: "name", direction: "asc" }] }, fields: ["sort[0].direction"] },
  ])("$name", async ({ body, fields }) => {
    const res = await h.post(LIST, body, { key });
    if (!fields) {
      expect(res.status).toBe(200);
      expect(res.body.page).toBe((body.page as number | undefined) ?? 1);
      expect(res.body.pageSize).toBe((body.pageSize as number | undefined) ?? 50);
      expect(res.body.rows.length).toBeLessThanOrEqual(res.body.pageSize);
    } else {
      expectFieldErrors(res, fields);
    }
  });

  test("companies total nothing: the schema refuses any totals, naming `totals` and the name sent", async () => {
    const one = expectFieldErrors(await h.post(LIST, { totals: ["name"] }, { key }), ["totals", "totals[0]"]);
    expect(one.totals.join(" ")).toMatch(/more than 0 items/);
    expect(one["totals[0]"]).toEqual(["is not allowed here"]);
  });

  test("a field name the list does not have is refused by the schema, which names the list's fields; past 64 characters too", async () => {
    const at = expectFieldErrors(await h.post(LIST, { filter: [{ field: "f".repeat(64), op: "eq", value: "x" }] }, { key }), ["filter[0].field"]);
    expect(at["filter[0].field"].join(" ")).toMatch(/must be one of: .*"code"/);
    const past = expectFieldErrors(await h.post(LIST, { filter: [{ field: "f".repeat(65), op: "eq", value: "x" }] }, { key }), ["filter[0].field"]);
    expect(past["filter[0].field"].join(" ")).toMatch(/must be one of/);
    const sortPast = expectFieldErrors(await h.post(LIST, { sort: [{ field: "s".repeat(65) }] }, { key }), ["sort[0].field"]);
    expect(sortPast["sort[0].field"].join(" ")).toMatch(/must be one of/);
  });

  test.each<{ name: string; body: Record<string, unknown>; fields: string[]; message: RegExp }>([
    {
      name: "an unknown filter field",
      body: { filter: [{ field: "password", op: "eq", value: "x" }] },
      fields: ["filter[0].field"],
      message: /must be one of: .*"code"/,
    },
    { name: "an unknown sort field", body: { sort: [{ field: "accountId" }] }, fields: ["sort[0].field"], message: /must be one of/ },
    {
      name: "an operator that does not apply to the field",
      body: { filter: [{ field: "id", op: "contains", value: "1" }] },
      fields: ["filter[0].op"],
      message: /does not apply/,
    },
    {
      name: "a value of the wrong type for the field",
      body: { filter: [{ field: "code", op: "eq", value: 5 }] },
      fields: ["filter[0].value"],
      message: /string/,
    },
    {
      name: "a bad value inside `in`",
      body: { filter: [{ field: "id", op: "in", value: ["00000000-0000-4000-8000-000000000000", "x"] }] },
      fields: ["filter[0].value[1]"],
      message: /UUID/,
    },
    {
      name: "an array for a single-value op",
      body: { filter: [{ field: "code", op: "eq", value: ["a"] }] },
      fields: ["filter[0].value"],
      message: /single value/,
    },
    {
      name: "several list errors at once",
      body: {
        filter: [
          { field: "code", op: "eq", value: "x" },
          { field: "nope", op: "eq", value: "x" },
        ],
        sort: [{ field: "nope" }],
      },
      fields: ["filter[1].field", "sort[0].field"],
      message: /must be one of/,
    },
  ])("the list rejects $name with 400 naming it", async ({ body, fields, message }) => {
    const res = await h.post(LIST, body, { key });
    const fieldErrors = expectFieldErrors(res, fields);
    for (const field of fields) expect(fieldErrors[field].join(" ")).toMatch(message);
  });
});

describe("values the database cannot hold are a 400, never a 500", () => {
  // PostgreSQL text and jsonb cannot hold U+0000; such a value must be refused as invalid, naming the field.
  test.each<{ name: string; path: string; body: () => Record<string, unknown>; company?: boolean; field: string }>([
    { name: "a partner name with U+0000", path: "/v1/partners/create", body: () => ({ name: "a\u0000b", code: "NUL-1" }), company: true, field: "name" },
    { name: "a company code with U+0000", path: CREATE, body: () => validCompany({ code: "NUL\u0000C" }), field: "code" },
    {
      name: "an address line with U+0000",
      path: "/v1/account/companies/update",
      body: () => ({ id: companyId, address: { line1: "a\u0000", city: "Vilnius", postalCode: "01100", countryCode: "LT" } }),
      field: "address.line1",
    },
    {
      name: "a list filter value with U+0000",
      path: LIST,
      body: () => ({ filter: [{ field: "name", op: "contains", value: "a\u0000" }] }),
      field: "filter[0].value",
    },
  ])("$name -> 400 naming $field", async ({ path, body, company, field }) => {
    const res = await h.post(path, body(), { key, companyId: company ? companyId : undefined });
    expect(res.body.error.code).not.toBe("internal");
    expectFieldErrors(res, [field]);
  });

  test.each(["1", "March 7", "2024-02-30", "2024-13-01T00:00:00Z"])(
    "a timestamp filter value %j that is neither a date nor an RFC 3339 timestamp -> 400 naming filter[0].value",
    async (value) => {
      const res = await h.post(LIST, { filter: [{ field: "createdAt", op: "gte", value }] }, { key });
      expect(res.body.error.code).not.toBe("internal");
      expectFieldErrors(res, ["filter[0].value"]);
    },
  );

  test.each(["2020-01-01", "2020-01-01T00:00:00Z", "2020-01-01T02:00:00.123+02:00"])("a timestamp filter value %j is accepted", async (value) => {
    const res = await h.post(LIST, { filter: [{ field: "createdAt", op: "gte", value }] }, { key });
    expect(res.status).toBe(200);
    expect(res.body.rows.map((r: { id: string }) => r.id)).toContain(companyId);
  });
});

describe("body size limit (1 MB by default)", () => {
  // `{}` padded with whitespace is valid JSON of any length, and a valid (empty) list request.
  const padded = (bytes: number) => `{}${" ".repeat(bytes - 2)}`;

  test("1048577 bytes of valid JSON -> 413 payload_too_large in the envelope", async () => {
    const res = await h.post(LIST, undefined, { key, rawBody: padded(MB + 1) });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("payload_too_large");
    expect(res.body.error.params).toEqual({ limitBytes: MB });
    expect(res.body.error.fieldErrors).toBeUndefined();
  });

  test("exactly 1048576 bytes is not 413", async () => {
    const res = await h.post(LIST, undefined, { key, rawBody: padded(MB) });
    expect(res.status).toBe(200);
    expect(res.body.page).toBe(1);
  });

  test("just below the limit is not 413", async () => {
    const res = await h.post(LIST, undefined, { key, rawBody: padded(MB - 1) });
    expect(res.status).toBe(200);
  });

  test("a chunked body without Content-Length is cut off at the limit too", async () => {
    // node:http on a connection of its own (the server stops reading; the rest of the upload is abandoned).
    const { status, headers, text } = await new Promise<{ status: number; headers: IncomingHttpHeaders; text: string }>((resolve, reject) => {
      const req = request(h.url + LIST, {
        method: "POST",
        agent: false,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "transfer-encoding": "chunked" },
      });
      let settled = false;
      req.on("response", (res) => {
        settled = true;
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => {
          resolve({ status: res.statusCode!, headers: res.headers, text });
          req.destroy();
        });
      });
      req.on("error", (error) => (settled ? undefined : reject(error)));
      req.write("{}");
      const chunk = " ".repeat(64 * 1024);
      let sent = 2;
      const pump = () => {
        while (!settled && sent <= 2 * MB) {
          sent += chunk.length;
          if (!req.write(chunk)) return req.once("drain", pump);
        }
        if (!settled) req.end();
      };
      pump();
    });
    expect(status).toBe(413);
    const body = JSON.parse(text) as { error: { code: string; requestId: string } };
    expect(body.error.code).toBe("payload_too_large");
    expect(body.error.requestId).toBe(headers["x-request-id"]);
  });

  test("an oversized create is refused before anything is stored", async () => {
    const code = uniqueCode();
    const json = JSON.stringify(validCompany({ code }));
    const res = await h.post(CREATE, undefined, { key, rawBody: `${json.slice(0, -1) + " ".repeat(MB)}}` });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("payload_too_large");
    expect(await h.db("companies").where({ code })).toHaveLength(0);
  });
});

describe("unknown routes are 404 not_found in the envelope", () => {
  test.each<{ name: string; path: string; options?: RequestOptions }>([
    { name: "an unknown /v1 path", path: "/v1/partners/purge" },
    { name: "an unknown module", path: "/v1/nothing/here/list" },
    { name: "an unknown path without a key", path: "/v1/nothing/here/list", options: { key: undefined } },
    { name: "a path outside /v1", path: "/v2/account/companies/list" },
    { name: "an operation path without the /v1 prefix", path: "/account/companies/list" },
    { name: "an operation path with a trailing slash", path: "/v1/account/companies/list/" },
  ])("POST $name", async ({ path, options }) => {
    const res = await h.post(path, {}, { key, ...options });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
    expect(res.body.error.key).toBe("route.not_found");
    expect(res.body.error.message.length).toBeLessThanOrEqual(2000);
  });

  test.each(["GET", "PUT", "DELETE"])("%s on a real operation path", async (method) => {
    const res = await fetch(`${h.url}${LIST}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: method === "GET" ? undefined : "{}",
    });
    expect(res.status).toBe(404);
    const requestId = res.headers.get("x-request-id");
    const body = (await res.json()) as { error: { code: string; requestId: string; message: string } };
    expect(body.error.code).toBe("not_found");
    expect(body.error.requestId).toBe(requestId);
    expect(body.error.message).toContain(method);
  });

  test("a very long unknown path keeps the envelope within its bounds", async () => {
    const res = await h.post(`/v1/${"x".repeat(5000)}`, {}, { key });
    expect(res.status).toBe(404);
    expect(res.body.error.message.length).toBeLessThanOrEqual(2000);
  });
});

describe("request id", () => {
  test("a valid X-Request-Id sent by the client is echoed in the header and the envelope", async () => {
    const sent = "client-Req_123";
    const ok = await h.post(LIST, {}, { key, headers: { "x-request-id": sent } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-request-id")).toBe(sent);
    const bad = await h.post(LIST, { pageSize: 0 }, { key, headers: { "x-request-id": sent } });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("x-request-id")).toBe(sent);
    expect(bad.body.error.requestId).toBe(sent);
  });

  test("a 64-character X-Request-Id is echoed", async () => {
    const sent = "r".repeat(64);
    const res = await h.post(LIST, {}, { key, headers: { "x-request-id": sent } });
    expect(res.headers.get("x-request-id")).toBe(sent);
  });

  test.each([
    { name: "65 characters", sent: "r".repeat(65) },
    { name: "spaces", sent: "has spaces" },
    { name: "punctuation", sent: "abc.def" },
  ])("an X-Request-Id with $name is replaced by a fresh one", async ({ sent }) => {
    const res = await h.post(LIST, { page: 0 }, { key, headers: { "x-request-id": sent } });
    expect(res.status).toBe(400);
    const requestId = res.headers.get("x-request-id");
    expect(requestId).not.toBe(sent);
    expect(requestId).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(res.body.error.requestId).toBe(requestId);
  });

  test("every request gets a distinct generated id", async () => {
    const ids = new Set<string | null>();
    for (let i = 0; i < 5; i++) ids.add((await h.post(LIST, {}, { key })).headers.get("x-request-id"));
    expect(ids.size).toBe(5);
  });
});

describe("a 500 shows no internals", () => {
  // partners/get is replaced by a handler that fails the way a database error would. It is the only clean way
  // to reach the generic error path: no valid request drives the real handlers into an unexpected error.
  let broken: Harness;
  let brokenKey: string;
  let brokenCompany: string;
  const SECRET = 'relation "secret_internal_table" does not exist at /srv/app/src/domain/partners.ts:42';

  beforeAll(async () => {
    const failing = defineHandler("partners_get", async () => {
      const error = new Error(SECRET) as Error & { code: string };
      error.code = "42P01";
      throw error;
    });
    broken = await startHarness({ extraHandlers: new Map([["partners_get", failing]]) });
    ({ apiKey: brokenKey, companyId: brokenCompany } = await broken.tenant());
  });
  afterAll(() => broken.close());

  test("the envelope says internal, quotes the request id, and carries no message, stack or rate-limit headers", async () => {
    const res = await broken.post("/v1/partners/get", { code: "P1" }, { key: brokenKey, companyId: brokenCompany });
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe("internal");
    expect(res.body.error.requestId).toBe(res.headers.get("x-request-id"));
    const text = JSON.stringify(res.body);
    for (const leak of ["secret_internal_table", "42P01", "/srv/app", "partners.ts", "at ", "stack"]) expect(text).not.toContain(leak);
    expect(Object.keys(res.body.error).sort()).toEqual(["code", "key", "message", "requestId"]);
    for (const header of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "retry-after"]) expect(res.headers.has(header)).toBe(false);
    // The version is public (GET /health/live says it): a 500 carries it too.
    expect(res.headers.get("x-api-version")).toBe("0.3.6");
  });

  test("the server keeps working after a 500", async () => {
    const res = await broken.post("/v1/partners/create", { name: "Partneris", code: "P1" }, { key: brokenKey, companyId: brokenCompany });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe("P1");
    expect(await broken.db("partners").where({ company_id: brokenCompany, code: "P1" })).toHaveLength(1);
  });
});

test("a company-scoped operation validates its body too (partners/create)", async () => {
  const res = await h.post("/v1/partners/create", { name: "", code: "P 1 ", extra: true }, { key, companyId });
  expectFieldErrors(res, ["name", "code", "extra"]);
});
