// Webhook delivery (issue 9) through the real worker to a real local receiver that verifies signatures as an
// integrator would, with a compressed retry schedule (3 attempts: at once, +200 ms, +400 ms) and a real local SMTP
// server: signatures (both headers, rotation), retries, 410, pause after 5 undelivered events with one e-mail,
// held events delivered in order on resume, redeliver, tenancy, a slow receiver not holding up others, and several
// workers never sending one attempt twice. A worker killed mid-delivery: webhooks-recovery.test.ts. Every call goes
// through the SDK; each company is the shared world (test/support/world.ts).
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import AjvModule from "ajv";
import addFormatsModule from "ajv-formats";
import { startHarness, type Harness } from "../support/harness.js";
import { expectApiError } from "../support/expect.js";
import { world as sharedWorld, type World } from "../support/world.js";
import type { RequestBody } from "../../sdk/typescript/src/index.js";
import { startReceiver, verifyV1, verifyV2, type Receiver } from "../support/webhook-receiver.js";
import { startSmtpSink, type SmtpSink } from "../support/smtp.js";
import { captureLogs } from "../support/logs.js";
import { sleep, until } from "../support/timing.js";
import { loadDocument } from "../../src/http/openapi.js";
import { createLogger } from "../../src/log.js";
import { startWorker, type Worker } from "../../src/worker.js";
import { deliverMail } from "../../src/mail.js";
import { seal } from "../../src/secrets.js";
import { secretContext } from "../../src/webhooks/subscriptions.js";
import { Webhook } from "standardwebhooks";

let h: Harness;
let receiver: Receiver;
let smtp: SmtpSink;
let worker: Worker;
const SCHEDULE = [0, 200, 400];

beforeAll(async () => {
  receiver = await startReceiver();
  smtp = await startSmtpSink();
  h = await startHarness({ config: { webhookAllowPrivateUrls: true, webhookRetrySchedule: SCHEDULE, webhookTimeoutMs: 1500, smtpUrl: smtp.url } });
  worker = await startWorker(h.connectionString, 2, createLogger("silent"), { db: h.db, config: h.config });
});
afterAll(async () => {
  await worker.stop();
  await h.close();
  await receiver.close();
  await smtp.close();
});

let paths = 0;
const newPath = () => `/hook/${++paths}`;

/** A new company (no chart: its events here are partners'). */
const world = (): Promise<World> => sharedWorld(h, { chart: false });

async function subscribe(w: World, path: string, extra: Partial<RequestBody<"webhooks_subscriptions_create">> = {}) {
  return w.api.webhooks.subscriptions.create({ url: receiver.url(path), eventTypes: ["*"], ...extra });
}

const delivery = (companyId: string, eventId: string, subscriptionId: string) =>
  h.db("webhook_deliveries").where({ company_id: companyId, event_id: eventId, subscription_id: subscriptionId }).first();

const eventValidator = (() => {
  const Ajv = ((AjvModule as any).default ?? AjvModule) as typeof AjvModule.default;
  const ajv = new Ajv({ strict: false, allErrors: true });
  ((addFormatsModule as any).default ?? addFormatsModule)(ajv);
  const doc = loadDocument() as { components: { schemas: Record<string, object> } };
  for (const [name, schema] of Object.entries(doc.components.schemas)) ajv.addSchema(schema, `#/components/schemas/${name}`);
  return ajv.compile({ $ref: "#/components/schemas/Webhooks.Event" });
})();

