// deliver_webhook: sends a subscription's due deliveries, oldest event first (issue 9). Jobs are added by emitEvent
// (src/events/emit.ts, one per delivery), by the retry schedule below, by a resume and by redeliver; each
// subscription's jobs share a graphile-worker named queue, so one subscription is served by one job at a time while
// other subscriptions' queues run alongside (a slow receiver holds up only itself). A job drains: after its own
// delivery it takes the subscription's next due one, in emission order, for up to DRAIN_BUDGET_MS — the jobs of the
// deliveries it sent then find nothing to do. (graphile-worker only wakes a named queue's next job on a new job or a
// poll, so one job per delivery would move a busy subscription at the pace of those wake-ups.)
//
// For each delivery:
//   1. claim    one statement: the next due pending delivery is counted and leased to this job (lease_job_id,
//               lease_until), but only while nobody else holds a live lease — several workers never send the same
//               attempt at once. The same job run again after its worker died (src/worker-recovery.ts) takes over
//               its own lease; a delivery leased by a dead job is picked up once the lease ends.
//   2. send     POST, signed (src/webhooks/signing.ts), 10 s timeout, SSRF-checked as it connects.
//   3. record   one transaction: succeeded; or the next attempt scheduled (WEBHOOK_RETRY_SCHEDULE); or failed —
//               the schedule ended or the receiver said 410 Gone — and the subscription's count of undelivered
//               events in a row goes up; at 5 it is paused, its pending deliveries are held, and its owners are
//               e-mailed (once, queued in the same transaction).
// A crash or a database outage between 1 and 3 leaves the job to run again (graphile-worker retries a job that
// throws; the sweeper frees a dead worker's job): the event is sent again — at least once, never lost.
import type { Task } from "graphile-worker";
import type { Config } from "../config.js";
import type { Db } from "../db/connection.js";
import { preparedQuery } from "../db/prepared.js";
import { withTransaction } from "../db/transaction.js";
import { holdPending, liveSecrets } from "../webhooks/subscriptions.js";
import { DELIVER_TASK, queueOf } from "../events/emit.js";
import { eventEnvelope } from "../events/envelope.js";
import { sendAttempt, type AttemptResult } from "../webhooks/send.js";
import { deliveryHeaders } from "../webhooks/signing.js";
import { webhookNetwork } from "../webhooks/url-guard.js";
import { queueMail } from "../mail.js";
import type { JobDeps } from "./deps.js";

/** Undelivered events in a row that pause a subscription (spec: "Limits"). */
export const PAUSE_AFTER = 5;

/** How long one job keeps draining its subscription before it hands over to a new job (fair use of worker slots). */
const DRAIN_BUDGET_MS = 2000;

export interface DeliverPayload {
  companyId: string;
  subscriptionId: string;
  /** The delivery the job was added for (absent on a continuation). */
  deliveryId?: string;
  /** redeliver: one attempt of `deliveryId` now, outside the schedule, whatever the delivery's state. */
  manual?: boolean;
}

function parsePayload(payload: unknown): DeliverPayload {
  const p = payload as Partial<DeliverPayload> | null;
  if (!p || typeof p.companyId !== "string" || typeof p.subscriptionId !== "string") throw new Error(`${DELIVER_TASK} needs {companyId, subscriptionId}`);
  if (p.manual && typeof p.deliveryId !== "string") throw new Error(`${DELIVER_TASK}: a manual attempt needs its deliveryId`);
  return { companyId: p.companyId, subscriptionId: p.subscriptionId, deliveryId: p.deliveryId, manual: p.manual === true };
}

/** Which delivery an attempt is for, and whether it is a redelivery outside the schedule. */
interface Target {
  companyId: string;
  deliveryId: string;
  manual: boolean;
}

interface Claimed {
  id: string;
  subscription_id: string;
  attempts: number;
  scheduled_attempts: number;
  url: string;
  secret_sealed: Buffer;
  previous_secret_sealed: Buffer | null;
  event_id: string;
  event_type: string;
  version: string;
  created_at: Date;
  data: unknown;
}

// The lease outlives the attempt's timeout by a margin, so only a dead worker's lease ever expires.
const CLAIMED_COLUMNS = `d.id, d.subscription_id, d.attempts, d.scheduled_attempts, s.url, s.secret_sealed,
  case when s.previous_secret_expires_at > now() then s.previous_secret_sealed end as previous_secret_sealed,
  e.id as event_id, e.event_type, e.version, e.created_at, e.data`;

