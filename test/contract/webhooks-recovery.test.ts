// At least once, never lost (issue 9): a worker process killed with SIGKILL in the middle of a delivery leaves the
// event to be delivered by another worker within seconds (its job is freed by src/worker-recovery.ts and takes over
// its own lease); and a URL that passed the check at create but resolves to a private address when the delivery
// connects (DNS rebinding) is refused then too.
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import pg from "pg";
import { startHarness, type Harness } from "../support/harness.js";
import { startServerProcess } from "../support/processes.js";
import { fakeResolver, startReceiver, type Receiver } from "../support/webhook-receiver.js";
import { AT_ONCE_MS, sleep, until } from "../support/timing.js";
import { createLogger } from "../../src/log.js";
import { seal } from "../../src/secrets.js";
import { secretContext } from "../../src/webhooks/subscriptions.js";
import { startWorker } from "../../src/worker.js";

let h: Harness;
let receiver: Receiver;
beforeAll(async () => {
  h = await startHarness({ config: { webhookAllowPrivateUrls: true } });
  receiver = await startReceiver();
});
afterAll(async () => {
  await h.close();
  await receiver.close();
});

test("a worker killed mid-delivery: another worker delivers the event within seconds", async () => {
  const t = await h.tenant();
  const o = { key: t.apiKey, companyId: t.companyId };
  // The first attempt is answered only after 5 s, so the first worker is surely inside it when it is killed.
  receiver.answer("/kill", (i) => (i === 0 ? { status: 200, delayMs: 5000 } : { status: 200 }));
  const env = { DATABASE_URL: h.connectionString, WORKER_SWEEP_INTERVAL_MS: "300", WEBHOOK_ALLOW_PRIVATE_URLS: "true", LOG_LEVEL: "warn" };
  const first = await startServerProcess(env, []);
  let second: Awaited<ReturnType<typeof startServerProcess>> | undefined;
  let killed = false;
  try {
    const sub = (await h.post("/v1/webhooks/subscriptions/create", { url: receiver.url("/kill"), eventTypes: ["partner.created"] }, o)).body;
    expect((await h.post("/v1/partners/create", { name: "A", code: "A1" }, o)).status).toBe(200);
    const [inFlight] = await receiver.waitFor("/kill", 1);
    await first.kill9();
    killed = true;
    const row = await h.db("webhook_deliveries").where({ company_id: t.companyId, subscription_id: sub.id }).first();
    expect(row).toMatchObject({ status: "pending", attempts: 1 });
    expect(row.lease_job_id).not.toBeNull();

    second = await startServerProcess(env, []);
    const startedAt = Date.now();
    const got = await receiver.waitFor("/kill", 2);
    // Within a few sweeps of the second worker (every 300 ms; two sightings of the free lock), not graphile's 4 hours.
    // The bound is far above that, for a loaded machine, and far below the lease and graphile's own retry.
    expect(Date.now() - startedAt).toBeLessThan(AT_ONCE_MS);
    expect(got.map((r) => [r.headers["webhook-id"], r.headers["webhook-attempt"]])).toEqual([
      [inFlight.headers["webhook-id"], "1"],
      [inFlight.headers["webhook-id"], "2"],
    ]);
    const done = await until("the delivery to be recorded", async () => {
      const d = await h.db("webhook_deliveries").where({ company_id: t.companyId, subscription_id: sub.id }).first();
      return d.status === "succeeded" && d;
    });
    expect(done).toMatchObject({ attempts: 2, last_response_status: 200, lease_job_id: null });
  } finally {
    if (!killed) await first.kill9();
    await second?.stop();
  }
}, 90_000);

