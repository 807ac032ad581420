// Rate limits (spec: "Endpoints", "Limits"; README "Rate limits"): per key per one-minute window, counted in
// PostgreSQL so that several processes on one database share one budget.
// Raw HTTP throughout: the test is about the wire (X-RateLimit-* and Retry-After headers, requests without a valid key or
// with a wrong secret, budgets shared by several server processes).
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { setKeyLimit } from "../../src/account/accounts.js";
import { expectError } from "../support/expect.js";
import { startHarness, type Harness } from "../support/harness.js";
import { startServerProcess } from "../support/processes.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ config: { rateLimitPerMinute: 40 } });
});
afterAll(() => h.close());

/** Waits, when needed, so that the next `needed` seconds fall inside one window. */
async function awayFromWindowEdge(needed = 8): Promise<void> {
  const { rows } = await h.db.raw<{ rows: { left: string }[] }>("select 60 - extract(second from now()) as left");
  const left = Number(rows[0].left);
  if (left < needed) await new Promise((r) => setTimeout(r, left * 1000 + 300));
}

/** Whole seconds left in the database's current one-minute window (what X-RateLimit-Reset says, rounded up). */
async function secondsLeftInWindow(): Promise<number> {
  const { rows } = await h.db.raw<{ rows: { left: string }[] }>(
    "select ceil(extract(epoch from date_trunc('minute', now()) + interval '1 minute' - now())) as left",
  );
  return Number(rows[0].left);
}

const limitHeaders = (res: { headers: Headers }) => ({
  limit: Number(res.headers.get("x-ratelimit-limit")),
  remaining: Number(res.headers.get("x-ratelimit-remaining")),
  reset: Number(res.headers.get("x-ratelimit-reset")),
});

describe("per key", () => {
  test("headers count down within the window, then 429 with Retry-After", async () => {
    const t = await h.bootstrap();
    await setKeyLimit(h.db, t.keyId, 5);
    await awayFromWindowEdge();
    const seen = [];
    const windowLeftBefore = await secondsLeftInWindow();
    for (let i = 0; i < 5; i++) {
      const res = await h.post("/v1/account/companies/list", {}, { key: t.apiKey });
      expect(res.status).toBe(200);
      seen.push(limitHeaders(res));
    }
    expect(seen.map((s) => s.limit)).toEqual([5, 5, 5, 5, 5]);
    expect(seen.map((s) => s.remaining)).toEqual([4, 3, 2, 1, 0]);

    const limited = await h.post("/v1/account/companies/list", {}, { key: t.apiKey });
    const windowLeftAfter = await secondsLeftInWindow();
    // The reset is the time left in the database's window: between what was left before and after the requests.
    for (const s of seen) expect(s.reset >= windowLeftAfter && s.reset <= windowLeftBefore).toBe(true);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("rate_limited");
    expect(limited.body.error.params).toEqual({ limit: 5, retryAfterSeconds: Number(limited.headers.get("retry-after")) });
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter >= windowLeftAfter && retryAfter <= windowLeftBefore).toBe(true);
    expect(limitHeaders(limited)).toMatchObject({ limit: 5, remaining: 0, reset: retryAfter });
  });

  test("the default limit comes from configuration (RATE_LIMIT_PER_MINUTE) when the key has no override", async () => {
    const t = await h.bootstrap();
    const res = await h.post("/v1/account/companies/list", {}, { key: t.apiKey });
    expect(limitHeaders(res).limit).toBe(40);
    await setKeyLimit(h.db, t.keyId, 1000);
    expect(limitHeaders(await h.post("/v1/account/companies/list", {}, { key: t.apiKey })).limit).toBe(1000);
  });

  test("each key has its own budget; errors count and carry the headers too", async () => {
    const a = await h.bootstrap();
    const b = await h.bootstrap();
    await setKeyLimit(h.db, a.keyId, 2);
    await awayFromWindowEdge();
    const bad = await h.post("/v1/account/companies/get", { id: "not-a-uuid" }, { key: a.apiKey });
    expect(bad.status).toBe(400);
    expect(limitHeaders(bad).remaining).toBe(1);
    const missing = await h.post("/v1/no/such/operation", {}, { key: a.apiKey });
    expect(missing.status).toBe(404);
    expect(limitHeaders(missing).remaining).toBe(0);
    expect((await h.post("/v1/account/companies/list", {}, { key: a.apiKey })).status).toBe(429);
    const other = await h.post("/v1/account/companies/list", {}, { key: b.apiKey });
    expect(other.status).toBe(200);
    expect(limitHeaders(other).remaining).toBe(39);
  });
});

