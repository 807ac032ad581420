// Events are kept EVENT_RETENTION_DAYS (default 30) for events/list, events/get and redelivery, then pruned by the
// hourly prune_events task (src/jobs/prune-events.ts) — with their deliveries, which name them. An event that still
// has a delivery to make (pending, or held for a paused subscription) is kept however old it is, until that delivery
// ends. This runs across companies (a background job; README, "Several processes on one database"), in batches so
// that no statement holds many rows locked for long.
import type { Db } from "../db/connection.js";

/** Events a statement prunes at most. */
export const PRUNE_BATCH = 5000;

const PRUNE_SQL = `
  with old as (
    select e.company_id, e.id from webhook_events e
     where e.created_at < now() - make_interval(days => ?)
       and not exists (select 1 from webhook_deliveries d
                        where d.company_id = e.company_id and d.event_id = e.id and d.status in ('pending', 'held'))
     order by e.created_at
     limit ?
     for update of e skip locked
  ), deliveries as (
    delete from webhook_deliveries d using old
     where d.company_id = old.company_id and d.event_id = old.id
    returning 1
  ), events as (
    delete from webhook_events e using old
     where e.company_id = old.company_id and e.id = old.id
    returning 1
  )
  select (select count(*) from events)::int as events, (select count(*) from deliveries)::int as deliveries`;

/** Deletes the events older than `retentionDays` that have no delivery left to make, and their deliveries. */
export async function pruneEvents(db: Db, retentionDays: number, batch = PRUNE_BATCH): Promise<{ events: number; deliveries: number }> {
  const total = { events: 0, deliveries: 0 };
  for (;;) {
    const { rows } = await db.raw<{ rows: { events: number; deliveries: number }[] }>(PRUNE_SQL, [retentionDays, batch]);
    total.events += rows[0].events;
    total.deliveries += rows[0].deliveries;
    if (rows[0].events < batch) return total;
  }
}
