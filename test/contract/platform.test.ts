// The platform's promises about the contract itself and the routes outside /v1.
import { existsSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import pg from "pg";
import YAML from "yaml";
import { loadHandlers } from "../../src/handlers/index.js";
import { loadDocument, createContractApi } from "../../src/http/openapi.js";
import { startHarness, type Harness } from "../support/harness.js";
import { SERVER_NODE_FLAGS } from "../../src/node-flags.js";
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
      // The migration's operations need ledger:write (spec: "Authentication", 4), plus each section's scope (checked by the handler).
      const module = path.startsWith("/v1/migration/") ? "ledger" : path.split("/")[2];
      const action = path.split("/").pop()!;
      expect(`${path} ${op["x-required-scope"]}`).toMatch(new RegExp(`^${path} ${module}:(read|write)$`));
      if (/^(list|get)$/.test(action)) expect(`${path} ${op["x-required-scope"]}`).toBe(`${path} ${module}:read`);
    }
  });

  test("every request body is required, JSON, and rejects unknown properties", () => {
    const schemas = (document.components as { schemas: Record<string, any> }).schemas;
    for (const { path, op } of operations) {
      const body = op.requestBody as any;
      expect(`${path} ${body?.required}`).toBe(`${path} true`);
      const schema = body.content["application/json"].schema;
      const resolve = (s: any) => (s.$ref ? schemas[s.$ref.split("/").pop()] : s);
      const resolved = resolve(schema);
      // A oneOf ("exactly one of id and code"): each of its forms is closed.
      for (const form of resolved.oneOf?.map(resolve) ?? [resolved]) expect(`${path} ${form.additionalProperties}`).toBe(`${path} false`);
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

  test("every operation lists the statuses every request can get, and only its own others, each with the error envelope", () => {
    const components = document.components as { responses: Record<string, any>; headers: Record<string, any> };
    const resolve = (r: any) => (r.$ref ? components.responses[r.$ref.split("/").pop()] : r);
    for (const { path, op } of operations) {
      const responses = op.responses as Record<string, any>;
      for (const status of ["400", "401", "402", "403", "413", "429", "500"]) expect(`${path} ${status} ${!!responses[status]}`).toBe(`${path} ${status} true`);
      for (const [status, response] of Object.entries(responses)) {
        if (status === "200") continue;
        const resolved = resolve(response);
        expect(`${path} ${status} ${resolved.content["application/json"].schema.$ref}`).toBe(`${path} ${status} #/components/schemas/ErrorEnvelope`);
        expect(resolved["x-error-keys"].length).toBeGreaterThan(0);
      }
      // A company-scoped operation can answer 404 (its company), a mutating one 409 and 422 (its Idempotency-Key).
      if (op["x-company-scoped"]) expect(`${path} ${!!responses["404"]}`).toBe(`${path} true`);
      // (An operation that writes nothing, `x-writes-nothing`, takes no Idempotency-Key: its own statuses only.)
      if (String(op["x-required-scope"]).endsWith(":write") && op["x-writes-nothing"] !== true)
        expect(`${path} ${!!responses["409"]} ${!!responses["422"]}`).toBe(`${path} true true`);
      expect(resolve(responses["429"]).headers["Retry-After"]).toBeDefined();
      expect(resolve(responses["500"]).headers["X-RateLimit-Limit"]).toBeUndefined();
    }
  });

  test("a read-only list documents no 409 and no 422", () => {
    const lists = operations.filter(({ path }) => path.endsWith("/list"));
    expect(lists.length).toBeGreaterThan(10);
    for (const { path, op } of lists) expect(`${path} ${Object.keys(op.responses as object).filter((s) => s === "409" || s === "422")}`).toBe(`${path} `);
  });
});

describe("the server processes", () => {
  test("npm start and npm run worker run node with the server's V8 flags (src/node-flags.ts), as the tests' and benches' servers do", () => {
    const scripts = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts as Record<string, string>;
    expect(SERVER_NODE_FLAGS.length).toBeGreaterThan(0);
    for (const name of ["start", "worker"])
      expect(scripts[name]).toBe(`node ${SERVER_NODE_FLAGS.join(" ")} --import tsx src/main.ts${name === "worker" ? " --worker-only" : ""}`);
  });
});

describe("routes outside /v1", () => {
  test("GET /health and /health/ready report readiness: the database answers and the migrations are current", async () => {
    for (const path of ["/health", "/health/ready"]) {
      const res = await h.get(path);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: "ok", database: "ok", migrations: "current", version: "0.3.6" });
    }
    const live = await h.get("/health/live");
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: "ok", version: "0.3.6" });
    expect(live.headers.get("x-ratelimit-limit")).toBeNull();
  });

  test("readiness is 503 while a migration of this build is not applied, or the database is unreachable; liveness stays 200", async () => {
    const local = await startHarness();
    const [last] = await local.db("knex_migrations").orderBy("id", "desc").limit(1);
    try {
      await local.db("knex_migrations").where({ id: last.id }).delete();
      const pending = await local.get("/health/ready");
      expect(pending.status).toBe(503);
      expect(await pending.json()).toEqual({ status: "unavailable", database: "ok", migrations: "pending", version: "0.3.6" });
      await local.db("knex_migrations").insert(last);
      expect((await local.get("/health/ready")).status).toBe(200);

      // No new connections, and the open ones ended: the database is unreachable for the server.
      const admin = new pg.Client({ connectionString: process.env.TEST_PG_ADMIN_URL });
      await admin.connect();
      try {
        await admin.query(`alter database "${local.databaseName}" with allow_connections false`);
        await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = $1", [local.databaseName]);
        const down = await local.get("/health/ready");
        expect(down.status).toBe(503);
        expect(await down.json()).toMatchObject({ status: "unavailable", database: "unreachable" });
        expect((await local.get("/health/live")).status).toBe(200);
      } finally {
        await admin.query(`alter database "${local.databaseName}" with allow_connections true`);
        await admin.end();
      }
      // Ready again once the pool (or a pooler in front of it) has reconnected.
      let status = 0;
      for (const deadline = Date.now() + 20_000; status !== 200 && Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
        status = (await local.get("/health/ready")).status;
      }
      expect(status).toBe(200);
    } finally {
      await local.close();
    }
  }, 90_000);

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
    // Without PUBLIC_URL the page loads the document itself (and names its own origin as the server: contract-docs.test.ts).
    expect(await (await h.get("/docs/init.js")).text()).toContain('fetch("/openapi.json")');
    const bundle = await h.get("/docs/assets/swagger-ui-bundle.js");
    expect(bundle.status).toBe(200);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    const missing = await h.get("/docs/assets/../../package.json");
    expect(missing.status).toBe(404);
  });

  test("GET /docs links every OpenAPI download, and each link serves its document", async () => {
    const html = await (await h.get("/docs")).text();
    const links = [...html.matchAll(/<a href="([^"]+)" download="([^"]+)">/g)].map((m) => [m[1], m[2]]);
    expect(links).toEqual([
      ["/openapi.json", "accounting-api.openapi.json"],
      ["/openapi.yaml", "accounting-api.openapi.yaml"],
      ["/openapi.3.1.json", "accounting-api.openapi.3.1.json"],
      ["/openapi.3.1.yaml", "accounting-api.openapi.3.1.yaml"],
    ]);
    for (const [href] of links) {
      const res = await h.get(href);
      expect([href, res.status, res.headers.get("content-type")?.split(";")[0]]).toEqual([
        href,
        200,
        href.endsWith(".json") ? "application/json" : "application/yaml",
      ]);
      const parsed = href.endsWith(".json") ? await res.json() : YAML.parse(await res.text());
      expect((parsed as { info: { version: string } }).info.version).toBe("0.3.6");
    }
  });

  test("every answer carries X-Api-Version, the contract's version: the routes outside /v1, errors, and the HTTP parser's own 400", async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(h.server.port, "127.0.0.1", () => socket.end("GET /health/live HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n"));
      const chunks: Buffer[] = [];
      socket.on("data", (c) => chunks.push(c));
      socket.on("error", reject);
      socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
    });
    const answers = [
      ["GET /health/live", await h.get("/health/live")],
      ["GET /health", await h.get("/health")],
      ["GET /docs", await h.get("/docs")],
      ["GET /openapi.json", await h.get("/openapi.json")],
      ["an unknown path", await h.get("/nope")],
      ["a request without a key", await fetch(`${h.url}/v1/partners/list`, { method: "POST", body: "{}" })],
    ] as const;
    expect(answers.map(([name, res]) => [name, res.headers.get("x-api-version")])).toEqual(answers.map(([name]) => [name, document.info.version]));
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(raw).toContain(`\r\nX-Api-Version: ${document.info.version}\r\n`);
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