describe("without a valid key", () => {
  test("requests are limited per client address, with the default budget", async () => {
    const local = await startHarness({ config: { rateLimitPerMinute: 3 } });
    try {
      await awayFromWindowEdge();
      const statuses = [];
      for (let i = 0; i < 4; i++) {
        const res = await local.post("/v1/account/companies/list", {}, { key: i % 2 ? "ak_bogus" : undefined });
        statuses.push(res.status);
        expect(limitHeaders(res).limit).toBe(3);
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
      // A valid key is not held back by the address's budget.
      const t = await local.bootstrap();
      await setKeyLimit(local.db, t.keyId, 100);
      expect((await local.post("/v1/account/companies/list", {}, { key: t.apiKey })).status).toBe(200);
    } finally {
      await local.close();
    }
  });
});

describe("a key id alone never spends a key's budget (issue 7, defect 2)", () => {
  const forgedFor = (keyId: string) => `ak_${keyId.replace(/-/g, "")}_${"A".repeat(43)}`;
  const keyCount = async (keyId: string) =>
    Number(
      (
        await h
          .db("rate_limit_counters")
          .where({ bucket: `key:${keyId}` })
          .whereRaw("window_start = date_trunc('minute', now())")
          .first("count")
      )?.count ?? 0,
    );

  test("wrong-secret requests naming a key's id are 401, counted against the client address; the key keeps its whole budget", async () => {
    const victim = await h.bootstrap();
    await setKeyLimit(h.db, victim.keyId, 2);
    await awayFromWindowEdge();
    const forged = [];
    for (let i = 0; i < 3; i++) forged.push(await h.post("/v1/account/companies/list", {}, { key: forgedFor(victim.keyId) }));
    for (const res of forged) expectError(res, 401, "unauthorized", "auth.key_invalid");
    // The address's budget (the default, 40), not the key's (2), and it goes down by one per request.
    expect(forged.map((r) => limitHeaders(r).limit)).toEqual([40, 40, 40]);
    const remaining = forged.map((r) => limitHeaders(r).remaining);
    expect([remaining[0] - remaining[1], remaining[1] - remaining[2]]).toEqual([1, 1]);
    expect(await keyCount(victim.keyId)).toBe(0);

    const own = [];
    for (let i = 0; i < 3; i++) own.push(await h.post("/v1/account/companies/list", {}, { key: victim.apiKey }));
    expect(own.map((r) => r.status)).toEqual([200, 200, 429]);
    expect(own.map((r) => limitHeaders(r).remaining)).toEqual([1, 0, 0]);
    expect(await keyCount(victim.keyId)).toBe(3);
  });

  test("a revoked key's requests are counted against the address too", async () => {
    const owner = await h.bootstrap();
    const created = await h.post("/v1/account/api-keys/create", { name: "atšauktas", scopes: ["account:read"] }, { key: owner.apiKey });
    await setKeyLimit(h.db, created.body.id, 1);
    expect((await h.post("/v1/account/api-keys/revoke", { id: created.body.id }, { key: owner.apiKey })).status).toBe(200);
    const res = await h.post("/v1/account/companies/list", {}, { key: created.body.key });
    expectError(res, 401, "unauthorized");
    expect(limitHeaders(res).limit).toBe(40);
    expect(await keyCount(created.body.id)).toBe(0);
  });
});

describe("several server processes on one database", () => {
  test("share one budget exactly", async () => {
    const second = await startServerProcess({ DATABASE_URL: h.connectionString, RATE_LIMIT_PER_MINUTE: "40" });
    try {
      const t = await h.bootstrap();
      await setKeyLimit(h.db, t.keyId, 10);
      await awayFromWindowEdge(10);
      const call = (base: string) =>
        fetch(`${base}/v1/account/companies/list`, {
          method: "POST",
          headers: { authorization: `Bearer ${t.apiKey}`, "content-type": "application/json" },
          body: "{}",
        });
      const responses = await Promise.all(Array.from({ length: 16 }, (_, i) => call(i % 2 ? second.url : h.url)));
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(10);
      expect(statuses.filter((s) => s === 429)).toHaveLength(6);
      // Both processes answered some of the 200s and some of the 429s' budget: the count is shared.
      const remaining = responses.filter((r) => r.status === 200).map((r) => Number(r.headers.get("x-ratelimit-remaining")));
      expect(remaining.sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });
});
