// The events API (issue 28, item 1): the outbox read back, so a receiver that was down can catch up on what it
// missed — events/list (shared list engine, newest first) and events/get, per company, for as long as events are
// kept (EVENT_RETENTION_DAYS, src/events/retention.ts). Each row is the envelope a delivery carries.
import type { Db } from "../db/connection.js";
import { notFound } from "../shared/errors.js";
import { runList, type ListRequest, type ListSpec } from "../shared/list-engine.js";
import { ENVELOPE_COLUMNS, eventEnvelope, type EventRow } from "./envelope.js";

const listSpec: ListSpec = {
  fields: {
    id: { column: "id", type: "uuid", sort: false },
    eventType: { column: "event_type", type: "string" },
    createdAt: { column: "created_at", type: "timestamp" },
    // The object the event is about: `data.id`, or the id `data` names when it is not the object itself
    // (migration 20261127000500, webhook_event_object_id; indexed per company).
    objectId: { column: "webhook_event_object_id(data)", type: "uuid", sort: false },
  },
  // Events of one transaction share createdAt: they follow in the order they were written.
  tieBreaker: "seq",
  defaultSort: [{ field: "createdAt", dir: "desc" }],
};

export async function listEvents(db: Db, companyId: string, request: ListRequest) {
  const result = await runList<EventRow>(db, () => db("webhook_events").where("company_id", companyId), listSpec, request, [...ENVELOPE_COLUMNS]);
  return { ...result, rows: result.rows.map(eventEnvelope) };
}

export async function getEvent(db: Db, companyId: string, id: string) {
  const row = await db("webhook_events")
    .where({ company_id: companyId, id })
    .first<EventRow | undefined>(...ENVELOPE_COLUMNS);
  if (!row) throw notFound("The event", "event.not_found", { id });
  return eventEnvelope(row);
}
