// webhooks/subscriptions/test (issue 28, item 1): a signed `ping` event sent to one subscription at once, answered
// with what the receiver did. It is sent exactly as a delivery is (the same envelope, headers and signatures, the
// same URL guard and timeout) but outside the outbox: a ping is no change of the company's, so it is neither an event
// of events/list nor a delivery of webhooks/deliveries/list, and it is not retried — the answer is its only record.
// Nothing is written, so nothing is held open while the receiver answers (the operation is `x-writes-nothing`).
import { randomUUID } from "node:crypto";
import type { components } from "../../generated/types.js";
import type { Config } from "../config.js";
import type { Db } from "../db/connection.js";
import { notFound } from "../shared/errors.js";
import { EVENT_VERSION } from "../events/index.js";
import { sendAttempt } from "./send.js";
import { deliveryHeaders } from "./signing.js";
import { webhookNetwork } from "./url-guard.js";
import { liveSecrets } from "./subscriptions.js";

type PingResult = components["schemas"]["Webhooks.SubscriptionTestResult"];
type PingEvent = components["schemas"]["Webhooks.PingEvent"];

export async function pingSubscription(db: Db, config: Config, companyId: string, id: string): Promise<PingResult> {
  const sub = await db("webhook_subscriptions")
    .where({ company_id: companyId, id })
    .first("url", "secret_sealed", db.raw("case when previous_secret_expires_at > now() then previous_secret_sealed end as previous_secret_sealed"));
  if (!sub) throw notFound("The webhook subscription", "webhook_subscription.not_found", { id });
  const sentAt = new Date();
  const event: PingEvent = {
    id: randomUUID(),
    version: EVENT_VERSION,
    companyId,
    eventType: "ping",
    createdAt: sentAt.toISOString(),
    data: { subscriptionId: id, url: sub.url },
  };
  const base = { subscriptionId: id, eventId: event.id, url: sub.url as string, sentAt: event.createdAt };
  let secrets: string[];
  try {
    secrets = liveSecrets(config, companyId, id, sub.secret_sealed, sub.previous_secret_sealed);
  } catch {
    // Deliveries cannot be signed either: the answer says what to do instead of failing the request.
    return {
      ...base,
      ok: false,
      status: null,
      error: "the signing secret cannot be opened (SECRETS_KEY was replaced): rotate-secret gives a new one",
      durationMs: 0,
    };
  }
  const body = JSON.stringify(event);
  const started = performance.now();
  const result = await sendAttempt(
    sub.url,
    body,
    deliveryHeaders({ eventId: event.id, eventType: "ping", attempt: 1, timestamp: Math.floor(sentAt.getTime() / 1000), body, secrets }),
    {
      timeoutMs: config.webhookTimeoutMs,
      network: webhookNetwork(config),
    },
  );
  return { ...base, ok: result.ok, status: result.status, error: result.error, durationMs: Math.round(performance.now() - started) };
}