/** The subscription's next due delivery, oldest event first, while the subscription is active. */
const CLAIM_NEXT_SQL = `
  update webhook_deliveries d
     set attempts = d.attempts + 1, scheduled_attempts = d.scheduled_attempts + 1,
         lease_job_id = $3, lease_until = now() + make_interval(secs => $4)
    from webhook_subscriptions s, webhook_events e
   where d.company_id = $1
     and d.id = (select n.id from webhook_deliveries n
                  where n.company_id = $1 and n.subscription_id = $2 and n.status = 'pending' and n.next_attempt_at <= now()
                    and (n.lease_until is null or n.lease_until < now() or n.lease_job_id = $3)
                  order by n.event_seq limit 1
                  for update skip locked)
     and s.company_id = d.company_id and s.id = d.subscription_id and s.status = 'active'
     and e.company_id = d.company_id and e.id = d.event_id
  returning ${CLAIMED_COLUMNS}`;

/** A redelivery: this delivery, now, whatever its state — unless another job is sending it at this moment. */
const CLAIM_MANUAL_SQL = `
  update webhook_deliveries d
     set attempts = d.attempts + 1, lease_job_id = $3, lease_until = now() + make_interval(secs => $4)
    from webhook_subscriptions s, webhook_events e
   where d.company_id = $1 and d.id = $2
     and s.company_id = d.company_id and s.id = d.subscription_id
     and e.company_id = d.company_id and e.id = d.event_id
     and (d.lease_until is null or d.lease_until < now() or d.lease_job_id = $3)
  returning ${CLAIMED_COLUMNS}`;

/** The envelope (src/events/envelope.ts). The same bytes are signed and sent. */
export function envelopeBody(companyId: string, c: Pick<Claimed, "event_id" | "version" | "event_type" | "created_at" | "data">): string {
  return JSON.stringify(
    eventEnvelope({ company_id: companyId, id: c.event_id, version: c.version, event_type: c.event_type, created_at: c.created_at, data: c.data }),
  );
}

export const deliverWebhookTask =
  (deps: JobDeps): Task =>
  async (payload, helpers) => {
    const p = parsePayload(payload);
    const { db, config } = deps;
    const jobId = String(helpers.job.id);
    const lease = config.webhookTimeoutMs / 1000 + 30;
    if (p.manual) {
      const [claimed] = await preparedQuery<Claimed & Record<string, unknown>>(db, "webhook_claim_manual", CLAIM_MANUAL_SQL, [
        p.companyId,
        p.deliveryId,
        jobId,
        lease,
      ]);
      if (claimed) await attempt(db, config, { companyId: p.companyId, deliveryId: claimed.id, manual: true }, claimed, jobId, undefined);
      else await wakeWhenLeaseEnds(db, p, jobId);
    }
    const until = Date.now() + DRAIN_BUDGET_MS;
    let next: Claimed | undefined;
    for (;;) {
      if (!next && Date.now() >= until) {
        // Hand over: a new job of the same queue carries on.
        await db.raw("select graphile_worker.add_job(?, ?::json, queue_name := ?, job_key := ?, max_attempts := 25)", [
          DELIVER_TASK,
          JSON.stringify({ companyId: p.companyId, subscriptionId: p.subscriptionId }),
          queueOf(p.subscriptionId),
          `whc:${p.subscriptionId}`,
        ]);
        return;
      }
      // After a success the next delivery came with the success's own statement; otherwise it is claimed here.
      const claimed =
        next ??
        (await preparedQuery<Claimed & Record<string, unknown>>(db, "webhook_claim_next", CLAIM_NEXT_SQL, [p.companyId, p.subscriptionId, jobId, lease]))[0];
      if (!claimed) break;
      next = await attempt(
        db,
        config,
        { companyId: p.companyId, deliveryId: claimed.id, manual: false },
        claimed,
        jobId,
        Date.now() < until ? { subscriptionId: p.subscriptionId, lease } : undefined,
      );
    }
    await wakeWhenLeaseEnds(db, p, jobId);
  };

// A scheduled attempt's success, the common case, in one statement (no transaction round trips): the delivery
// succeeded, the subscription's count of failures reset, and the delivery's waiting job — which would find nothing to
// do — removed. Only an unlocked job goes: the job running this attempt is locked. That holds also when the attempt is
// the running job's own delivery: a retry scheduled from within the running job (a failed attempt earlier in its
// drain) is a second, unlocked job under the same key (graphile moves the key off a locked job), and it goes too.
const SUCCEEDED = `
  with d as (
    update webhook_deliveries
       set status = 'succeeded', delivered_at = now(), next_attempt_at = null, last_attempt_at = now(),
           last_response_status = $4, last_error = null, lease_job_id = null, lease_until = null
     where company_id = $1 and id = $2 and (lease_job_id = $3 or lease_job_id is null)
    returning subscription_id, id
  ), reset as (
    update webhook_subscriptions s set consecutive_failures = 0
      from d where s.company_id = $1 and s.id = d.subscription_id and s.consecutive_failures > 0
    returning 1
  ), removed as (
    -- graphile_worker.remove_job would also NOTIFY, waking a worker for nothing on every delivery; the job row is
    -- deleted directly (graphile-worker 0.18's table, pinned in package.json), only while nobody has it locked.
    delete from graphile_worker._private_jobs j where j.key = 'whd:' || (select d.id from d) and j.locked_at is null
    returning 1
  )`;
