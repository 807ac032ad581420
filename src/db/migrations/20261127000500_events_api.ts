import type { Knex } from "knex";
import { define } from "../definitions.js";

// The events API (issue 28, item 1): events/list reads webhook_events per company, newest first, and filters on the
// object an event is about; prune_events deletes events past EVENT_RETENTION_DAYS with their deliveries.
//   webhook_event_object_id(data)  the object an event is about: `data.id`, or the id `data` names when it is not
//                                  the object itself (`reversedId`, `saleInvoiceId`, `purchaseInvoiceId`); null for
//                                  events about no one object (a period, a rates import, a depreciation run, an
//                                  import). Immutable, so it can be indexed.
//   webhook_events_list_idx        the list's default order (createdAt desc, then emission order) per company
//   webhook_events_object_idx      objectId filters
//   webhook_events_created_idx     the pruning's scan by age, across companies
//   webhook_deliveries_event_idx   an event's deliveries (the pruning deletes them; the foreign key is checked)
export async function up(knex: Knex): Promise<void> {
  // The current text of the functions its triggers execute (src/db/functions; issue 23).
  await define(knex, "webhook_event_object_id");
  await knex.raw(`
    create index webhook_events_list_idx on webhook_events (company_id, created_at desc, seq);
    create index webhook_events_object_idx on webhook_events (company_id, webhook_event_object_id(data));
    create index webhook_events_created_idx on webhook_events (created_at);
    create index webhook_deliveries_event_idx on webhook_deliveries (company_id, event_id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop index webhook_deliveries_event_idx;
    drop index webhook_events_created_idx;
    drop index webhook_events_object_idx;
    drop index webhook_events_list_idx;
    drop function webhook_event_object_id(jsonb);
  `);
}
