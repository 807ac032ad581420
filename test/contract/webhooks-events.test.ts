// Events and subscriptions (issue 9): the outbox written in the change's own transaction (a failed request emits
// nothing), the event types the product emits with their data, subscriptions CRUD with the secret shown once and
// stored encrypted, rotation, the SSRF refusals, and tenancy. Delivery itself: webhooks-delivery.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { ltCompanyCode } from "../support/codes.js";
import { startHarness, type Harness } from "../support/harness.js";
import { expectApiError, invalid } from "../support/expect.js";
import { world } from "../support/world.js";
import { unseal } from "../../src/secrets.js";
import { secretContext } from "../../src/webhooks/subscriptions.js";
import { sleep } from "../support/timing.js";
import { fakeResolver } from "../support/webhook-receiver.js";
import { runCli, startServerProcess } from "../support/processes.js";
import { resolveSecretsKey } from "../../src/secrets.js";
import { loadConfig } from "../../src/config.js";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** What the strict server's webhook hosts resolve to (every other name does not resolve). */
const GUARD_HOSTS: Record<string, string[]> = {
  "mapped.hooks.test": ["::ffff:127.0.0.1"],
  "compatible.hooks.test": ["::7f00:1"],
  "nat64.hooks.test": ["64:ff9b::a9fe:a9fe"],
  "mixed.hooks.test": ["2002:a00:1::1", "fd00::1"],
};

let h: Harness;
let strict: Harness;
beforeAll(async () => {
  h = await startHarness({ config: { webhookAllowPrivateUrls: true } });
  // Host names resolve through this table only: no test reaches DNS.
  strict = await startHarness({ config: { webhookAllowPrivateUrls: false, webhookResolve: fakeResolver(GUARD_HOSTS) } });
});
afterAll(async () => {
  await h.close();
  await strict.close();
});

const RECEIVER = "http://127.0.0.1:9/hook";

/** A tenant without a chart, on `harness` (the permissive server by default). */
const eventsWorld = (harness = h) => world(harness, { chart: false });

const events = (companyId: string) => h.db("webhook_events").where({ company_id: companyId }).orderBy("seq");

