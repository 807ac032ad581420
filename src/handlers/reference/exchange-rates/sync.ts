import { syncExchangeRates } from "../../../reference/exchange-rates.js";
import { defineHandler } from "../../types.js";

export default defineHandler("reference_exchange_rates_sync", ({ db, config, body }) => syncExchangeRates(db, config.exchangeRatesUrl, body.date));
