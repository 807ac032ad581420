// Operating the service: graceful shutdown with a request in flight, structured logs without secrets, and
// body limits declared per operation in the contract.
// Raw HTTP throughout: a request to a child server process killed mid-flight, and bodies of exact byte sizes to an
// operation added to the contract here (no SDK call knows it).
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import pg from "pg";
import { loadDocument } from "../../src/http/openapi.js";
import { defineHandler, type Handler } from "../../src/handlers/types.js";
import { startHarness, type Harness } from "../support/harness.js";
import { startServerProcess } from "../support/processes.js";
import { waitForLockWaiters } from "../support/db-waits.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe("SIGTERM", () => {
  test("finishes the request in flight, logs JSON lines without secrets, and exits 0", async () => {
    const t = await h.tenant();
    const server = await startServerProcess({ DATABASE_URL: h.connectionString, LOG_LEVEL: "info" }, []);
    const blocker = new pg.Client({ connectionString: h.connectionString });
    await blocker.connect();
    let exit: Promise<number | null> | undefined;
    try {
      await blocker.query("begin");
      await blocker.query("lock table partners in access exclusive mode");
      const inFlight = fetch(`${server.url}/v1/partners/create`, {
        method: "POST",
        headers: { authorization: `Bearer ${t.apiKey}`, "x-company-id": t.companyId, "content-type": "application/json" },
        body: JSON.stringify({ name: "Vėlyvas UAB", code: "LATE" }),
      });
      // Wait until the request is inside its transaction, waiting on the lock (and fail if it never gets there).
      await waitForLockWaiters(h.db, { what: "the partners/create request waiting on the locked table" });
      exit = server.stop();
      await new Promise((r) => setTimeout(r, 300));
      expect(server.child.exitCode).toBeNull(); // still finishing
      await blocker.query("commit");
      const res = await inFlight;
      expect(res.status).toBe(200);
      expect(((await res.json()) as { code: string }).code).toBe("LATE");
      expect(await exit).toBe(0);
    } finally {
      await blocker.end();
      if (!exit) await server.stop();
    }
    expect(await h.db("partners").where({ company_id: t.companyId, code: "LATE" }).first()).toBeDefined();

    const lines = server
      .output()
      .split("\n")
      .filter((l) => l.startsWith("{"));
    const requestLine = lines.map((l) => JSON.parse(l)).find((l) => l.operationId === "partners_create");
    expect(requestLine).toMatchObject({ operationId: "partners_create", method: "POST", path: "/v1/partners/create", status: 200 });
    expect(requestLine.requestId).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(typeof requestLine.durationMs).toBe("number");
    expect(lines.some((l) => JSON.parse(l).msg === "stopped")).toBe(true);
    expect(server.output()).not.toContain(t.apiKey);
    expect(server.output()).not.toContain(t.apiKey.slice(36));
    expect(server.output().toLowerCase()).not.toContain("authorization");
  });
});

describe("body limits", () => {
  test("an operation's x-body-limit replaces the 1 MB default for it alone", async () => {
    const document = loadDocument();
    const paths = document.paths as Record<string, any>;
    const small = structuredClone(paths["/v1/partners/create"]);
    small.post.operationId = "partners_small_test";
    small.post["x-body-limit"] = 2048;
    paths["/v1/partners/small-test"] = small;
    // The test never looks at a successful answer (the contract check is skipped): only the size matters.
    const handler = defineHandler("partners_create", async ({ body }) => ({ id: "00000000-0000-4000-8000-000000000000", code: body.code }) as never);
    const local = await startHarness({ document, extraHandlers: new Map([["partners_small_test", handler as unknown as Handler]]) });
    try {
      const t = await local.tenant();
      const bodyOf = (size: number) => {
        const base = JSON.stringify({ name: "", code: "P1" });
        return JSON.stringify({ name: "x".repeat(size - base.length), code: "P1" });
      };
      const at = await local.post("/v1/partners/small-test", undefined, {
        key: t.apiKey,
        companyId: t.companyId,
        rawBody: bodyOf(2048),
        skipContractCheck: true,
      });
      expect(at.status).not.toBe(413);
      const over = await local.post("/v1/partners/small-test", undefined, {
        key: t.apiKey,
        companyId: t.companyId,
        rawBody: bodyOf(2049),
        skipContractCheck: true,
      });
      expect(over.status).toBe(413);
      expect(over.body.error).toMatchObject({ code: "payload_too_large", key: "request.body_too_large", params: { limitBytes: 2048 } });
      // The ordinary operation keeps the default.
      const normal = await local.post("/v1/partners/create", undefined, { key: t.apiKey, companyId: t.companyId, rawBody: bodyOf(2049) });
      expect(normal.status).toBe(400); // too long a name for the schema, but not too large a body
      expect(normal.body.error.fieldErrors.name).toBeDefined();
    } finally {
      await local.close();
    }
  });
});
