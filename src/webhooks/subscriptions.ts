// Webhook subscriptions (issue 9): where a company's events go. The signing secret is generated here, shown once
// (create, rotate-secret) and stored sealed (src/secrets.ts); after a rotation the previous secret keeps signing for
// 24 hours. Resuming a paused subscription delivers the events held meanwhile, oldest first.
import { randomBytes, randomUUID } from "node:crypto";
import type { components } from "../../generated/types.js";
import type { Config } from "../config.js";
import type { Db } from "../db/connection.js";
import type { AccountsRow, WebhookSubscriptionsRow } from "../db/rows.js";
import { ApiError, notFound, validationError } from "../shared/errors.js";
import { DELIVER_TASK } from "../events/index.js";
import { checkWebhookUrl, UrlRefused, webhookNetwork } from "./url-guard.js";
import { runList, type ListRequest, type ListSpec } from "../shared/list-engine.js";
import { requireSecretsKey, seal, unseal } from "../secrets.js";

type Subscription = components["schemas"]["Webhooks.Subscription"];
type CreateInput = components["schemas"]["Webhooks.SubscriptionCreateRequest"];
type UpdateInput = components["schemas"]["Webhooks.SubscriptionUpdateRequest"];

/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_OVERLAP_HOURS = 24;

/** The additional data a subscription's sealed secrets are bound to. */
export const secretContext = (companyId: string, subscriptionId: string) => `webhook-secret:${companyId}:${subscriptionId}`;

// Standard Webhooks' form (issue 28): `whsec_` and the standard base64 of 32 random bytes, so its libraries take the
// secret as given (they decode the standard alphabet only; secrets issued before were base64url).
/**
 * The secrets a delivery is signed with: the current one, and during a rotation's overlap the previous one
 * (`previousSealed` is null outside it). A previous secret that cannot be opened (sealed under a SECRETS_KEY since
 * replaced) is left out rather than holding the delivery up; a current one that cannot be opened throws.
 */
export function liveSecrets(config: Config, companyId: string, subscriptionId: string, currentSealed: Buffer, previousSealed: Buffer | null): string[] {
  const key = requireSecretsKey(config);
  const context = secretContext(companyId, subscriptionId);
  const secrets = [unseal(key, currentSealed, context)];
  if (previousSealed) {
    try {
      secrets.push(unseal(key, previousSealed, context));
    } catch {
      // signed with the current secret only
    }
  }
  return secrets;
}

const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