describe("the outbox", () => {
  test("partner create, update and delete each write one event with the partner as data, and a delivery with its job", async () => {
    const w = await eventsWorld();
    const sub = await w.api.webhooks.subscriptions.create({ url: RECEIVER, eventTypes: ["*"] });
    const created = await w.api.partners.create({ name: "Pirkėjas UAB", code: "P1" });
    await sleep(20);
    const updated = await w.api.partners.update({ id: created.id, name: "Pirkėjas AB" });
    const deleted = await w.api.partners.delete({ id: created.id });
    const rows = await events(w.companyId);
    expect(rows.map((r) => [r.event_type, r.version, r.data])).toEqual([
      ["partner.created", "2026-11-23", created],
      ["partner.updated", "2026-11-23", updated],
      ["partner.deleted", "2026-11-23", deleted],
    ]);
    const deliveries = await h.db("webhook_deliveries").where({ company_id: w.companyId }).orderBy("event_seq");
    expect(deliveries.map((d) => [d.event_id, d.subscription_id, d.status, d.attempts])).toEqual(rows.map((r) => [r.id, sub.id, "pending", 0]));
    // The jobs view has no payload: it is read from graphile-worker's own table.
    const jobs = await h
      .db("graphile_worker.jobs as j")
      .join("graphile_worker._private_jobs as p", "p.id", "j.id")
      .whereIn(
        "j.key",
        deliveries.map((d) => `whd:${d.id}`),
      )
      .select("j.task_identifier", "j.queue_name", "p.payload");
    expect(jobs.map((j) => [j.task_identifier, j.queue_name, j.payload]).sort()).toEqual(
      deliveries.map((d) => ["deliver_webhook", `webhooks:${sub.id}`, { companyId: w.companyId, subscriptionId: sub.id, deliveryId: d.id }]).sort(),
    );
  });

  test("a failed request emits nothing: a taken partner code, an unbalanced posting, a locked month", async () => {
    const w = await eventsWorld();
    await w.api.webhooks.subscriptions.create({ url: RECEIVER, eventTypes: ["*"] });
    await w.api.ledger.accounts.applyTemplate({ template: "lt-standard" });
    await w.api.partners.create({ name: "A", code: "A1" });
    const before = (await events(w.companyId)).length;
    await expectApiError(w.api.partners.create({ name: "B", code: "A1" }), 409, "conflict", "partner.code_taken");
    const unbalanced = {
      date: "2026-03-10",
      entries: [
        { accountCode: "2410", debit: "10.00" },
        { accountCode: "5000", credit: "9.00" },
      ],
    };
    await expectApiError(w.api.ledger.journal.transactions.create(unbalanced), 422, "unprocessable", "journal.unbalanced");
    await w.api.ledger.periods.lock({ month: "2026-01" });
    const intoLocked = {
      date: "2026-01-10",
      entries: [
        { accountCode: "2410", debit: "10.00" },
        { accountCode: "5000", credit: "10.00" },
      ],
    };
    await expectApiError(w.api.ledger.journal.transactions.create(intoLocked), 409, "conflict", "period.locked");
    const after = await events(w.companyId);
    // Only the lock itself was written.
    expect(after.length).toBe(before + 1);
    expect(after.at(-1)!.event_type).toBe("period.locked");
    expect(await h.db("webhook_deliveries").where({ company_id: w.companyId }).count({ n: "*" })).toEqual([{ n: String(before + 1) }]);
  });

  test("journal posted and reversed, period locked (one event per month) and unlocked", async () => {
    const w = await eventsWorld();
    await w.api.ledger.accounts.applyTemplate({ template: "lt-standard" });
    const posted = await w.api.ledger.journal.transactions.create({
      date: "2026-03-10",
      entries: [
        { accountCode: "2410", debit: "12.50" },
        { accountCode: "5000", credit: "12.50" },
      ],
    });
    const reversal = await w.api.ledger.journal.transactions.reverse({ id: posted.id });
    const lock = await w.api.ledger.periods.lock({ through: "2026-04-15" });
    const unlocked = await w.api.ledger.periods.unlock({ month: "2026-04" });
    const rows = await events(w.companyId);
    expect(rows.map((r) => [r.event_type, r.data])).toEqual([
      ["journal_transaction.posted", posted],
      ["journal_transaction.posted", reversal],
      ["journal_transaction.reversed", { reversedId: posted.id, reversal }],
      ...lock.locked.map((p: unknown) => ["period.locked", p]),
      ["period.unlocked", unlocked],
    ]);
    expect(lock.locked.map((p: { month: string }) => p.month)).toEqual(["2026-03", "2026-04"]);
    // Nobody subscribed: events are kept, nothing is scheduled.
    expect(await h.db("webhook_deliveries").where({ company_id: w.companyId })).toEqual([]);
  });

  test("exchange_rates.synced goes to each company subscribed to it, and only to those", async () => {
    const subscribed = await eventsWorld();
    const wildcard = await eventsWorld();
    const other = await eventsWorld();
    await subscribed.api.webhooks.subscriptions.create({ url: RECEIVER, eventTypes: ["exchange_rates.synced"] });
    await wildcard.api.webhooks.subscriptions.create({ url: RECEIVER, eventTypes: ["*"] });
    await other.api.webhooks.subscriptions.create({ url: RECEIVER, eventTypes: ["partner.created"] });
    const { emitEventToSubscribedCompanies } = await import("../../src/events/emit.js");
    // Other tests' companies share this database: the count is checked against theirs too.
    const [{ n }] = await h.db("webhook_subscriptions").whereRaw("event_types && array['*', 'exchange_rates.synced']").countDistinct({ n: "company_id" });
    const written = await h.db.transaction((trx) => emitEventToSubscribedCompanies(trx, "exchange_rates.synced", { date: "2026-03-02", imported: 30 }));
    expect(written).toBe(Number(n));
    for (const w of [subscribed, wildcard]) {
      expect((await events(w.companyId)).map((r) => [r.event_type, r.data])).toEqual([["exchange_rates.synced", { date: "2026-03-02", imported: 30 }]]);
    }
    expect(await events(other.companyId)).toEqual([]);
  });
});

