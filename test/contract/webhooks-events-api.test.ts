// The events API and the test ping (issue 28, item 1): events/list (shared list engine: filters on eventType,
// createdAt, objectId and id, paging, newest first) and events/get answer the envelopes the deliveries carry, per
// company, under the scope events:read; events older than EVENT_RETENTION_DAYS with no delivery left to make are
// pruned by the prune_events task, with their deliveries; webhooks/subscriptions/test sends a signed ping at once and
// answers what the receiver did, as an integrator's receiver verifies it — also with the standardwebhooks library.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { parseCrontab } from "graphile-worker";
import { Webhook } from "standardwebhooks";
import { startHarness, type Harness } from "../support/harness.js";
import { expectApiError, invalid } from "../support/expect.js";
import { fakeResolver, startReceiver, verifyV1, verifyV2, type Receiver } from "../support/webhook-receiver.js";
import { ltCompanyCode } from "../support/codes.js";
import { UUID } from "../support/patterns.js";
import { sleep } from "../support/timing.js";
import { crontab } from "../../src/jobs/index.js";
import { pruneEventsTask } from "../../src/jobs/prune-events.js";
import { pruneEvents } from "../../src/events/retention.js";
import { seal } from "../../src/secrets.js";
import { secretContext } from "../../src/webhooks/subscriptions.js";
import type { AccountingApi } from "../../sdk/typescript/src/index.js";

const TIMEOUT_MS = 1500;
let h: Harness;
let strict: Harness;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
  // No worker runs here: deliveries stay as the tests make them.
  h = await startHarness({ config: { webhookAllowPrivateUrls: true, webhookTimeoutMs: TIMEOUT_MS } });
  strict = await startHarness({ config: { webhookAllowPrivateUrls: false, webhookResolve: fakeResolver({ "mapped.hooks.test": ["::ffff:127.0.0.1"] }) } });
});
afterAll(async () => {
  await h.close();
  await strict.close();
  await receiver.close();
});

type Tenant = Awaited<ReturnType<Harness["tenant"]>>;

/** The company's events as stored, newest first (the list's default order), as envelopes. */
async function stored(companyId: string) {
  const rows = await h
    .db("webhook_events")
    .where({ company_id: companyId })
    .orderBy([
      { column: "created_at", order: "desc" },
      { column: "seq", order: "asc" },
    ]);
  return rows.map((r) => ({
    id: r.id,
    version: r.version,
    companyId: r.company_id,
    eventType: r.event_type,
    createdAt: new Date(r.created_at).toISOString(),
    data: r.data,
  }));
}

/** A key of the tenant's account holding exactly `scopes`, as an SDK client on the tenant's company. */
async function keyWith(t: Tenant, scopes: string[]): Promise<AccountingApi> {
  const created = await t.api.account.apiKeys.create({ name: `key ${scopes.join(" ")}`, scopes });
  return h.sdk(created.key, t.companyId);
}

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

