// The envelope of an event (spec/webhooks.tsp, EventEnvelopeFields): the body of every delivery and ping, and a row of
// events/list and events/get, from a webhook_events row. One shape, in the spec's field order, so the bytes a
// receiver got and what the events API answers are the same JSON.
import type { components } from "../../generated/types.js";

type Event = components["schemas"]["Webhooks.Event"];

/** The columns of webhook_events an envelope is made of. */
export const ENVELOPE_COLUMNS = ["company_id", "id", "version", "event_type", "created_at", "data"] as const;

export interface EventRow {
  company_id: string;
  id: string;
  version: string;
  event_type: string;
  created_at: Date | string;
  data: unknown;
}

export function eventEnvelope(row: EventRow): Event {
  return {
    id: row.id,
    version: row.version,
    companyId: row.company_id,
    eventType: row.event_type,
    createdAt: new Date(row.created_at).toISOString(),
    data: row.data,
  } as Event;
}
