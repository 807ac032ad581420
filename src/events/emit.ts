// The transactional outbox (issue 9): every event of the product is written here, by emitEvent, inside the
// transaction of the change that causes it — so an event exists if and only if its change committed, and nothing
// is sent from a request handler. The same statement records one delivery per matching subscription (`held` when
// the subscription is paused) and adds the worker job of each pending one on the same connection (STYLE.md,
// practice 7); the worker sends them after commit (src/jobs/deliver-webhook.ts).
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import { preparedQuery } from "../db/prepared.js";

type AnyEvent = components["schemas"]["Webhooks.Event"];
export type EventType = AnyEvent["eventType"];
export type EventData<T extends EventType> = Extract<AnyEvent, { eventType: T }>["data"];

/** The version every envelope carries (spec/webhooks.tsp, EventVersion). */
export const EVENT_VERSION = "2026-11-23";

/** The graphile-worker task that sends one delivery, and the queue that keeps one subscription's deliveries in order. */
export const DELIVER_TASK = "deliver_webhook";
export const queueOf = (subscriptionId: string) => `webhooks:${subscriptionId}`;

// Deliveries of one subscription run one at a time, in emission order: they share a graphile-worker named queue.
// Other subscriptions' queues run meanwhile, so a slow receiver holds up only itself.
const FAN_OUT = `
  dl as (
    insert into webhook_deliveries (company_id, subscription_id, event_id, event_seq, event_type, status, next_attempt_at)
    select s.company_id, s.id, ev.id, ev.seq, ev.event_type,
           case when s.status = 'active' then 'pending' else 'held' end,
           case when s.status = 'active' then now() end
      from ev join webhook_subscriptions s on s.company_id = ev.company_id
     where s.event_types @> array[ev.event_type] or s.event_types @> array['*']
    returning company_id, id, subscription_id, status, event_seq
  ),
  -- All of an event's jobs in one add_jobs call: one NOTIFY per event, not one per subscription (notifying commits
  -- take a lock in turn, and every notification wakes a worker).
  jobs as (
    select j.id
      from (select array_agg(row('${DELIVER_TASK}', json_build_object('companyId', company_id, 'subscriptionId', subscription_id, 'deliveryId', id),
                                 'webhooks:' || subscription_id, null::timestamptz, 25::smallint, 'whd:' || id, null::smallint, null::text[])::graphile_worker.job_spec order by event_seq, id) as specs
              from dl where status = 'pending') s,
           lateral graphile_worker.add_jobs(s.specs) j
     where s.specs is not null
  )`;

/**
 * The one writer of the outbox, as SQL: the common table expressions `ev` (the events), `dl` (one delivery per
 * matching subscription) and `jobs` (the worker job of each pending delivery), to follow `with` in a statement.
 * `events` is a query of the events to write, with columns `company_id uuid`, `event_type text`, `data jsonb` and
 * `ord` (their emission order: `seq` and the jobs of one subscription's queue follow it); `version` is the SQL of
 * the envelope's version (a parameter bound to EVENT_VERSION). emitEvent and emitEventToSubscribedCompanies build
 * their statements with it, and so does a statement that writes its events among other changes (the issue of a
 * sales document, src/sales/numbering.ts), so every event, delivery and job has one shape and one origin.
 *
 * The statement must read `jobs` in its final query (select OUTBOX_JOBS): `jobs` is a plain query calling
 * graphile_worker.add_jobs, and PostgreSQL evaluates such a common table expression only when it is read (unlike
 * the inserts of `ev` and `dl`, which always run) — unread, the deliveries would be written without their jobs.
 */
export function outboxCtes(events: string, version: string): string {
  return `ev as (
    insert into webhook_events (company_id, event_type, version, data)
    select e.company_id, e.event_type, ${version}, e.data from (${events}) e order by e.ord
    returning company_id, id, seq, event_type
  ), ${FAN_OUT}`;
}

/** What a statement built with outboxCtes selects so that its jobs are added: the number of jobs. */
export const OUTBOX_JOBS = "(select count(*) from jobs)::int";

/** An event as a statement plans to write it: its type and the data that type carries. */
export type PlannedEvent = { [T in EventType]: { type: T; data: EventData<T> } }[EventType];

const EMIT_SQL = `
  with ${outboxCtes("select $1::uuid as company_id, $2::text as event_type, $4::jsonb as data, 1 as ord", "$3::text")}
  select (select id from ev) as id, ${OUTBOX_JOBS} as jobs`;

/**
 * Writes one event of `companyId` into the outbox inside `trx`, with its deliveries; returns the event's id.
 * Call it in the transaction of the change, after the change (a failed statement afterwards rolls both back).
 */
export async function emitEvent<T extends EventType>(trx: Db, companyId: string, eventType: T, data: EventData<T>): Promise<string> {
  const [row] = await preparedQuery<{ id: string }>(trx, "emit_event", EMIT_SQL, [companyId, eventType, EVENT_VERSION, JSON.stringify(data)]);
  return row.id;
}

const EMIT_TO_SUBSCRIBERS_SQL = `
  with ${outboxCtes(
    `select distinct s.company_id, $1::text as event_type, $3::jsonb as data, 1 as ord
       from webhook_subscriptions s
      where s.event_types @> array[$1::text] or s.event_types @> array['*']`,
    "$2::text",
  )}
  select (select count(*) from ev)::int as events, ${OUTBOX_JOBS} as jobs`;

/**
 * For events that belong to no one company (`exchange_rates.synced`: the ECB rates are shared): one event for each
 * company that has a subscription to this type, inside `trx`. Returns how many events were written.
 */
export async function emitEventToSubscribedCompanies<T extends EventType>(trx: Db, eventType: T, data: EventData<T>): Promise<number> {
  const [row] = await preparedQuery<{ events: number }>(trx, "emit_event_to_subscribers", EMIT_TO_SUBSCRIBERS_SQL, [
    eventType,
    EVENT_VERSION,
    JSON.stringify(data),
  ]);
  return row.events;
}