describe("events/list and events/get", () => {
  test("list the company's events newest first, each the envelope its deliveries carry; get returns one", async () => {
    const t = await h.tenant();
    const created = await t.api.partners.create({ name: "Pirkėjas UAB", code: "P1" });
    await sleep(20);
    const updated = await t.api.partners.update({ id: created.id, name: "Pirkėjas AB" });
    await sleep(20);
    const deleted = await t.api.partners.delete({ id: created.id });
    const listed = await t.api.events.list({});
    expect(listed).toEqual({ rows: await stored(t.companyId), page: 1, pageSize: 50, total: 3 });
    expect(listed.rows.map((r) => [r.eventType, r.data])).toEqual([
      ["partner.deleted", deleted],
      ["partner.updated", updated],
      ["partner.created", created],
    ]);
    expect(Object.keys(listed.rows[0])).toEqual(["id", "version", "companyId", "eventType", "createdAt", "data"]);
    expect(await t.api.events.get({ id: listed.rows[1].id })).toEqual(listed.rows[1]);
    const missing = await expectApiError(t.api.events.get({ id: crypto.randomUUID() }), 404, "not_found", "event.not_found");
    expect(missing.params).toEqual({ id: expect.stringMatching(UUID) });
  });

  test("filters: eventType, createdAt, objectId (data.id, or the id data names) and id; one transaction's events in the order written", async () => {
    const t = await h.tenant();
    await t.api.ledger.accounts.applyTemplate({ template: "lt-standard" });
    const a = await t.api.partners.create({ name: "A", code: "A1" });
    const b = await t.api.partners.create({ name: "B", code: "B1" });
    await sleep(20);
    const [{ now: middle }] = (await h.db.raw("select now() as now")).rows as { now: Date }[];
    await sleep(20);
    await t.api.partners.update({ id: a.id, name: "A2" });
    const posted = await t.api.ledger.journal.transactions.create({
      date: "2026-03-10",
      entries: [
        { accountCode: "2410", debit: "12.50" },
        { accountCode: "5000", credit: "12.50" },
      ],
    });
    await sleep(20);
    const reversal = await t.api.ledger.journal.transactions.reverse({ id: posted.id });
    const all = await stored(t.companyId);
    const of = (predicate: (e: (typeof all)[number]) => boolean) => all.filter(predicate);
    const list = (filter: NonNullable<Parameters<AccountingApi["events"]["list"]>[0]>["filter"]) => t.api.events.list({ filter }).then((r) => r.rows);

    // The reversal's transaction wrote two events with one createdAt: the posting, then the reversal.
    expect(all.slice(0, 2).map((e) => [e.eventType, e.data])).toEqual([
      ["journal_transaction.posted", reversal],
      ["journal_transaction.reversed", { reversedId: posted.id, reversal }],
    ]);
    expect(await list([{ field: "eventType", op: "eq", value: "partner.created" }])).toEqual(of((e) => e.eventType === "partner.created"));
    expect(await list([{ field: "eventType", op: "in", value: ["partner.updated", "journal_transaction.reversed"] }])).toEqual(
      of((e) => ["partner.updated", "journal_transaction.reversed"].includes(e.eventType)),
    );
    expect(await list([{ field: "createdAt", op: "gte", value: middle.toISOString() }])).toEqual(of((e) => e.createdAt >= middle.toISOString()));
    expect(await list([{ field: "createdAt", op: "lte", value: middle.toISOString() }])).toEqual(of((e) => e.createdAt <= middle.toISOString()));
    // objectId: a partner's events by its id; a reversal is about the transaction reversed (data.reversedId).
    expect(ids(await list([{ field: "objectId", op: "eq", value: a.id }]))).toEqual(ids(of((e) => (e.data as { id?: string }).id === a.id)));
    expect((await list([{ field: "objectId", op: "eq", value: a.id }])).map((e) => e.eventType)).toEqual(["partner.updated", "partner.created"]);
    expect((await list([{ field: "objectId", op: "eq", value: posted.id.toUpperCase() }])).map((e) => [e.eventType, e.data])).toEqual([
      ["journal_transaction.reversed", { reversedId: posted.id, reversal }],
      ["journal_transaction.posted", posted],
    ]);
    expect(ids(await list([{ field: "objectId", op: "in", value: [b.id, reversal.id] }]))).toEqual(
      ids(of((e) => [b.id, reversal.id].includes((e.data as { id?: string }).id!))),
    );
    expect(ids(await list([{ field: "id", op: "eq", value: all[3].id }]))).toEqual([all[3].id]);
    // Oldest first when asked.
    expect(ids((await t.api.events.list({ sort: [{ field: "createdAt", dir: "asc" }] })).rows)).toEqual(
      ids([...all].sort((x, y) => x.createdAt.localeCompare(y.createdAt) || all.indexOf(x) - all.indexOf(y))),
    );
  });

  test("pages: every event once, newest first, with the total", async () => {
    const t = await h.tenant();
    for (let i = 1; i <= 5; i++) await t.api.partners.create({ name: `P${i}`, code: `P${i}` });
    const all = await stored(t.companyId);
    const pages = await Promise.all([1, 2, 3].map((page) => t.api.events.list({ page, pageSize: 2 })));
    expect(pages.map((p) => [p.page, p.pageSize, p.total, p.rows.length])).toEqual([
      [1, 2, 5, 2],
      [2, 2, 5, 2],
      [3, 2, 5, 1],
    ]);
    expect(pages.flatMap((p) => p.rows)).toEqual(all);
    const paginated = [];
    for await (const row of t.api.paginate(t.api.events.list, {}, { pageSize: 2 })) paginated.push(row);
    expect(paginated).toEqual(all);
  });

  test.each([
    { name: "objectId that is not a UUID", body: { filter: [{ field: "objectId", op: "eq", value: "P1" }] }, field: "filter[0].value" },
    { name: "contains on objectId", body: { filter: [{ field: "objectId", op: "contains", value: "a" }] }, field: "filter[0].op" },
    { name: "a filter on data", body: invalid({ filter: [{ field: "data", op: "eq", value: "x" }] }), field: "filter[0].field" },
    { name: "a sort on objectId", body: invalid({ sort: [{ field: "objectId" }] }), field: "sort[0].field" },
  ])("list refuses $name: 400 naming it", async ({ body, field }) => {
    const t = await h.tenant();
    const error = await expectApiError(t.api.events.list(body as never), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {})).toContain(field);
  });

  test("tenancy: another account's key sees none of the company's events, nor can it name the company", async () => {
    const a = await h.tenant();
    const b = await h.tenant();
    await a.api.partners.create({ name: "A", code: "A1" });
    const [eventA] = (await a.api.events.list({})).rows;
    await b.api.partners.create({ name: "B", code: "B1" });
    await expectApiError(b.api.events.get({ id: eventA.id }), 404, "not_found", "event.not_found");
    expect((await b.api.events.list({ filter: [{ field: "id", op: "eq", value: eventA.id }] })).rows).toEqual([]);
    expect((await b.api.events.list({})).rows.map((r) => r.companyId)).toEqual([b.companyId]);
    await expectApiError(b.api.withCompany(a.companyId).events.list({}), 404, "not_found", "company.not_found");
    await expectApiError(b.api.withCompany(a.companyId).events.get({ id: eventA.id }), 404, "not_found", "company.not_found");
    // Another company of the same account has its own events only.
    const other = await a.api.account.companies.create({ name: "Antra UAB", code: ltCompanyCode(), countryCode: "LT" });
    expect((await a.api.withCompany(other.id).events.list({})).rows).toEqual([]);
  });

  test("scopes: events:read (or *) reads events; webhooks scopes do not; api-keys/create grants events:read", async () => {
    const t = await h.tenant();
    await t.api.partners.create({ name: "A", code: "A1" });
    const [event] = await stored(t.companyId);
    for (const scopes of [["events:read"], ["events:write"], ["*"]]) {
      const api = await keyWith(t, scopes);
      expect((await api.events.list({})).rows).toEqual([event]);
      expect(await api.events.get({ id: event.id })).toEqual(event);
    }
    for (const scopes of [["webhooks:read"], ["webhooks:write"], ["partners:write", "ledger:write"]]) {
      const api = await keyWith(t, scopes);
      const error = await expectApiError(api.events.list({}), 403, "forbidden", "auth.scope_missing");
      expect(error.params).toEqual({ requiredScope: "events:read" });
      await expectApiError(api.events.get({ id: event.id }), 403, "forbidden", "auth.scope_missing");
    }
    // events:read reads no webhook subscriptions or deliveries.
    const eventsOnly = await keyWith(t, ["events:read"]);
    await expectApiError(eventsOnly.webhooks.deliveries.list({}), 403, "forbidden", "auth.scope_missing");
    const keys = await h.db("api_keys").where({ account_id: t.accountId }).whereRaw("scopes && array['events:read', 'events:write']").select("scopes");
    expect(keys.map((k) => k.scopes).sort()).toEqual([["events:read"], ["events:read"], ["events:write"]]);
  });
});

