import type { TaskList } from "graphile-worker";
import { backfillExchangeRatesTask } from "./backfill-exchange-rates.js";
import { deliverWebhookTask } from "./deliver-webhook.js";
import { generateSaftTask } from "./generate-saft.js";
import { sendEmailTask } from "./send-email.js";
import { sendSaleInvoiceTask } from "./send-sale-invoice.js";
import type { JobDeps } from "./deps.js";
import { pruneEventsTask } from "./prune-events.js";
import { pruneIdempotencyKeys } from "./prune-idempotency-keys.js";
import { pruneRateLimitCounters } from "./prune-rate-limit-counters.js";
import { pruneSaftFilesTask } from "./prune-saft-files.js";
import { syncExchangeRatesTask } from "./sync-exchange-rates.js";

// Every graphile-worker task, one file each, and the schedule of the recurring ones.
export function createTaskList(deps: JobDeps): TaskList {
  return {
    prune_idempotency_keys: pruneIdempotencyKeys,
    prune_rate_limit_counters: pruneRateLimitCounters,
    prune_events: pruneEventsTask(deps),
    sync_exchange_rates: syncExchangeRatesTask(deps),
    backfill_exchange_rates: backfillExchangeRatesTask(deps),
    send_email: sendEmailTask(deps),
    send_sale_invoice: sendSaleInvoiceTask(deps),
    saft_generate: generateSaftTask(deps),
    prune_saft_files: pruneSaftFilesTask(deps),
  };
}

// Webhook deliveries run in a runner of their own (src/worker.ts) with WEBHOOK_CONCURRENCY slots: they wait on
// receivers (up to 10 s each), and must neither wait behind the other tasks nor hold them up.
export function createWebhookTaskList(deps: JobDeps): TaskList {
  return { deliver_webhook: deliverWebhookTask(deps) };
}

// Times are UTC. The ECB publishes at about 16:00 CET (15:00 UTC in winter, 14:00 in summer): sync at 15:30
// and again at 17:30 in case publication was late, Monday to Friday.
export const crontab = [
  "17 * * * * prune_idempotency_keys ?max=1",
  "*/5 * * * * prune_rate_limit_counters ?max=1",
  "47 * * * * prune_events ?max=1",
  "53 * * * * prune_saft_files ?max=1",
  "30 15 * * 1-5 sync_exchange_rates ?id=ecb_after_publication&max=5",
  "30 17 * * 1-5 sync_exchange_rates ?id=ecb_late_publication&max=5",
].join("\n");
