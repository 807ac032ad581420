// The platform's promises about the contract itself and the routes outside /v1.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import YAML from "yaml";
import { loadHandlers } from "../../src/handlers/index.js";
import { loadDocument, createContractApi } from "../../src/http/openapi.js";
import { startHarness, type Harness } from "../support/harness.js";
import { ROOT } from "../support/processes.js";

const document = loadDocument();
const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
  Object.entries(item as Record<string, Record<string, unknown>>).map(([method, op]) => ({ path, method, op })),
);

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe("the contract", () => {
  test("carries version 0.3.6 and OpenAPI 3.0 for validation", () => {
    expect(document.openapi).toBe("3.0.0");
    expect(document.info.version).toBe("0.3.6");
  });

  test("every operation is POST /v1/{module}/.../{action}, with an operationId derived from its path", () => {
    expect(operations.length).toBeGreaterThanOrEqual(9);
    for (const { path, method, op } of operations) {
      expect(method).toBe("post");
      expect(path).toMatch(/^\/v1\/[a-z]+(\/[a-z0-9-]+)+$/);
      expect(op.operationId).toBe(path.slice(4).replace(/[/-]/g, "_"));
    }
  });

  test("every operation declares a scope of its own module; list and get need only read", () => {
    for (const { path, op } of operations) {
      const module = path.split("/")[2];
      const action = path.split("/").pop()!;
      expect(`${path} ${op["x-required-scope"]}`).toMatch(new RegExp(`^${path} ${module}:(read|write)$`));
      if (/^(list|get)$/.test(action)) expect(`${path} ${op["x-required-scope"]}`).toBe(`${path} ${module}:read`);
    }
  });

  test("every request body is required, JSON, and rejects unknown properties", () => {
    const schemas = (document.components as { schemas: Record<string, any> }).schemas;
    for (const { path, op } of operations) {
      const body = (op.requestBody as any);
      expect(`${path} ${body?.required}`).toBe(`${path} true`);
      const schema = body.content["application/json"].schema;
      const resolved = schema.$ref ? schemas[schema.$ref.split("/").pop()] : schema;
      expect(`${path} ${resolved.additionalProperties}`).toBe(`${path} false`);
    }
  });

  test("every operation has a handler at src/handlers/<path>.ts declaring the same operationId", async () => {
    const contract = await createContractApi(document);
    const handlers = await loadHandlers(contract.operations.values());
    for (const { path, op } of operations) {
      expect(existsSync(join(ROOT, "src/handlers", `${path.slice(4)}.ts`))).toBe(true);
      expect(handlers.get(op.operationId as string)?.operationId).toBe(op.operationId);
    }
    expect(handlers.size).toBe(operations.length);
  });

  test("every operation answers every status the spec lists, each with the error envelope", () => {
    for (const { path, op } of operations) {
      const responses = op.responses as Record<string, any>;
      for (const status of ["400", "401", "402", "403", "404", "409", "413", "422", "429", "500"]) {
        expect(`${path} ${responses[status]?.content["application/json"].schema.$ref}`).toBe(`${path} #/components/schemas/ErrorEnvelope`);
      }
      expect(responses["429"].headers["Retry-After"]).toBeDefined();
      expect(responses["500"].headers["X-RateLimit-Limit"]).toBeUndefined();
    }
  });
});

describe("routes outside /v1", () => {
  test("GET /health reports liveness and the database", async () => {
    const res = await h.get("/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", database: "ok", version: "0.3.6" });
  });

  test("GET /openapi.json and /openapi.yaml serve the generated document", async () => {
    const json = await (await h.get("/openapi.json")).json();
    expect(json).toEqual(document);
    const yaml = await h.get("/openapi.yaml");
    expect(yaml.headers.get("content-type")).toContain("yaml");
    expect(YAML.parse(await yaml.text())).toEqual(document);
    const v31 = (await (await h.get("/openapi.3.1.json")).json()) as { openapi: string; info: { version: string } };
    expect(v31.openapi).toBe("3.1.0");
    expect(v31.info.version).toBe("0.3.6");
  });

  test("GET /docs serves a reference page built from /openapi.json, with its assets local", async () => {
    const page = await h.get("/docs");
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    expect(html).toContain("/docs/assets/swagger-ui-bundle.js");
    expect(await (await h.get("/docs/init.js")).text()).toContain('url: "/openapi.json"');
    const bundle = await h.get("/docs/assets/swagger-ui-bundle.js");
    expect(bundle.status).toBe(200);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    const missing = await h.get("/docs/assets/../../package.json");
    expect(missing.status).toBe(404);
  });

  test("an unknown path or method is 404 not_found in the envelope", async () => {
    for (const res of [await h.get("/nope"), await h.get("/v1/partners/create"), await fetch(`${h.url}/v1/partners/create`, { method: "PUT" })]) {
      expect(res.status).toBe(404);
      const body = (await res.json()) as { error: { code: string; requestId: string } };
      expect(body.error.code).toBe("not_found");
      expect(body.error.requestId).toBe(res.headers.get("x-request-id"));
    }
  });
});

