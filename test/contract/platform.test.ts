import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { startHarness, type Harness } from "../support/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe("outside /v1", () => {
  test("GET /health reports liveness and the database", async () => {
    const res = await h.get("/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", database: "ok", version: "0.3.6" });
  });
});

describe("partners", () => {
  test("create then get by code", async () => {
    const t = await h.tenant();
    const created = await h.post("/v1/partners/create", { name: "Pirkėjas UAB", code: "P1" }, { key: t.apiKey, companyId: t.companyId });
    expect(created.status).toBe(200);
    const got = await h.post("/v1/partners/get", { code: "P1" }, { key: t.apiKey, companyId: t.companyId });
    expect(got.body).toEqual(created.body);
  });
});