describe("subscriptions", () => {
  test("create shows the secret once; it is stored AES-256-GCM encrypted and never listed", async () => {
    const w = await eventsWorld();
    const res = await w.api.webhooks.subscriptions.create({
      url: RECEIVER,
      eventTypes: ["partner.created", "period.locked"],
      description: "ERP",
      ownerEmails: ["ops@example.com"],
    });
    const { secret, ...sub } = res;
    // Standard Webhooks' form: `whsec_` and the standard base64 of 32 random bytes (issue 28, item 4).
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice("whsec_".length), "base64")).toHaveLength(32);
    expect(sub).toMatchObject({
      url: RECEIVER,
      eventTypes: ["partner.created", "period.locked"],
      description: "ERP",
      ownerEmails: ["ops@example.com"],
      status: "active",
      consecutiveFailures: 0,
      pausedAt: null,
      previousSecretExpiresAt: null,
    });
    const row = await h.db("webhook_subscriptions").where({ company_id: w.companyId, id: sub.id }).first();
    expect(row.secret_sealed.includes(Buffer.from(secret))).toBe(false);
    expect(row.secret_sealed.includes(Buffer.from(secret.slice(6)))).toBe(false);
    expect(unseal(h.config.secretsKey!, row.secret_sealed, secretContext(w.companyId, sub.id))).toBe(secret);
    // Bound to its row: the same bytes do not open as another subscription's secret.
    expect(() => unseal(h.config.secretsKey!, row.secret_sealed, secretContext(w.companyId, w.companyId))).toThrow();
    const listed = await w.api.webhooks.subscriptions.list({});
    expect(listed.rows).toEqual([sub]);
    expect(JSON.stringify(listed)).not.toContain("whsec_");
    expect(await w.api.webhooks.subscriptions.get({ id: sub.id })).toEqual(sub);
    const audit = await h.db("audit_log").where({ company_id: w.companyId });
    expect(audit.map((a) => a.operation)).toEqual(["webhooks.subscriptions.create"]);
    expect(JSON.stringify(audit)).not.toContain(secret.slice(6));
  });

  test("owner e-mails default to the account owner's e-mail, else none", async () => {
    const w = await eventsWorld();
    const without = await w.api.webhooks.subscriptions.create({ url: RECEIVER, eventTypes: ["*"] });
    expect(without.ownerEmails).toEqual([]);
    await h.db("accounts").where({ id: w.accountId }).update({ owner_email: "owner@example.com" });
    const withOwner = await w.api.webhooks.subscriptions.create({ url: RECEIVER, eventTypes: ["*"] });
    expect(withOwner.ownerEmails).toEqual(["owner@example.com"]);
  });

  test("update changes only what is sent; pausing and resuming by hand", async () => {
    const w = await eventsWorld();
    const sub = await w.api.webhooks.subscriptions.create({ url: RECEIVER, eventTypes: ["*"], description: "first" });
    await sleep(20);
    const changed = await w.api.webhooks.subscriptions.update({ id: sub.id, eventTypes: ["partner.updated"], description: null });
    expect(changed).toMatchObject({ url: RECEIVER, eventTypes: ["partner.updated"], description: null, status: "active" });
    expect(Date.parse(changed.updatedAt)).toBeGreaterThan(Date.parse(sub.updatedAt));
    const paused = await w.api.webhooks.subscriptions.update({ id: sub.id, status: "paused" });
    expect(paused.status).toBe("paused");
    expect(paused.pausedAt).not.toBeNull();
    const resumed = await w.api.webhooks.subscriptions.update({ id: sub.id, status: "active" });
    expect(resumed).toMatchObject({ status: "active", pausedAt: null, consecutiveFailures: 0 });
  });

  test('"*" goes alone; unknown and repeated event types are refused', async () => {
    const w = await eventsWorld();
    const error = await expectApiError(
      w.api.webhooks.subscriptions.create(invalid({ url: RECEIVER, eventTypes: ["*", "partner.created"] })),
      400,
      "validation",
    );
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["eventTypes"]);
    await expectApiError(w.api.webhooks.subscriptions.create(invalid({ url: RECEIVER, eventTypes: ["partner.exploded"] })), 400, "validation");
    const repeated = await expectApiError(
      w.api.webhooks.subscriptions.create(invalid({ url: RECEIVER, eventTypes: ["partner.created", "partner.created"] })),
      400,
      "validation",
    );
    expect(Object.keys(repeated.fieldErrors ?? {})).toEqual(["eventTypes"]);
    expect(await h.db("webhook_subscriptions").where({ company_id: w.companyId })).toEqual([]);
  });

  test("rotate-secret returns a new secret; the old one stays stored for 24 hours", async () => {
    const w = await eventsWorld();
    const { secret: first, ...sub } = await w.api.webhooks.subscriptions.create({ url: RECEIVER, eventTypes: ["*"] });
    const { secret: second, ...rotated } = await w.api.webhooks.subscriptions.rotateSecret({ id: sub.id });
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);
    const row = await h.db("webhook_subscriptions").where({ company_id: w.companyId, id: sub.id }).first();
    const context = secretContext(w.companyId, sub.id);
    expect(unseal(h.config.secretsKey!, row.secret_sealed, context)).toBe(second);
    expect(unseal(h.config.secretsKey!, row.previous_secret_sealed, context)).toBe(first);
    const [{ hours }] = (
      await h.db.raw("select extract(epoch from previous_secret_expires_at - updated_at) / 3600 as hours from webhook_subscriptions where id = ?", [sub.id])
    ).rows;
    expect(Number(hours)).toBeCloseTo(24, 5);
    expect(Date.parse(rotated.previousSecretExpiresAt!)).toBe(new Date(row.previous_secret_expires_at).getTime());
    const audit = await h.db("audit_log").where({ company_id: w.companyId, operation: "webhooks.subscriptions.rotate-secret" });
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toContain(second.slice(6));
  });

  test("delete removes the subscription and its deliveries; later events go nowhere", async () => {
    const w = await eventsWorld();
    const sub = await w.api.webhooks.subscriptions.create({ url: RECEIVER, eventTypes: ["*"] });
    await w.api.partners.create({ name: "A", code: "A1" });
    expect(await w.api.webhooks.subscriptions.delete({ id: sub.id })).toMatchObject({ id: sub.id });
    await expectApiError(w.api.webhooks.subscriptions.get({ id: sub.id }), 404, "not_found", "webhook_subscription.not_found");
    await w.api.partners.create({ name: "B", code: "B1" });
    expect(await h.db("webhook_deliveries").where({ company_id: w.companyId })).toEqual([]);
    expect(await events(w.companyId)).toHaveLength(2);
  });
});

