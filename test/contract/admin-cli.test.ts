// The operator CLI (README: "Operator CLI"), run as the operator runs it: a separate process on the same database.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { startHarness, type Harness } from "../support/harness.js";
import { freePort, runCli, startServerProcess } from "../support/processes.js";
import { ltCompanyCode } from "../support/codes.js";

let h: Harness;
let env: Record<string, string>;
beforeAll(async () => {
  h = await startHarness();
  env = { DATABASE_URL: h.connectionString };
});
afterAll(() => h.close());

async function bootstrap(name: string) {
  const result = await runCli(["bootstrap", "--name", name], env);
  expect(result.code).toBe(0);
  const lines = result.stdout.trim().split("\n");
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]) as { accountId: string; apiKey: string };
}

describe("bootstrap", () => {
  test("creates an account and a * key, printed as one line of JSON", async () => {
    const out = await bootstrap("Apskaita UAB");
    expect(Object.keys(out).sort()).toEqual(["accountId", "apiKey"]);
    const account = await h.db("accounts").where({ id: out.accountId }).first();
    expect(account.name).toBe("Apskaita UAB");
    const keys = await h.db("api_keys").where({ account_id: out.accountId });
    expect(keys).toHaveLength(1);
    expect(keys[0].scopes).toEqual(["*"]);
    // The key works against the running server, and the secret is not stored.
    const res = await h.post("/v1/account/companies/create", { name: "Apskaita UAB", code: ltCompanyCode(), countryCode: "LT" }, { key: out.apiKey });
    expect(res.status).toBe(200);
    expect(JSON.stringify(keys[0])).not.toContain(out.apiKey.slice(36));
  });
});

describe("billing", () => {
  test("an ended trial without credit gives 402; credit lifts it", async () => {
    const { accountId, apiKey } = await bootstrap("Billing test");
    const ended = await runCli(["billing", "--account", accountId, "--trial-ends", "2020-01-31", "--credit", "0"], env);
    expect(ended.code).toBe(0);
    expect(JSON.parse(ended.stdout)).toEqual({ accountId, trialEndsAt: "2020-01-31", prepaidCredit: "0.00" });
    const blocked = await h.post("/v1/account/companies/list", {}, { key: apiKey });
    expect(blocked.status).toBe(402);
    expect(blocked.body.error.code).toBe("payment_required");

    const credited = await runCli(["billing", "--account", accountId, "--credit", "25.5"], env);
    expect(credited.code).toBe(0);
    expect(JSON.parse(credited.stdout)).toEqual({ accountId, trialEndsAt: "2020-01-31", prepaidCredit: "25.50" });
    expect((await h.post("/v1/account/companies/list", {}, { key: apiKey })).status).toBe(200);

    // No trial end means no trial limit: with the credit back at 0 the account still answers.
    const cleared = await runCli(["billing", "--account", accountId, "--credit", "0", "--trial-ends", "none"], env);
    expect(cleared.code).toBe(0);
    expect(JSON.parse(cleared.stdout)).toEqual({ accountId, trialEndsAt: null, prepaidCredit: "0.00" });
    expect(await h.db("accounts").where({ id: accountId }).first("trial_ends_at", "prepaid_credit")).toEqual({ trial_ends_at: null, prepaid_credit: "0.00" });
    expect((await h.post("/v1/account/companies/list", {}, { key: apiKey })).status).toBe(200);
  });
});

describe("key-limit", () => {
  test("overrides one key's per-minute limit, and default restores it", async () => {
    const { apiKey } = await bootstrap("Limit test");
    const keyId = (await h.db("api_keys").join("accounts", "accounts.id", "api_keys.account_id").where("accounts.name", "Limit test").first("api_keys.id")).id;
    const set = await runCli(["key-limit", "--key", keyId, "--per-minute", "7"], env);
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ keyId, perMinute: 7 });
    const res = await h.post("/v1/account/companies/list", {}, { key: apiKey });
    expect(res.headers.get("x-ratelimit-limit")).toBe("7");
    await runCli(["key-limit", "--key", keyId, "--per-minute", "default"], env);
    const after = await h.post("/v1/account/companies/list", {}, { key: apiKey });
    expect(after.headers.get("x-ratelimit-limit")).toBe(String(h.config.rateLimitPerMinute));
  });
});

describe("usage errors", () => {
  test.each([
    { name: "no command", args: [], code: 2 },
    { name: "unknown command", args: ["destroy"], code: 2 },
    { name: "bootstrap without --name", args: ["bootstrap"], code: 2 },
    { name: "billing with a bad account id", args: ["billing", "--account", "x", "--credit", "1"], code: 2 },
    { name: "billing with a bad date", args: ["billing", "--account", "8a7b3c1e-0000-4000-8000-000000000000", "--trial-ends", "2026-02-30"], code: 2 },
    { name: "billing with a negative credit", args: ["billing", "--account", "8a7b3c1e-0000-4000-8000-000000000000", "--credit", "-1"], code: 2 },
    { name: "billing of an unknown account", args: ["billing", "--account", "8a7b3c1e-0000-4000-8000-000000000000", "--credit", "1"], code: 1 },
    { name: "key-limit of zero", args: ["key-limit", "--key", "8a7b3c1e-0000-4000-8000-000000000000", "--per-minute", "0"], code: 2 },
    { name: "key-limit of an unknown key", args: ["key-limit", "--key", "8a7b3c1e-0000-4000-8000-000000000000", "--per-minute", "5"], code: 1 },
  ])("$name exits $code with a message and no output", async ({ args, code }) => {
    const result = await runCli(args, env);
    expect(result.code).toBe(code);
    expect(result.stdout).toBe("");
    expect(result.stderr.length).toBeGreaterThan(0);
  });
});

describe("against the embedded database of a running `npm start`", () => {
  test("bootstrap works while the server runs, and the server stops cleanly on SIGTERM", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "acct-embedded-"));
    chmodSync(dataDir, 0o755);
    const embeddedEnv = { DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()), DATABASE_URL: undefined };
    const server = await startServerProcess(embeddedEnv, []);
    try {
      const result = await runCli(["bootstrap", "--name", "Embedded"], embeddedEnv);
      expect(result.code).toBe(0);
      const { apiKey } = JSON.parse(result.stdout);
      const res = await fetch(`${server.url}/v1/account/companies/list`, {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        body: "{}",
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ rows: [], total: 0 });
    } finally {
      const code = await server.stop();
      // The server's own output comes with a failure, so a stop that is not clean says why.
      expect({ code, output: code === 0 ? "" : server.output() }).toEqual({ code: 0, output: "" });
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