describe("retention", () => {
  test("prune_events runs hourly; it deletes events older than EVENT_RETENTION_DAYS and their deliveries, never one with a delivery pending or held", async () => {
    expect(
      parseCrontab(crontab)
        .filter((i) => i.task === "prune_events")
        .map((i) => i.options.maxAttempts),
    ).toEqual([1]);
    expect(crontab).toContain("47 * * * * prune_events ?max=1");
    const t = await h.tenant();
    const sub = await t.api.webhooks.subscriptions.create({ url: receiver.url("/retention"), eventTypes: ["*"] });
    const names = ["fresh", "old none", "old succeeded", "old failed", "old pending", "old held"];
    for (const [i, name] of names.entries()) await t.api.partners.create({ name, code: `R${i}` });
    const events = await h.db("webhook_events").where({ company_id: t.companyId }).orderBy("seq").select("id", "data");
    const byName = Object.fromEntries(events.map((e) => [e.data.name, e.id as string]));
    // Ages and delivery states as time would have made them (the 31-day-old events were written directly).
    await h
      .db("webhook_events")
      .where({ company_id: t.companyId })
      .whereNot({ id: byName.fresh })
      .update({ created_at: h.db.raw("now() - interval '31 days'") });
    await h
      .db("webhook_events")
      .where({ company_id: t.companyId, id: byName.fresh })
      .update({ created_at: h.db.raw("now() - interval '29 days'") });
    await h.db("webhook_deliveries").where({ company_id: t.companyId, event_id: byName["old none"] }).delete();
    for (const [name, status] of [
      ["fresh", "succeeded"],
      ["old succeeded", "succeeded"],
      ["old failed", "failed"],
      ["old held", "held"],
    ] as const) {
      await h.db("webhook_deliveries").where({ company_id: t.companyId, event_id: byName[name] }).update({ status, next_attempt_at: null });
    }
    const otherEvents = await h.db("webhook_events").whereNot({ company_id: t.companyId }).count({ n: "*" });

    const logged: string[] = [];
    await pruneEventsTask({ db: h.db, config: { ...h.config, eventRetentionDays: 30 } })(undefined, {
      logger: { info: (m: string) => logged.push(m) },
    } as never);
    expect(logged).toEqual(["pruned 3 events older than 30 days and their 2 deliveries"]);

    const kept = ["fresh", "old pending", "old held"];
    expect((await t.api.events.list({})).rows.map((e) => (e.data as { name: string }).name).sort()).toEqual([...kept].sort());
    expect((await h.db("webhook_deliveries").where({ company_id: t.companyId }).select("event_id")).map((d) => d.event_id).sort()).toEqual(
      kept.map((n) => byName[n]).sort(),
    );
    await expectApiError(t.api.events.get({ id: byName["old failed"] }), 404, "not_found", "event.not_found");
    expect((await t.api.webhooks.deliveries.list({ filter: [{ field: "subscriptionId", op: "eq", value: sub.id }] })).total).toBe(3);
    expect(await h.db("webhook_events").whereNot({ company_id: t.companyId }).count({ n: "*" })).toEqual(otherEvents);

    // Once the held delivery ends, its event goes too; a shorter retention reaches the younger one. (Batches of one
    // here: the statement runs until a batch comes back short.)
    await h.db("webhook_deliveries").where({ company_id: t.companyId, event_id: byName["old held"] }).update({ status: "failed" });
    expect(await pruneEvents(h.db, 30, 1)).toEqual({ events: 1, deliveries: 1 });
    expect(await pruneEvents(h.db, 28, 1)).toEqual({ events: 1, deliveries: 1 });
    expect((await t.api.events.list({})).rows.map((e) => (e.data as { name: string }).name)).toEqual(["old pending"]);
  });
});