describe("a delivery", () => {
  test("is the envelope of the contract, POSTed as JSON with both signatures an integrator can verify", async () => {
    const w = await world();
    const path = newPath();
    const { secret, ...sub } = await subscribe(w, path);
    const partner = await w.api.partners.create({ name: "Pirkėjas UAB", code: "P1" });
    const [got] = await receiver.waitFor(path, 1);
    const [event] = await h.db("webhook_events").where({ company_id: w.companyId });
    expect(got.json).toEqual({
      id: event.id,
      version: "2026-11-23",
      companyId: w.companyId,
      eventType: "partner.created",
      createdAt: new Date(event.created_at).toISOString(),
      data: partner,
    });
    expect(Object.keys(got.json)).toEqual(["id", "version", "companyId", "eventType", "createdAt", "data"]);
    expect(eventValidator(got.json) ? [] : eventValidator.errors).toEqual([]);
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["webhook-id"]).toBe(event.id);
    expect(got.headers["webhook-attempt"]).toBe("1");
    expect(got.headers["x-service-signature-v2"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(got.headers["x-service-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifyV2(got.headers["x-service-signature-v2"] as string, got.body, secret, 60)).toBe(true);
    expect(verifyV1(got.headers["x-service-signature"] as string, got.body, secret)).toBe(true);
    // A forged body, another secret, or a replay outside the window do not verify.
    expect(verifyV2(got.headers["x-service-signature-v2"] as string, got.body.replace("P1", "P2"), secret)).toBe(false);
    expect(verifyV2(got.headers["x-service-signature-v2"] as string, got.body, secret.slice(0, -1) + (secret.endsWith("A") ? "B" : "A"))).toBe(false);
    expect(
      verifyV2(
        (got.headers["x-service-signature-v2"] as string).replace(/^t=(\d+)/, (_m, t) => `t=${Number(t) - 600}`),
        got.body,
        secret,
      ),
    ).toBe(false);
    const row = await until("the delivery to be recorded", async () => {
      const d = await delivery(w.companyId, event.id, sub.id);
      return d.status === "succeeded" && d;
    });
    expect(row).toMatchObject({ attempts: 1, last_response_status: 200, last_error: null, next_attempt_at: null });
    const listed = await w.api.webhooks.deliveries.list({});
    expect(listed.rows).toEqual([
      expect.objectContaining({
        eventId: event.id,
        eventType: "partner.created",
        subscriptionId: sub.id,
        status: "succeeded",
        attempts: 1,
        lastResponseStatus: 200,
        nextAttemptAt: null,
      }),
    ]);
  });

  test("a failing receiver is retried on the schedule, with the same event id and a growing attempt number", async () => {
    const w = await world();
    const path = newPath();
    receiver.answer(path, (i) => ({ status: i < 2 ? 500 : 204 }));
    const sub = await subscribe(w, path);
    await w.api.partners.create({ name: "A", code: "A1" });
    const got = await receiver.waitFor(path, 3);
    expect(got.map((r) => r.headers["webhook-attempt"])).toEqual(["1", "2", "3"]);
    expect(new Set(got.map((r) => r.headers["webhook-id"])).size).toBe(1);
    expect(got[1].at - got[0].at).toBeGreaterThanOrEqual(SCHEDULE[1] - 20);
    expect(got[2].at - got[1].at).toBeGreaterThanOrEqual(SCHEDULE[2] - 20);
    const row = await until("success", async () => {
      const d = await delivery(w.companyId, got[0].json.id, sub.id);
      return d.status === "succeeded" && d;
    });
    expect(row).toMatchObject({ attempts: 3, last_response_status: 204 });
    await sleep(600);
    expect(receiver.received(path)).toHaveLength(3);
  });

  test("the schedule ends without a 2xx: failed, after exactly as many attempts as the schedule has", async () => {
    const w = await world();
    const path = newPath();
    receiver.answer(path, { status: 500 });
    const sub = await subscribe(w, path);
    await w.api.partners.create({ name: "A", code: "A1" });
    const [first] = await receiver.waitFor(path, 1);
    const row = await until("failure", async () => {
      const d = await delivery(w.companyId, first.json.id, sub.id);
      return d.status === "failed" && d;
    });
    expect(row).toMatchObject({ attempts: SCHEDULE.length, last_response_status: 500, next_attempt_at: null });
    expect((await w.api.webhooks.subscriptions.get({ id: sub.id })).consecutiveFailures).toBe(1);
    await sleep(800);
    expect(receiver.received(path)).toHaveLength(SCHEDULE.length);
  });

  test("410 Gone ends the retries at once", async () => {
    const w = await world();
    const path = newPath();
    receiver.answer(path, { status: 410 });
    const sub = await subscribe(w, path);
    await w.api.partners.create({ name: "A", code: "A1" });
    const [first] = await receiver.waitFor(path, 1);
    const row = await until("failure", async () => {
      const d = await delivery(w.companyId, first.json.id, sub.id);
      return d.status === "failed" && d;
    });
    expect(row).toMatchObject({ attempts: 1, last_response_status: 410 });
    await sleep(1000);
    expect(receiver.received(path)).toHaveLength(1);
  });

  test("a receiver that does not answer in time counts as a failed attempt (timeout)", async () => {
    const w = await world();
    const path = newPath();
    receiver.answer(path, (i) => (i === 0 ? { status: 200, delayMs: 2500 } : { status: 200 }));
    const sub = await subscribe(w, path);
    await w.api.partners.create({ name: "A", code: "A1" });
    const got = await receiver.waitFor(path, 2);
    const row = await until("success", async () => {
      const d = await delivery(w.companyId, got[0].json.id, sub.id);
      return d.status === "succeeded" && d;
    });
    expect(row.attempts).toBe(2);
    expect(got.map((r) => r.headers["webhook-attempt"])).toEqual(["1", "2"]);
  });
});

describe("pause after 5 undelivered events", () => {
  test("the subscription pauses, its owners get one e-mail naming it and the failures, new events are held, and resume delivers them in order", async () => {
    const w = await world();
    const path = newPath();
    receiver.answer(path, { status: 503 });
    const sub = await subscribe(w, path, { ownerEmails: ["owner@example.com", "ops@example.com"] });
    const mailsBefore = smtp.mails.length;
    for (let i = 1; i <= 5; i++) await w.api.partners.create({ name: `P${i}`, code: `P${i}` });
    const paused = await until("the pause", async () => {
      const s = await w.api.webhooks.subscriptions.get({ id: sub.id });
      return s.status === "paused" && s;
    });
    expect(paused.consecutiveFailures).toBe(5);
    expect(paused.pausedAt).not.toBeNull();
    const failedEvents = await h.db("webhook_deliveries").where({ company_id: w.companyId, subscription_id: sub.id, status: "failed" }).pluck("event_id");
    expect(failedEvents).toHaveLength(5);
    const mail = await until("the e-mail", async () => smtp.mails.length > mailsBefore && smtp.mails.slice(mailsBefore));
    await sleep(500);
    expect(smtp.mails.slice(mailsBefore)).toHaveLength(1);
    expect(mail[0].to.sort()).toEqual(["ops@example.com", "owner@example.com"]);
    expect(mail[0].subject).toBe(`Webhook subscription paused: ${receiver.url(path)}`);
    expect(mail[0].text).toContain(sub.id);
    for (const eventId of failedEvents) expect(mail[0].text).toContain(eventId);
    expect(mail[0].text).toContain("HTTP 503");

    // Paused: nothing more is attempted; new events are held.
    const attemptsBefore = receiver.received(path).length;
    const later = [];
    for (let i = 6; i <= 8; i++) later.push(await w.api.partners.create({ name: `P${i}`, code: `P${i}` }));
    await sleep(1200);
    expect(receiver.received(path)).toHaveLength(attemptsBefore);
    const held = await w.api.webhooks.deliveries.list({ filter: [{ field: "status", op: "eq", value: "held" }] });
    expect(held.total).toBe(3);
    expect(held.rows.every((d: { nextAttemptAt: unknown }) => d.nextAttemptAt === null)).toBe(true);

    // Resume: the held events arrive, oldest first; the count starts again.
    receiver.answer(path, { status: 200 });
    const resumed = await w.api.webhooks.subscriptions.update({ id: sub.id, status: "active" });
    expect(resumed).toMatchObject({ status: "active", consecutiveFailures: 0, pausedAt: null });
    const got = (await receiver.waitFor(path, attemptsBefore + 3)).slice(attemptsBefore);
    expect(got.map((r) => r.json.data.code)).toEqual(["P6", "P7", "P8"]);
    await until("the held deliveries to succeed", async () => {
      const rows = await h.db("webhook_deliveries").where({ company_id: w.companyId, subscription_id: sub.id, status: "succeeded" });
      return rows.length === 3;
    });
    expect(smtp.mails.slice(mailsBefore)).toHaveLength(1);
  });

  test("an event recorded pending while a pause committed (its job found the subscription paused) is delivered on resume", async () => {
    const w = await world();
    const path = newPath();
    const sub = await subscribe(w, path);
    await w.api.webhooks.subscriptions.update({ id: sub.id, status: "paused" });
    // What the race leaves behind: the event's transaction read the subscription as active, so its delivery is
    // pending, not held; its job ran while the subscription was paused and did nothing, so no job is left for it.
    const created = await w.api.partners.create({ name: "Lenktynės", code: "RACE-1" });
    const event = await h
      .db("webhook_events")
      .where({ company_id: w.companyId, event_type: "partner.created" })
      .whereRaw("data->>'code' = 'RACE-1'")
      .first("id");
    await h
      .db("webhook_deliveries")
      .where({ company_id: w.companyId, subscription_id: sub.id, event_id: event.id })
      .update({ status: "pending", next_attempt_at: h.db.fn.now() });
    await h.db("graphile_worker._private_jobs").whereRaw("payload->>'subscriptionId' = ?", [sub.id]).delete();
    expect(receiver.received(path)).toHaveLength(0);

    await w.api.webhooks.subscriptions.update({ id: sub.id, status: "active" });
    const [got] = await receiver.waitFor(path, 1);
    expect(got.json).toMatchObject({ id: event.id, eventType: "partner.created", data: { code: created.code } });
    await until("the delivery to succeed", async () => (await delivery(w.companyId, event.id, sub.id)).status === "succeeded");
  });

  test("a success resets the count: 4 failures, a success, 4 failures do not pause", async () => {
    const w = await world();
    const path = newPath();
    receiver.answer(path, (i) => ({ status: i === 4 ? 200 : 410 }));
    const sub = await subscribe(w, path);
    for (let i = 1; i <= 9; i++) await w.api.partners.create({ name: `P${i}`, code: `P${i}` });
    await receiver.waitFor(path, 9);
    const s = await until("all outcomes recorded", async () => {
      const done = await h
        .db("webhook_deliveries")
        .where({ company_id: w.companyId, subscription_id: sub.id })
        .whereIn("status", ["failed", "succeeded"])
        .count({ n: "*" });
      return done[0].n === "9" && (await w.api.webhooks.subscriptions.get({ id: sub.id }));
    });
    expect(s).toMatchObject({ status: "active", consecutiveFailures: 4 });
    // In emission order, one at a time: the fifth event is the one that succeeded.
    expect(receiver.received(path).map((r) => r.json.data.code)).toEqual(["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "P9"]);
  });
});

describe("Standard Webhooks (issue 28, item 4)", () => {
  test("the standardwebhooks library verifies a delivery's webhook-signature with the secret exactly as create returned it", async () => {
    const w = await world();
    const path = newPath();
    const { secret } = await subscribe(w, path);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await w.api.partners.create({ name: "Pirkėjas UAB", code: "P1" });
    const [got] = await receiver.waitFor(path, 1);
    const headers = got.headers as Record<string, string>;
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    // What an integrator writes: new Webhook(secret).verify(rawBody, headers) — the event, or a throw.
    expect(new Webhook(secret).verify(got.body, headers)).toEqual(got.json);
    expect(() => new Webhook(secret).verify(got.body.replace("P1", "P2"), headers)).toThrow("No matching signature found");
    const other = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
    expect(() => new Webhook(other).verify(got.body, headers)).toThrow("No matching signature found");
    expect(() => new Webhook(secret).verify(got.body, { ...headers, "webhook-id": crypto.randomUUID() })).toThrow("No matching signature found");
    expect(() => new Webhook(secret).verify(got.body, { ...headers, "webhook-timestamp": String(Number(headers["webhook-timestamp"]) - 600) })).toThrow(
      "Message timestamp too old",
    );
    // The service's own two headers still verify with the same secret.
    expect(verifyV2(headers["x-service-signature-v2"], got.body, secret)).toBe(true);
    expect(verifyV1(headers["x-service-signature"], got.body, secret)).toBe(true);
  });

  test("after rotate-secret both secrets verify with the library (two space-separated values)", async () => {
    const w = await world();
    const path = newPath();
    const { secret: oldSecret, ...sub } = await subscribe(w, path);
    const { secret: newSecret } = await w.api.webhooks.subscriptions.rotateSecret({ id: sub.id });
    await w.api.partners.create({ name: "A", code: "A1" });
    const [got] = await receiver.waitFor(path, 1);
    const headers = got.headers as Record<string, string>;
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/);
    for (const secret of [oldSecret, newSecret]) expect(new Webhook(secret).verify(got.body, headers)).toEqual(got.json);
  });

  test("a secret issued before (base64url): the header is keyed with the same bytes; the library takes it in the standard alphabet", async () => {
    const w = await world();
    const path = newPath();
    // 32 bytes whose base64url has both "-" and "_": the standard decoder of the library refuses it as given.
    const bytes = Buffer.from(`fb${"ff".repeat(30)}fe`, "hex");
    const legacy = `whsec_${bytes.toString("base64url")}`;
    expect(legacy).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(legacy).toMatch(/[-_]/);
    const id = crypto.randomUUID();
    await h.db("webhook_subscriptions").insert({
      company_id: w.companyId,
      id,
      url: receiver.url(path),
      event_types: ["*"],
      secret_sealed: seal(h.config.secretsKey!, legacy, secretContext(w.companyId, id)),
    });
    await w.api.partners.create({ name: "A", code: "A1" });
    const [got] = await receiver.waitFor(path, 1);
    const headers = got.headers as Record<string, string>;
    expect(() => new Webhook(legacy)).toThrow("incorrect characters");
    const standard = `whsec_${bytes.toString("base64")}`;
    expect(new Webhook(standard).verify(got.body, headers)).toEqual(got.json);
    expect(verifyV2(headers["x-service-signature-v2"], got.body, legacy)).toBe(true);
  });
});

describe("rotation, redeliver, tenancy, isolation", () => {
  test("after rotate-secret each delivery carries both signatures; the old secret still verifies for 24 hours", async () => {
    const w = await world();
    const path = newPath();
    const { secret: oldSecret, ...sub } = await subscribe(w, path);
    const { secret: newSecret } = await w.api.webhooks.subscriptions.rotateSecret({ id: sub.id });
    await w.api.partners.create({ name: "A", code: "A1" });
    const [got] = await receiver.waitFor(path, 1);
    const v2 = got.headers["x-service-signature-v2"] as string;
    const v1 = got.headers["x-service-signature"] as string;
    expect(v2).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(v1).toMatch(/^sha256=[0-9a-f]{64},sha256=[0-9a-f]{64}$/);
    for (const secret of [oldSecret, newSecret]) {
      expect(verifyV2(v2, got.body, secret)).toBe(true);
      expect(verifyV1(v1, got.body, secret)).toBe(true);
    }
    // Once the overlap ends, only the new secret signs.
    await h
      .db("webhook_subscriptions")
      .where({ id: sub.id })
      .update({ previous_secret_expires_at: h.db.raw("now() - interval '1 second'") });
    await w.api.partners.create({ name: "B", code: "B1" });
    const [, second] = await receiver.waitFor(path, 2);
    expect(verifyV2(second.headers["x-service-signature-v2"] as string, second.body, newSecret)).toBe(true);
    expect(verifyV2(second.headers["x-service-signature-v2"] as string, second.body, oldSecret)).toBe(false);
    expect(second.headers["x-service-signature-v2"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  });

  test("redeliver sends a failed delivery again now, and a 2xx marks it succeeded", async () => {
    const w = await world();
    const path = newPath();
    receiver.answer(path, { status: 410 });
    const sub = await subscribe(w, path);
    await w.api.partners.create({ name: "A", code: "A1" });
    const [first] = await receiver.waitFor(path, 1);
    await until("failure", async () => (await delivery(w.companyId, first.json.id, sub.id)).status === "failed");
    receiver.answer(path, { status: 200 });
    const res = await w.api.webhooks.deliveries.redeliver({ eventId: first.json.id, subscriptionId: sub.id });
    expect(res).toMatchObject({ eventId: first.json.id, subscriptionId: sub.id, status: "failed", attempts: 1 });
    const [, again] = await receiver.waitFor(path, 2);
    expect(again.json.id).toBe(first.json.id);
    expect(again.headers["webhook-attempt"]).toBe("2");
    const row = await until("success", async () => {
      const d = await delivery(w.companyId, first.json.id, sub.id);
      return d.status === "succeeded" && d;
    });
    expect(row.attempts).toBe(2);
    await expectApiError(w.api.webhooks.deliveries.redeliver({ eventId: sub.id, subscriptionId: sub.id }), 404, "not_found", "webhook_delivery.not_found");
  });

  test("a subscription never receives another company's events", async () => {
    const a = await world();
    const b = await world();
    const pathA = newPath();
    const pathB = newPath();
    await subscribe(a, pathA);
    await subscribe(b, pathB);
    await a.api.partners.create({ name: "A", code: "A1" });
    await b.api.partners.create({ name: "B", code: "B1" });
    const [gotA] = await receiver.waitFor(pathA, 1);
    const [gotB] = await receiver.waitFor(pathB, 1);
    await sleep(500);
    expect(receiver.received(pathA).map((r) => [r.json.companyId, r.json.data.code])).toEqual([[a.companyId, "A1"]]);
    expect(receiver.received(pathB).map((r) => [r.json.companyId, r.json.data.code])).toEqual([[b.companyId, "B1"]]);
    expect(gotA.json.id).not.toBe(gotB.json.id);
  });

  test("a slow receiver does not hold up another subscription", async () => {
    const w = await world();
    const slow = newPath();
    const fast = newPath();
    receiver.answer(slow, { status: 200, delayMs: 1000 });
    await subscribe(w, slow);
    await subscribe(w, fast);
    for (let i = 1; i <= 3; i++) await w.api.partners.create({ name: `P${i}`, code: `P${i}` });
    const fastGot = await receiver.waitFor(fast, 3);
    const slowGot = await receiver.waitFor(slow, 3);
    // All three reached the fast receiver before the slow one had answered its first.
    expect(fastGot[2].at).toBeLessThan(slowGot[0].at + 1000);
    expect(slowGot.map((r) => r.json.data.code)).toEqual(["P1", "P2", "P3"]);
  });

  test("with a second worker running, no attempt is ever sent twice", async () => {
    const second = await startWorker(h.connectionString, 4, createLogger("silent"), { db: h.db, config: h.config });
    try {
      const w = await world();
      const path = newPath();
      // The first answer is slow, so the events emitted meanwhile (at once) pile up behind it.
      receiver.answer(path, (i) => ({ status: i % 3 === 0 ? 500 : 200, delayMs: i === 0 ? 400 : 30 }));
      await subscribe(w, path);
      await Promise.all(Array.from({ length: 12 }, (_, i) => w.api.partners.create({ name: `P${i}`, code: `P${i}` })));
      await until("every delivery settled", async () => {
        const open = await h.db("webhook_deliveries").where({ company_id: w.companyId, status: "pending" }).count({ n: "*" });
        return open[0].n === "0";
      });
      const got = receiver.received(path);
      const pairs = got.map((r) => `${r.headers["webhook-id"]}#${r.headers["webhook-attempt"]}`);
      expect(new Set(pairs).size).toBe(pairs.length);
      expect(new Set(got.map((r) => r.headers["webhook-id"])).size).toBe(12);
      // The jobs of deliveries another job already sent are removed in the statement that records the sending, unless
      // the other worker holds that job at that moment; such a job finds nothing to do. So within a moment no job waits
      // (unlocked) for a delivery that is already settled. (Checked at once, this failed once in about five runs on a
      // loaded machine — a job held at the sending, or re-queued after an error of its own, was still waiting — and
      // never when repeated a moment later.)
      const idleJobs = async () =>
        (
          await h.db.raw<{ rows: { n: number }[] }>(
            `select count(*)::int as n from graphile_worker._private_jobs j
               join webhook_deliveries d on d.company_id = (j.payload->>'companyId')::uuid and d.id = (j.payload->>'deliveryId')::uuid
              where d.company_id = ? and d.status in ('succeeded', 'failed') and j.locked_at is null`,
            [w.companyId],
          )
        ).rows[0].n;
      await until("no job waits for a settled delivery", async () => (await idleJobs()) === 0, { timeoutMs: 5_000 });
      await until(
        "no job left for the company",
        async () => {
          const left = await h.db("graphile_worker._private_jobs").whereRaw("payload->>'companyId' = ?", [w.companyId]).count({ n: "*" });
          return left[0].n === "0";
        },
        { timeoutMs: 10_000 },
      );
    } finally {
      await second.stop();
    }
  });
});

describe("e-mail without SMTP_URL", () => {
  test("is kept in outbound_emails and logged as one JSON line, never lost", async () => {
    const logs = captureLogs();
    const mail = { to: ["owner@example.com"], subject: "Webhook subscription paused: x", text: "body" };
    expect(await deliverMail(h.db, { ...h.config, smtpUrl: undefined }, logs.log, mail)).toBe("stored");
    const [row] = await h.db("outbound_emails").where({ subject: mail.subject });
    expect(row).toMatchObject({ recipients: mail.to, body: "body" });
    expect(logs.lines().filter((l) => (l.mail as { subject?: string })?.subject === mail.subject)).toHaveLength(1);
  });
});
