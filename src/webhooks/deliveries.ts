// Webhook deliveries as the API shows them: the list, and redeliver (one event to one subscription, now, outside the
// schedule). The sending itself is the worker's (src/jobs/deliver-webhook.ts).
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import type { WebhookDeliveriesRow } from "../db/rows.js";
import { notFound } from "../shared/errors.js";
import { DELIVER_TASK, queueOf } from "../events/index.js";
import { runList, type ListRequest, type ListSpec } from "../shared/list-engine.js";

type Delivery = components["schemas"]["Webhooks.Delivery"];

const iso = (v: Date | null) => (v ? v.toISOString() : null);

export function deliveryToApi(row: WebhookDeliveriesRow): Delivery {
  return {
    id: row.id,
    eventId: row.event_id,
    eventType: row.event_type as Delivery["eventType"], // text in the table; written only by emitEvent
    subscriptionId: row.subscription_id,
    status: row.status,
    attempts: row.attempts,
    lastResponseStatus: row.last_response_status,
    lastError: row.last_error,
    lastAttemptAt: iso(row.last_attempt_at),
    nextAttemptAt: row.status === "pending" ? iso(row.next_attempt_at) : null,
    deliveredAt: iso(row.delivered_at),
    createdAt: row.created_at.toISOString(),
  };
}

const listSpec: ListSpec = {
  fields: {
    id: { column: "id", type: "uuid", sort: false },
    eventId: { column: "event_id", type: "uuid", sort: false },
    subscriptionId: { column: "subscription_id", type: "uuid", sort: false },
    eventType: { column: "event_type", type: "string" },
    status: { column: "status", type: "string" },
    attempts: { column: "attempts", type: "integer" },
    lastResponseStatus: { column: "last_response_status", type: "integer" },
    createdAt: { column: "created_at", type: "timestamp" },
    lastAttemptAt: { column: "last_attempt_at", type: "timestamp" },
    nextAttemptAt: { column: "next_attempt_at", type: "timestamp" },
  },
  tieBreaker: "id",
  defaultSort: [{ field: "createdAt", dir: "desc" }],
};

export async function listDeliveries(db: Db, companyId: string, request: ListRequest) {
  const result = await runList<WebhookDeliveriesRow>(db, () => db("webhook_deliveries").where("company_id", companyId), listSpec, request, ["*"]);
  return { ...result, rows: result.rows.map(deliveryToApi) };
}

/** Queues one attempt of the delivery now, in its subscription's queue, whatever its state and schedule. */
export async function redeliver(trx: Db, companyId: string, input: { eventId: string; subscriptionId: string }): Promise<Delivery> {
  const row = await trx<WebhookDeliveriesRow>("webhook_deliveries")
    .where({ company_id: companyId, subscription_id: input.subscriptionId, event_id: input.eventId })
    .first();
  if (!row) throw notFound("The delivery of this event to this subscription", "webhook_delivery.not_found", input);
  await trx.raw(
    `select graphile_worker.add_job(?, json_build_object('companyId', ?::uuid, 'subscriptionId', ?::uuid, 'deliveryId', ?::uuid, 'manual', true),
       queue_name := ?, job_key := ?, max_attempts := 25)`,
    [DELIVER_TASK, companyId, row.subscription_id, row.id, queueOf(row.subscription_id), `whr:${row.id}`],
  );
  return deliveryToApi(row);
}