export function subscriptionToApi(row: WebhookSubscriptionsRow): Subscription {
  const overlap = row.previous_secret_expires_at && row.previous_secret_expires_at > new Date() ? row.previous_secret_expires_at.toISOString() : null;
  return {
    id: row.id,
    url: row.url,
    eventTypes: row.event_types as Subscription["eventTypes"], // text[] in the table; written only from a validated request
    description: row.description,
    ownerEmails: row.owner_emails,
    status: row.status,
    consecutiveFailures: row.consecutive_failures,
    pausedAt: row.paused_at ? row.paused_at.toISOString() : null,
    previousSecretExpiresAt: overlap,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

async function checkUrl(url: string, config: Config): Promise<void> {
  try {
    await checkWebhookUrl(url, webhookNetwork(config));
  } catch (error) {
    if (!(error instanceof UrlRefused)) throw error;
    throw new ApiError("unprocessable", `The URL ${error.message}.`, {
      key: "webhook.url_refused",
      params: { reason: error.message },
      fieldErrors: { url: [error.message] },
    });
  }
}

function checkEventTypes(eventTypes: string[]): void {
  if (eventTypes.includes("*") && eventTypes.length > 1) {
    throw validationError({ eventTypes: ['"*" stands for every event type: send it alone'] }, 'Name event types, or send ["*"] alone.');
  }
}

export async function createSubscription(trx: Db, config: Config, companyId: string, accountId: string, input: CreateInput) {
  checkEventTypes(input.eventTypes);
  await checkUrl(input.url, config);
  let owners = input.ownerEmails;
  if (!owners) {
    const account = await trx<AccountsRow>("accounts").where({ id: accountId }).first("owner_email");
    owners = account?.owner_email ? [account.owner_email] : [];
  }
  const id = randomUUID();
  const secret = newSecret();
  const [row] = await trx<WebhookSubscriptionsRow>("webhook_subscriptions")
    .insert({
      company_id: companyId,
      id,
      url: input.url,
      event_types: input.eventTypes,
      description: input.description ?? null,
      owner_emails: owners,
      secret_sealed: seal(requireSecretsKey(config), secret, secretContext(companyId, id)),
    })
    .returning("*");
  return { ...subscriptionToApi(row), secret };
}

async function find(db: Db, companyId: string, id: string, forUpdate = false): Promise<WebhookSubscriptionsRow> {
  const query = db<WebhookSubscriptionsRow>("webhook_subscriptions").where({ company_id: companyId, id }).first();
  const row = await (forUpdate ? query.forUpdate() : query);
  if (!row) throw notFound("The webhook subscription", "webhook_subscription.not_found", { id });
  return row;
}

export async function getSubscription(db: Db, companyId: string, id: string): Promise<Subscription> {
  return subscriptionToApi(await find(db, companyId, id));
}

/**
 * Resume: the held deliveries become pending and are queued oldest first (the subscription's queue runs them one at
 * a time in this order), each with a fresh retry schedule. Deliveries already pending are queued again too: an event
 * whose transaction read the subscription as active while a pause was committing (READ COMMITTED) was recorded
 * pending after the pause had held the others, and its job found the subscription paused and did nothing.
 * (graphile's job keys make a second job of a still-queued delivery replace the first.)
 */
async function releaseHeld(trx: Db, companyId: string, subscriptionId: string): Promise<void> {
  await trx.raw(
    `with released as (
       update webhook_deliveries set status = 'pending', next_attempt_at = now(), scheduled_attempts = 0
        where company_id = ? and subscription_id = ? and status = 'held'
       returning company_id, id, subscription_id, event_seq
     ), stranded as (
       select company_id, id, subscription_id, event_seq from webhook_deliveries
        where company_id = ? and subscription_id = ? and status = 'pending'
     ), queued as (
       select * from released union all select * from stranded
     )
     select graphile_worker.add_job(?, json_build_object('companyId', company_id, 'subscriptionId', subscription_id, 'deliveryId', id),
              queue_name := 'webhooks:' || subscription_id, job_key := 'whd:' || id, max_attempts := 25,
              run_at := now() + (row_number() over (order by event_seq)) * interval '1 microsecond')
       from queued order by event_seq`,
    [companyId, subscriptionId, companyId, subscriptionId, DELIVER_TASK],
  );
}

export async function updateSubscription(trx: Db, config: Config, companyId: string, input: UpdateInput): Promise<Subscription> {
  const current = await find(trx, companyId, input.id, true);
  if (input.eventTypes) checkEventTypes(input.eventTypes);
  if (input.url !== undefined && input.url !== current.url) await checkUrl(input.url, config);
  const patch: Record<string, unknown> = {};
  if (input.url !== undefined) patch.url = input.url;
  if (input.eventTypes !== undefined) patch.event_types = input.eventTypes;
  if (input.description !== undefined) patch.description = input.description;
  if (input.ownerEmails !== undefined) patch.owner_emails = input.ownerEmails;
  if (input.status === "active" && current.status === "paused") Object.assign(patch, { status: "active", paused_at: null, consecutive_failures: 0 });
  if (input.status === "paused" && current.status === "active") Object.assign(patch, { status: "paused", paused_at: trx.fn.now() });
  if (Object.keys(patch).length === 0) return subscriptionToApi(current);
  const [row] = await trx<WebhookSubscriptionsRow>("webhook_subscriptions")
    .where({ company_id: companyId, id: input.id })
    .update({ ...patch, updated_at: trx.fn.now() })
    .returning("*");
  if (patch.status === "active") await releaseHeld(trx, companyId, input.id);
  if (patch.status === "paused") await holdPending(trx, companyId, input.id);
  return subscriptionToApi(row);
}

/** Pausing: nothing more is attempted; pending deliveries wait, held, for a resume. */
export async function holdPending(trx: Db, companyId: string, subscriptionId: string): Promise<void> {
  await trx("webhook_deliveries")
    .where({ company_id: companyId, subscription_id: subscriptionId, status: "pending" })
    .update({ status: "held", next_attempt_at: null });
}

export async function deleteSubscription(trx: Db, companyId: string, id: string): Promise<Subscription> {
  const current = await find(trx, companyId, id, true);
  await trx("webhook_subscriptions").where({ company_id: companyId, id }).delete();
  return subscriptionToApi(current);
}

export async function rotateSecret(trx: Db, config: Config, companyId: string, id: string) {
  const current = await find(trx, companyId, id, true);
  const key = requireSecretsKey(config);
  const secret = newSecret();
  const [row] = await trx<WebhookSubscriptionsRow>("webhook_subscriptions")
    .where({ company_id: companyId, id })
    .update({
      secret_sealed: seal(key, secret, secretContext(companyId, id)),
      previous_secret_sealed: current.secret_sealed,
      previous_secret_expires_at: trx.raw(`now() + interval '${ROTATION_OVERLAP_HOURS} hours'`),
      updated_at: trx.fn.now(),
    })
    .returning("*");
  return { ...subscriptionToApi(row), secret };
}

const listSpec: ListSpec = {
  fields: {
    id: { column: "id", type: "uuid", sort: false },
    url: { column: "url", type: "string" },
    status: { column: "status", type: "string" },
    createdAt: { column: "created_at", type: "timestamp" },
    updatedAt: { column: "updated_at", type: "timestamp" },
  },
  tieBreaker: "id",
  defaultSort: [{ field: "createdAt", dir: "asc" }],
};

export async function listSubscriptions(db: Db, companyId: string, request: ListRequest) {
  const result = await runList<WebhookSubscriptionsRow>(db, () => db("webhook_subscriptions").where("company_id", companyId), listSpec, request, ["*"]);
  return { ...result, rows: result.rows.map(subscriptionToApi) };
}