describe("webhooks/subscriptions/test", () => {
  let paths = 0;
  const newPath = () => `/ping/${++paths}`;

  test("sends a signed ping at once and answers the receiver's status and time; the receiver verifies it as a delivery; nothing is stored", async () => {
    const t = await h.tenant();
    const path = newPath();
    receiver.answer(path, { status: 204, delayMs: 100 });
    const { secret, ...sub } = await t.api.webhooks.subscriptions.create({ url: receiver.url(path), eventTypes: ["partner.created"] });
    const result = await t.api.webhooks.subscriptions.test({ id: sub.id });
    expect(result).toEqual({
      subscriptionId: sub.id,
      eventId: expect.stringMatching(UUID),
      url: sub.url,
      ok: true,
      status: 204,
      error: null,
      durationMs: expect.any(Number),
      sentAt: expect.any(String),
    });
    // The receiver held its answer 100 ms: the time includes it.
    expect(result.durationMs).toBeGreaterThanOrEqual(100);
    const [got] = receiver.received(path);
    expect(receiver.received(path)).toHaveLength(1);
    expect(got.json).toEqual({
      id: result.eventId,
      version: "2026-11-23",
      companyId: t.companyId,
      eventType: "ping",
      createdAt: result.sentAt,
      data: { subscriptionId: sub.id, url: sub.url },
    });
    expect(got.headers).toMatchObject({
      "content-type": "application/json",
      "webhook-id": result.eventId,
      "webhook-attempt": "1",
      "webhook-event-type": "ping",
      "webhook-timestamp": String(Math.floor(Date.parse(result.sentAt) / 1000)),
    });
    expect(verifyV2(got.headers["x-service-signature-v2"] as string, got.body, secret)).toBe(true);
    expect(verifyV1(got.headers["x-service-signature"] as string, got.body, secret)).toBe(true);
    expect(new Webhook(secret).verify(got.body, got.headers as Record<string, string>)).toEqual(got.json);
    expect(() => new Webhook(secret).verify(got.body.replace("ping", "pong"), got.headers as Record<string, string>)).toThrow("No matching signature found");
    expect(await h.db("webhook_events").where({ company_id: t.companyId })).toEqual([]);
    expect(await h.db("webhook_deliveries").where({ company_id: t.companyId })).toEqual([]);
    expect((await t.api.events.list({})).total).toBe(0);
  });

  test.each([
    { name: "answers 500", answer: { status: 500 }, want: { ok: false, status: 500, error: null } },
    { name: "answers 410", answer: { status: 410 }, want: { ok: false, status: 410, error: null } },
    {
      name: "answers later than WEBHOOK_TIMEOUT_MS",
      answer: { status: 200, delayMs: TIMEOUT_MS + 1000 },
      want: { ok: false, status: null, error: `timeout after ${TIMEOUT_MS} ms` },
    },
  ])("a receiver that $name: 200 with ok false and what happened", async ({ answer, want }) => {
    const t = await h.tenant();
    const path = newPath();
    receiver.answer(path, answer);
    const sub = await t.api.webhooks.subscriptions.create({ url: receiver.url(path), eventTypes: ["*"] });
    expect(await t.api.webhooks.subscriptions.test({ id: sub.id })).toMatchObject(want);
    expect(receiver.received(path)).toHaveLength(1);
  });

  test("a receiver that is down: 200 with ok false and connection refused", async () => {
    const gone = await startReceiver();
    const url = gone.url("/ping");
    await gone.close();
    const t = await h.tenant();
    const sub = await t.api.webhooks.subscriptions.create({ url, eventTypes: ["*"] });
    expect(await t.api.webhooks.subscriptions.test({ id: sub.id })).toMatchObject({ ok: false, status: null, error: "connection refused" });
  });

  test("a paused subscription is pinged too; during a rotation the ping carries both secrets' signatures", async () => {
    const t = await h.tenant();
    const path = newPath();
    const { secret: oldSecret, ...sub } = await t.api.webhooks.subscriptions.create({ url: receiver.url(path), eventTypes: ["*"] });
    await t.api.webhooks.subscriptions.update({ id: sub.id, status: "paused" });
    const { secret: newSecret } = await t.api.webhooks.subscriptions.rotateSecret({ id: sub.id });
    expect(await t.api.webhooks.subscriptions.test({ id: sub.id })).toMatchObject({ ok: true, status: 200 });
    const [got] = receiver.received(path);
    expect(got.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/);
    for (const secret of [oldSecret, newSecret]) {
      expect(new Webhook(secret).verify(got.body, got.headers as Record<string, string>)).toEqual(got.json);
      expect(verifyV2(got.headers["x-service-signature-v2"] as string, got.body, secret)).toBe(true);
    }
    expect((await t.api.webhooks.subscriptions.get({ id: sub.id })).status).toBe("paused");
  });

  test("under the URL guard: a stored URL the guard refuses now is not called, and the answer says why", async () => {
    const t = await strict.tenant();
    const id = crypto.randomUUID();
    const port = new URL(receiver.url("/")).port;
    await strict.db("webhook_subscriptions").insert({
      company_id: t.companyId,
      id,
      url: `https://mapped.hooks.test:${port}/guarded`,
      event_types: ["*"],
      secret_sealed: seal(strict.config.secretsKey!, "whsec_dGVzdA==", secretContext(t.companyId, id)),
    });
    expect(await t.api.webhooks.subscriptions.test({ id })).toMatchObject({
      ok: false,
      status: null,
      error: `URL refused: must use port 443 or 8443, not ${port}`,
    });
    await strict.db("webhook_subscriptions").where({ id }).update({ url: "https://mapped.hooks.test/guarded" });
    expect(await t.api.webhooks.subscriptions.test({ id })).toMatchObject({
      ok: false,
      status: null,
      error: "URL refused: mapped.hooks.test resolves to a private address (::ffff:127.0.0.1)",
    });
    expect(receiver.received("/guarded")).toEqual([]);
  });

  test("another account's subscription is not found; a key without webhooks:write may not ping", async () => {
    const a = await h.tenant();
    const b = await h.tenant();
    const path = newPath();
    const sub = await a.api.webhooks.subscriptions.create({ url: receiver.url(path), eventTypes: ["*"] });
    await expectApiError(b.api.webhooks.subscriptions.test({ id: sub.id }), 404, "not_found", "webhook_subscription.not_found");
    await expectApiError(b.api.withCompany(a.companyId).webhooks.subscriptions.test({ id: sub.id }), 404, "not_found", "company.not_found");
    const reader = await keyWith(a, ["webhooks:read", "events:read"]);
    await expectApiError(reader.webhooks.subscriptions.test({ id: sub.id }), 403, "forbidden", "auth.scope_missing");
    expect(receiver.received(path)).toEqual([]);
  });
});