describe("SSRF: URLs the service must not call", () => {
  test.each([
    ["http without WEBHOOK_ALLOW_PRIVATE_URLS", "http://example.com/hook", "must use https"],
    ["loopback", "https://127.0.0.1/hook", "127.0.0.1"],
    ["loopback by name", "https://localhost:8443/hook", "local or internal host"],
    ["private 10/8", "https://10.1.2.3/hook", "10.1.2.3"],
    ["private 192.168/16", "https://192.168.0.10/hook", "192.168.0.10"],
    ["private 172.16/12", "https://172.20.0.1/hook", "172.20.0.1"],
    ["cloud metadata", "https://169.254.169.254/latest/meta-data", "169.254.169.254"],
    ["CGNAT / Alibaba metadata", "https://100.100.100.200/", "100.100.100.200"],
    ["unspecified", "https://0.0.0.0/", "0.0.0.0"],
    ["IPv6 loopback", "https://[::1]/hook", "::1"],
    ["IPv6 unique local", "https://[fd00:ec2::254]/", "fd00:ec2::254"],
    ["IPv4-mapped IPv6 loopback", "https://[::ffff:127.0.0.1]/", "::ffff:7f00:1"],
    ["credentials in the URL", "https://user:pw@example.com/hook", "user name or password"],
  ])("%s is refused with 422 naming url", async (_name, url, reason) => {
    const w = await eventsWorld(strict);
    const error = await expectApiError(w.api.webhooks.subscriptions.create({ url, eventTypes: ["*"] }), 422, "unprocessable", "webhook.url_refused");
    expect(error.fieldErrors?.url[0]).toContain(reason);
    expect(await strict.db("webhook_subscriptions").where({ company_id: w.companyId })).toEqual([]);
  });

  // Issue 22, item 9: reserved IPv6 forms that carry an IPv4 address, the rest of ::/8 and of what lies outside the
  // global unicast 2000::/3, IPv4 written the ways a URL parser reads it, trailing dots, user info, ports, and names
  // that resolve (through the strict server's table, GUARD_HOSTS) to such addresses.
  test.each([
    ["IPv4-compatible IPv6 (::/96)", "https://[::127.0.0.1]/", "names ::7f00:1,"],
    ["IPv4-translated IPv6 (::ffff:0:0/96)", "https://[::ffff:0:7f00:1]/", "names ::ffff:0:7f00:1,"],
    ["IPv4-mapped metadata address", "https://[::ffff:169.254.169.254]/", "names ::ffff:a9fe:a9fe,"],
    ["IPv6 unspecified", "https://[::]/", "names ::,"],
    ["the rest of ::/8", "https://[::1:2:3:4]/", "names ::1:2:3:4,"],
    ["NAT64 of a private IPv4 (64:ff9b::/96)", "https://[64:ff9b::10.0.0.1]/", "names 64:ff9b::a00:1,"],
    ["NAT64 local-use prefix (64:ff9b:1::/48)", "https://[64:ff9b:1::a00:1]/", "names 64:ff9b:1::a00:1,"],
    ["6to4 of a private IPv4 (2002::/16)", "https://[2002:c0a8:101::1]/", "names 2002:c0a8:101::1,"],
    ["6to4 of loopback", "https://[2002:7f00:1::]/", "names 2002:7f00:1::,"],
    ["Teredo (2001::/32)", "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", "names 2001:0:4136:e378:8000:63bf:3fff:fdd2,"],
    ["unique local fc00::/7, low half", "https://[fc00::1]/", "names fc00::1,"],
    ["link-local fe80::/10", "https://[fe80::1]/", "names fe80::1,"],
    ["link-local with a zone", "https://[fe80::1%25eth0]/", "is not a valid URL"],
    ["site-local fec0::/10", "https://[fec0::1]/", "names fec0::1,"],
    ["multicast ff00::/8", "https://[ff02::1]/", "names ff02::1,"],
    ["discard-only 100::/64", "https://[100::1]/", "names 100::1,"],
    ["documentation 2001:db8::/32", "https://[2001:db8::1]/", "names 2001:db8::1,"],
    ["0.0.0.0 written as 0", "https://0/", "names 0.0.0.0,"],
    ["decimal IPv4", "https://2130706433/", "names 127.0.0.1,"],
    ["decimal IPv4 over http", "http://2130706433/", "must use https"],
    ["hex IPv4", "https://0x7f000001/", "names 127.0.0.1,"],
    ["hex and short IPv4", "https://0x7f.1/", "names 127.0.0.1,"],
    ["octal IPv4", "https://0177.0.0.01/", "names 127.0.0.1,"],
    ["short IPv4", "https://127.1/", "names 127.0.0.1,"],
    ["IPv4 with a trailing dot", "https://127.0.0.1./", "names 127.0.0.1,"],
    ["localhost with a trailing dot", "https://localhost./hook", "local or internal host"],
    ["an internal name with a trailing dot", "https://metadata.google.internal./", "local or internal host"],
    ["upper-case localhost", "https://LOCALHOST/", "local or internal host"],
    ["user info before a loopback host", "https://public@127.0.0.1/", "user name or password"],
    ["a public-looking name as user info", "https://hooks.example.test:443@127.0.0.1/", "user name or password"],
    ["a backslash before @ (the host is what precedes it)", "https://127.0.0.1\\@hooks.example.test/", "names 127.0.0.1,"],
    ["a database port", "https://hooks.example.test:5432/hook", "must use port 443 or 8443, not 5432"],
    ["port 80 over https", "https://hooks.example.test:80/hook", "must use port 443 or 8443, not 80"],
    ["8443 passes the port rule; the address is refused", "https://10.0.0.1:8443/hook", "names 10.0.0.1,"],
    ["an explicit :443 passes the port rule; the address is refused", "https://[::ffff:0:7f00:1]:443/", "names ::ffff:0:7f00:1,"],
    ["a name resolving to an IPv4-mapped loopback", "https://mapped.hooks.test/hook", "resolves to ::ffff:127.0.0.1,"],
    ["a name resolving to an IPv4-compatible loopback", "https://compatible.hooks.test/hook", "resolves to ::7f00:1,"],
    ["a name resolving to NAT64 of the metadata address", "https://nat64.hooks.test/hook", "resolves to 64:ff9b::a9fe:a9fe,"],
    ["a name resolving to 6to4 and unique-local addresses", "https://mixed.hooks.test/hook", "resolves to 2002:a00:1::1,"],
    ["a name that does not resolve", "https://nowhere.hooks.test/hook", "host nowhere.hooks.test does not resolve"],
  ])("%s: 422 webhook.url_refused naming url, nothing stored", async (_name, url, reason) => {
    const t = await strict.tenant();
    const error = await expectApiError(t.api.webhooks.subscriptions.create({ url, eventTypes: ["*"] }), 422, "unprocessable", "webhook.url_refused");
    expect(error.fieldErrors?.url?.[0]).toContain(reason);
    expect(await strict.db("webhook_subscriptions").where({ company_id: t.companyId })).toEqual([]);
  });

  test("update to such a URL is refused the same way, and changes nothing", async () => {
    const t = await strict.tenant();
    const api = t.api.webhooks.subscriptions;
    // A subscription as it was stored before (private URLs allowed then): written directly.
    const [row] = await strict
      .db("webhook_subscriptions")
      .insert({ company_id: t.companyId, url: "https://old.hooks.test/hook", event_types: ["*"], secret_sealed: Buffer.alloc(40) })
      .returning("id");
    for (const url of ["https://[::ffff:0:7f00:1]/x", "https://compatible.hooks.test/x", "https://hooks.example.test:5432/x"]) {
      await expectApiError(api.update({ id: row.id, url }), 422, "unprocessable", "webhook.url_refused");
    }
    expect((await api.get({ id: row.id })).url).toBe("https://old.hooks.test/hook");
  });

  test("WEBHOOK_ALLOWED_PORTS: a comma-separated list of ports replaces 443 and 8443; anything else stops the start", () => {
    const saved = process.env.WEBHOOK_ALLOWED_PORTS;
    try {
      delete process.env.WEBHOOK_ALLOWED_PORTS;
      expect(loadConfig().webhookAllowedPorts).toEqual([443, 8443]);
      process.env.WEBHOOK_ALLOWED_PORTS = " 443, 9443 ,9443";
      expect(loadConfig().webhookAllowedPorts).toEqual([443, 9443]);
      for (const bad of ["0", "65536", "443;8443", "https", "443,", "-1"]) {
        process.env.WEBHOOK_ALLOWED_PORTS = bad;
        expect(() => loadConfig()).toThrow(`WEBHOOK_ALLOWED_PORTS must be a comma-separated list of ports from 1 to 65535 (e.g. 443,8443), got "${bad}"`);
      }
    } finally {
      if (saved === undefined) delete process.env.WEBHOOK_ALLOWED_PORTS;
      else process.env.WEBHOOK_ALLOWED_PORTS = saved;
    }
  });

  test("update to a private URL is refused too, and changes nothing", async () => {
    const w = await eventsWorld(strict);
    const sub = await w.api.webhooks.subscriptions.create({ url: "https://93.184.215.14/hook", eventTypes: ["*"] });
    await expectApiError(w.api.webhooks.subscriptions.update({ id: sub.id, url: "https://127.0.0.1/x" }), 422, "unprocessable", "webhook.url_refused");
    expect((await w.api.webhooks.subscriptions.get({ id: sub.id })).url).toBe("https://93.184.215.14/hook");
  });
});