const SUCCEEDED_SQL = `${SUCCEEDED}
  select (select count(*) from d)::int as updated, (select count(*) from reset)::int as reset, (select count(*) from removed)::int as removed`;

/**
 * The same, and in the same round trip the claim of the subscription's next due delivery (CLAIM_NEXT_SQL, less the
 * one just recorded, which this statement's snapshot still sees as pending). One row; its id is null when none is due.
 */
const SUCCEEDED_AND_NEXT_SQL = `${SUCCEEDED}, nxt as (
    update webhook_deliveries d
       set attempts = d.attempts + 1, scheduled_attempts = d.scheduled_attempts + 1,
           lease_job_id = $3, lease_until = now() + make_interval(secs => $6)
      from webhook_subscriptions s, webhook_events e
     where d.company_id = $1
       and d.id = (select n.id from webhook_deliveries n
                    where n.company_id = $1 and n.subscription_id = $5 and n.status = 'pending' and n.next_attempt_at <= now()
                      and n.id <> $2
                      and (n.lease_until is null or n.lease_until < now() or n.lease_job_id = $3)
                    order by n.event_seq limit 1
                    for update skip locked)
       and s.company_id = d.company_id and s.id = d.subscription_id and s.status = 'active'
       and e.company_id = d.company_id and e.id = d.event_id
    returning ${CLAIMED_COLUMNS}
  )
  -- r.done is selected so that the planner keeps (and PostgreSQL runs) the removed and reset CTEs.
  select nxt.*, r.done from (select (select count(*) from removed) + (select count(*) from reset) as done) r left join nxt on true`;

/** One attempt. When `thenClaim` is given and the attempt succeeded, resolves to the next due delivery, claimed. */
async function attempt(
  db: Db,
  config: Config,
  target: Target,
  claimed: Claimed,
  jobId: string,
  thenClaim: { subscriptionId: string; lease: number } | undefined,
): Promise<Claimed | undefined> {
  const secrets = liveSecrets(config, target.companyId, claimed.subscription_id, claimed.secret_sealed, claimed.previous_secret_sealed);
  const body = envelopeBody(target.companyId, claimed);
  const timestamp = Math.floor(Date.now() / 1000);
  const result = await sendAttempt(
    claimed.url,
    body,
    deliveryHeaders({ eventId: claimed.event_id, eventType: claimed.event_type, attempt: claimed.attempts, timestamp, body, secrets }),
    { timeoutMs: config.webhookTimeoutMs, network: webhookNetwork(config) },
  );
  if (result.ok && !target.manual) {
    if (!thenClaim) {
      await preparedQuery(db, "webhook_succeeded", SUCCEEDED_SQL, [target.companyId, target.deliveryId, jobId, result.status]);
      return undefined;
    }
    const [row] = await preparedQuery<Claimed & Record<string, unknown>>(db, "webhook_succeeded_next", SUCCEEDED_AND_NEXT_SQL, [
      target.companyId,
      target.deliveryId,
      jobId,
      result.status,
      thenClaim.subscriptionId,
      thenClaim.lease,
    ]);
    return row?.id ? row : undefined;
  }
  await withTransaction(db, (trx) => record(trx, config, target, claimed, result, jobId));
  return undefined;
}

/**
 * A due delivery another job holds a live lease on (a worker that died mid-attempt) is skipped by the drain; a job
 * comes back for the subscription when that lease ends.
 */
async function wakeWhenLeaseEnds(db: Db, p: DeliverPayload, jobId: string): Promise<void> {
  await db.raw(
    `select graphile_worker.add_job(?, ?::json, queue_name := ?, run_at := l.until, job_key := ?, max_attempts := 25)
       from (select min(lease_until) as until from webhook_deliveries
              where company_id = ? and subscription_id = ? and status = 'pending' and lease_until > now() and lease_job_id <> ?) l
      where l.until is not null`,
    [
      DELIVER_TASK,
      JSON.stringify({ companyId: p.companyId, subscriptionId: p.subscriptionId }),
      queueOf(p.subscriptionId),
      `whl:${p.subscriptionId}`,
      p.companyId,
      p.subscriptionId,
      jobId,
    ],
  );
}

