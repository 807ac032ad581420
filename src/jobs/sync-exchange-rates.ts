import type { Task } from "graphile-worker";
import { withTransaction } from "../db/transaction.js";
import { syncExchangeRates } from "../reference/exchange-rates.js";
import { isIsoDate } from "../shared/dates.js";
import type { JobDeps } from "./deps.js";

/**
 * Imports the latest ECB rates (or payload.date's). Scheduled every business day after the ECB publishes
 * (about 16:00 CET); a failure is retried by graphile-worker with backoff, and re-running is harmless.
 */
export const syncExchangeRatesTask =
  ({ db, config }: JobDeps): Task =>
  async (payload, helpers) => {
    const date = (payload as { date?: unknown } | null)?.date;
    if (date !== undefined && (typeof date !== "string" || !isIsoDate(date))) throw new Error(`sync_exchange_rates: bad date ${JSON.stringify(date)}`);
    const result = await withTransaction(db, (trx) => syncExchangeRates(trx, config.exchangeRatesUrl, date));
    helpers.logger.info(`exchange rates of ${result.date}: ${result.imported} rows written`);
  };