describe("tenancy", () => {
  test("another account cannot see or change a subscription or its deliveries; events stay in their company", async () => {
    const a = await eventsWorld();
    const b = await eventsWorld();
    const subA = await a.api.webhooks.subscriptions.create({ url: RECEIVER, eventTypes: ["*"] });
    const subB = await b.api.webhooks.subscriptions.create({ url: RECEIVER, eventTypes: ["*"] });
    await a.api.partners.create({ name: "A", code: "A1" });
    const [eventA] = await events(a.companyId);
    const subscriptions = b.api.webhooks.subscriptions;
    for (const call of [
      subscriptions.get({ id: subA.id }),
      subscriptions.update({ id: subA.id, description: "mine now" }),
      subscriptions.rotateSecret({ id: subA.id }),
      subscriptions.delete({ id: subA.id }),
    ]) {
      await expectApiError(call, 404, "not_found", "webhook_subscription.not_found");
    }
    await expectApiError(b.api.webhooks.deliveries.redeliver({ eventId: eventA.id, subscriptionId: subA.id }), 404, "not_found");
    // B's key naming A's company: the company is not found.
    await expectApiError(b.api.webhooks.subscriptions.list({}, { companyId: a.companyId }), 404, "not_found", "company.not_found");
    expect((await b.api.webhooks.subscriptions.list({})).rows.map((s: { id: string }) => s.id)).toEqual([subB.id]);
    expect((await b.api.webhooks.deliveries.list({})).rows).toEqual([]);
    const deliveriesA = await a.api.webhooks.deliveries.list({});
    expect(deliveriesA.rows.map((d: { eventId: string; subscriptionId: string }) => [d.eventId, d.subscriptionId])).toEqual([[eventA.id, subA.id]]);
    expect(await h.db("webhook_deliveries").where({ subscription_id: subB.id })).toEqual([]);
    const row = await h.db("webhook_subscriptions").where({ id: subA.id }).first();
    expect(row.description).toBeNull();
  });
});