test("at delivery time the guard refuses what it refuses at create: names that resolve inward (DNS rebinding), reserved IPv6 forms, ports", async () => {
  // The receiver's port is allowed (WEBHOOK_ALLOWED_PORTS), so an address the guard let through would reach it.
  const port = Number(new URL(receiver.url("/")).port);
  const hosts: Record<string, string[]> = {
    "rebound.hooks.test": ["127.0.0.1"],
    "mapped.hooks.test": ["::ffff:127.0.0.1"],
    "compatible.hooks.test": ["::7f00:1"],
    "translated.hooks.test": ["::ffff:0:7f00:1"],
    "nat64.hooks.test": ["64:ff9b::7f00:1"],
    "sixtofour.hooks.test": ["2002:7f00:1::1"],
    "teredo.hooks.test": ["2001:0:4136:e378:8000:63bf:3fff:fdd2"],
    "ula.hooks.test": ["fd00::1"],
    "port.hooks.test": ["127.0.0.1"],
  };
  const strict = await startHarness({
    config: { webhookAllowPrivateUrls: false, webhookRetrySchedule: [0], webhookAllowedPorts: [443, 8443, port], webhookResolve: fakeResolver(hosts) },
  });
  const worker = await startWorker(strict.connectionString, 2, createLogger("silent"), { db: strict.db, config: strict.config });
  try {
    const t = await strict.tenant();
    // URLs that passed the check when they were stored (a name that resolved outward then, an older guard): the
    // rows are written directly, past the create-time check.
    const cases: [string, RegExp][] = [
      [`https://localhost:${port}/rebind`, /^URL refused: must not name a local or internal host$/],
      [`https://127.0.0.1:${port}/rebind`, /^URL refused: names 127\.0\.0\.1, a private/],
      [`https://rebound.hooks.test:${port}/rebind`, /^URL refused: rebound\.hooks\.test resolves to a private address \(127\.0\.0\.1\)$/],
      [`https://mapped.hooks.test:${port}/rebind`, /^URL refused: mapped\.hooks\.test resolves to a private address \(::ffff:127\.0\.0\.1\)$/],
      [`https://compatible.hooks.test:${port}/rebind`, /^URL refused: compatible\.hooks\.test resolves to a private address \(::7f00:1\)$/],
      [`https://translated.hooks.test:${port}/rebind`, /^URL refused: translated\.hooks\.test resolves to a private address \(::ffff:0:7f00:1\)$/],
      [`https://nat64.hooks.test:${port}/rebind`, /^URL refused: nat64\.hooks\.test resolves to a private address \(64:ff9b::7f00:1\)$/],
      [`https://sixtofour.hooks.test:${port}/rebind`, /^URL refused: sixtofour\.hooks\.test resolves to a private address \(2002:7f00:1::1\)$/],
      [`https://teredo.hooks.test:${port}/rebind`, /^URL refused: teredo\.hooks\.test resolves to a private address/],
      [`https://ula.hooks.test:${port}/rebind`, /^URL refused: ula\.hooks\.test resolves to a private address \(fd00::1\)$/],
      [`https://[::7f00:1]:${port}/rebind`, /^URL refused: names ::7f00:1, a private/],
      [`https://[::ffff:0:7f00:1]:${port}/rebind`, /^URL refused: names ::ffff:0:7f00:1, a private/],
      ["https://port.hooks.test:5432/rebind", /^URL refused: must use port 443 or 8443 or \d+, not 5432$/],
      [`https://public@rebound.hooks.test:${port}/rebind`, /^URL refused: must not carry a user name or password$/],
    ];
    const byId = new Map<string, RegExp>();
    for (const [url, error] of cases) {
      const id = crypto.randomUUID();
      byId.set(id, error);
      await strict.db("webhook_subscriptions").insert({
        company_id: t.companyId,
        id,
        url,
        event_types: ["*"],
        secret_sealed: seal(strict.config.secretsKey!, "whsec_test", secretContext(t.companyId, id)),
      });
    }
    await t.api.partners.create({ name: "A", code: "A1" });
    const rows = await until("every delivery to fail", async () => {
      const r = await strict.db("webhook_deliveries").where({ company_id: t.companyId, status: "failed" });
      return r.length === cases.length && r;
    });
    for (const r of rows) expect([r.subscription_id, r.last_error]).toEqual([r.subscription_id, expect.stringMatching(byId.get(r.subscription_id)!)]);
    expect(receiver.received("/rebind")).toEqual([]);
  } finally {
    await worker.stop();
    await strict.close();
  }
});

test("the database unreachable while a delivery is recorded: the job runs again after it is back, and the event arrives", async () => {
  const worker = await startWorker(h.connectionString, 2, createLogger("silent"), { db: h.db, config: h.config });
  try {
    const t = await h.tenant();
    const o = { key: t.apiKey, companyId: t.companyId };
    receiver.answer("/outage", (i) => (i === 0 ? { status: 200, delayMs: 1500 } : { status: 200 }));
    const sub = (await h.post("/v1/webhooks/subscriptions/create", { url: receiver.url("/outage"), eventTypes: ["partner.created"] }, o)).body;
    expect((await h.post("/v1/partners/create", { name: "A", code: "A1" }, o)).status).toBe(200);
    await receiver.waitFor("/outage", 1);
    // While the first attempt waits for its answer, the database stops taking connections and the delivery pool's are
    // ended: recording the outcome fails, and so does the job.
    // (From another database: a database cannot refuse connections while one's own session is in it.)
    const admin = new pg.Client({ connectionString: process.env.TEST_PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`alter database "${h.databaseName}" allow_connections false`);
    try {
      await h.db.raw("select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = 'accounting-webhooks'");
      await sleep(2500);
      const row = await h.db("webhook_deliveries").where({ company_id: t.companyId, subscription_id: sub.id }).first();
      expect(row).toMatchObject({ status: "pending", attempts: 1 });
    } finally {
      await admin.query(`alter database "${h.databaseName}" allow_connections true`);
      await admin.end();
    }
    const got = await receiver.waitFor("/outage", 2, 45_000);
    expect(got.map((r) => [r.headers["webhook-id"], r.headers["webhook-attempt"]])).toEqual([
      [got[0].headers["webhook-id"], "1"],
      [got[0].headers["webhook-id"], "2"],
    ]);
    const done = await until("the delivery to be recorded", async () => {
      const d = await h.db("webhook_deliveries").where({ company_id: t.companyId, subscription_id: sub.id }).first();
      return d.status === "succeeded" && d;
    });
    expect(done).toMatchObject({ attempts: 2, last_response_status: 200 });
  } finally {
    await worker.stop();
  }
}, 90_000);