async function record(trx: Db, config: Config, p: Target, c: Claimed, result: AttemptResult, jobId: string): Promise<void> {
  const where = { company_id: p.companyId, id: p.deliveryId };
  const last = {
    last_attempt_at: trx.fn.now(),
    last_response_status: result.status,
    last_error: result.error,
    lease_job_id: null,
    lease_until: null,
  };
  // Another job took over meanwhile (our lease had expired): its outcome counts, not ours.
  const mine = trx("webhook_deliveries")
    .where(where)
    .andWhere((q) => q.where("lease_job_id", jobId).orWhereNull("lease_job_id"));
  if (result.ok) {
    const updated = await mine.clone().update({ ...last, status: "succeeded", delivered_at: trx.fn.now(), next_attempt_at: null });
    if (updated) {
      await trx("webhook_subscriptions")
        .where({ company_id: p.companyId, id: c.subscription_id })
        .where("consecutive_failures", ">", 0)
        .update({ consecutive_failures: 0 });
    }
    return;
  }
  if (p.manual) {
    await mine.clone().update(last);
    return;
  }
  const schedule = config.webhookRetrySchedule;
  const gone = result.status === 410;
  if (!gone && c.scheduled_attempts < schedule.length) {
    const delayMs = schedule[c.scheduled_attempts];
    const [row] = await mine
      .clone()
      .where({ status: "pending" })
      .update({ ...last, next_attempt_at: trx.raw("now() + make_interval(secs => ?)", [delayMs / 1000]) })
      .returning("next_attempt_at");
    if (row) {
      await trx.raw("select graphile_worker.add_job(?, ?::json, queue_name := ?, run_at := ?, job_key := ?, max_attempts := 25)", [
        DELIVER_TASK,
        JSON.stringify({ companyId: p.companyId, subscriptionId: c.subscription_id, deliveryId: p.deliveryId }),
        queueOf(c.subscription_id),
        row.next_attempt_at,
        `whd:${p.deliveryId}`,
      ]);
    }
    return;
  }
  // The schedule ended (or 410 Gone): the event could not be delivered.
  const failed = await mine
    .clone()
    .where({ status: "pending" })
    .update({ ...last, status: "failed", next_attempt_at: null });
  if (!failed) return;
  const [sub] = await trx("webhook_subscriptions")
    .where({ company_id: p.companyId, id: c.subscription_id })
    .increment("consecutive_failures", 1)
    .returning(["consecutive_failures", "status"]);
  if (sub?.status !== "active" || sub.consecutive_failures < PAUSE_AFTER) return;
  await pause(trx, p.companyId, c.subscription_id);
}

/** 5 undelivered in a row: paused, pending deliveries held, the owners e-mailed once (after commit, by the worker). */
async function pause(trx: Db, companyId: string, subscriptionId: string): Promise<void> {
  const [sub] = await trx("webhook_subscriptions")
    .where({ company_id: companyId, id: subscriptionId, status: "active" })
    .update({ status: "paused", paused_at: trx.fn.now(), updated_at: trx.fn.now() })
    .returning(["id", "url", "owner_emails", "consecutive_failures", "paused_at"]);
  if (!sub) return;
  await holdPending(trx, companyId, subscriptionId);
  const company = await trx("companies").where({ id: companyId }).first("name");
  const failures = await trx("webhook_deliveries")
    .where({ company_id: companyId, subscription_id: subscriptionId, status: "failed" })
    .orderBy("last_attempt_at", "desc")
    .limit(PAUSE_AFTER)
    .select("event_id", "event_type", "attempts", "last_response_status", "last_error", "last_attempt_at");
  const lines = failures.map(
    (f) =>
      `  - event ${f.event_id} (${f.event_type}): ${f.attempts} attempts, last ${f.last_response_status !== null ? `HTTP ${f.last_response_status}` : (f.last_error ?? "no answer")} at ${new Date(f.last_attempt_at).toISOString()}`,
  );
  await queueMail(trx, {
    to: sub.owner_emails,
    subject: `Webhook subscription paused: ${sub.url}`,
    text: [
      `The webhook subscription ${sub.id} of ${company?.name ?? companyId} (company ${companyId}) was paused at ${new Date(sub.paused_at).toISOString()}:`,
      `${sub.consecutive_failures} events in a row could not be delivered to ${sub.url}.`,
      "",
      "The last failed deliveries:",
      ...lines,
      "",
      "Nothing more is sent to it; new events are held. Once the receiver works again, resume it with",
      `webhooks/subscriptions/update {"id": "${sub.id}", "status": "active"}: the held events are then delivered in order.`,
      "Failed deliveries can be sent again with webhooks/deliveries/redeliver.",
    ].join("\n"),
  });
}
