import type { Task } from "graphile-worker";
import { isIsoDate } from "../shared/dates.js";
import { withTransaction } from "../db/transaction.js";
import { backfillExchangeRates } from "../reference/exchange-rates.js";
import type { JobDeps } from "./deps.js";

export interface BackfillPayload {
  from: string;
  to: string;
}

export function parseBackfillPayload(payload: unknown): BackfillPayload {
  const p = payload as Partial<BackfillPayload> | null;
  if (!p || typeof p.from !== "string" || typeof p.to !== "string" || !isIsoDate(p.from) || !isIsoDate(p.to) || p.from > p.to) {
    throw new Error(`backfill_exchange_rates needs {from, to} dates with from <= to, got ${JSON.stringify(payload)}`);
  }
  return { from: p.from, to: p.to };
}

/** Loads every ECB day in [from, to] from the full history file, in one transaction. */
export const backfillExchangeRatesTask =
  ({ db, config }: JobDeps): Task =>
  async (payload, helpers) => {
    const { from, to } = parseBackfillPayload(payload);
    const result = await withTransaction(db, (trx) => backfillExchangeRates(trx, config.exchangeRatesUrl, from, to));
    helpers.logger.info(`exchange rates ${from}..${to}: ${result.days} days, ${result.imported} rows written`);
  };