describe("the secrets key and the owner e-mail", () => {
  test("with DATABASE_URL and no SECRETS_KEY the server refuses to start, saying why", async () => {
    const start = startServerProcess({ DATABASE_URL: h.connectionString, SECRETS_KEY: undefined }, []);
    await expect(start).rejects.toThrow(/exited early \(1\)[\s\S]*SECRETS_KEY is required with DATABASE_URL/);
  });

  test("without DATABASE_URL a key file is made once under DATA_DIR (0600) and reused", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "acct-secrets-"));
    const config = { ...loadConfig(), databaseUrl: undefined, secretsKey: undefined, dataDir };
    const first = resolveSecretsKey(config);
    expect(first).toHaveLength(32);
    const file = join(dataDir, "secrets.key");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, "utf8").trim(), "base64").equals(first)).toBe(true);
    expect(resolveSecretsKey(config).equals(first)).toBe(true);
  });

  test("a SECRETS_KEY that is not 32 bytes of base64 is refused", () => {
    const saved = process.env.SECRETS_KEY;
    try {
      process.env.SECRETS_KEY = Buffer.alloc(16).toString("base64");
      expect(() => loadConfig()).toThrow(/SECRETS_KEY must be 32 bytes/);
    } finally {
      process.env.SECRETS_KEY = saved;
    }
  });

  test("admin bootstrap --email and owner-email set the owner's e-mail, the default owner of new subscriptions", async () => {
    const env = { DATABASE_URL: h.connectionString };
    const boot = await runCli(["bootstrap", "--name", "Owner UAB", "--email", "first@example.com"], env);
    expect(boot.code).toBe(0);
    const { accountId, apiKey, ownerEmail } = JSON.parse(boot.stdout);
    expect(ownerEmail).toBe("first@example.com");
    expect((await h.db("accounts").where({ id: accountId }).first("owner_email")).owner_email).toBe("first@example.com");
    const changed = await runCli(["owner-email", "--account", accountId, "--email", "second@example.com"], env);
    expect([changed.code, JSON.parse(changed.stdout)]).toEqual([0, { accountId, ownerEmail: "second@example.com" }]);
    const bad = await runCli(["owner-email", "--account", accountId, "--email", "not-an-address"], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--email must be an e-mail address");
    expect((await h.db("accounts").where({ id: accountId }).first("owner_email")).owner_email).toBe("second@example.com");
    const company = await h.sdk(apiKey).account.companies.create({ name: "Owner UAB", code: ltCompanyCode(), countryCode: "LT" });
    const sub = await h.sdk(apiKey, company.id).webhooks.subscriptions.create({ url: RECEIVER, eventTypes: ["*"] });
    expect(sub.ownerEmails).toEqual(["second@example.com"]);
  }, 60_000);
});
