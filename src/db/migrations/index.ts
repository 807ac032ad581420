import type { Knex } from "knex";
import * as platform from "./20261122000001_platform.js";
import * as reference from "./20261122000002_reference.js";
import * as ledger from "./20261122000003_ledger.js";
import * as partnersCatalog from "./20261122000004_partners_catalog.js";
import * as hardening from "./20261123000001_hardening.js";
import * as workerRegistry from "./20261123000002_worker_registry.js";
import * as gateFunction from "./20261123000003_gate_function.js";
import * as postingFunctions from "./20261123000004_posting_functions.js";
import * as vatClassifiers from "./20261123000101_vat_classifiers.js";
import * as ltChart from "./20261123000102_lt_chart.js";
import * as webhooks from "./20261123000200_webhooks.js";
import * as invoicing from "./20261124000101_invoicing.js";

// Migrations are listed here (not discovered from the file system) so that they load the same way under tsx,
// jest and the knex CLI. Append new ones at the end; never edit one that has shipped.
const migrations: Record<string, Knex.Migration> = {
  "20261122000001_platform": platform,
  "20261122000002_reference": reference,
  "20261122000003_ledger": ledger,
  "20261122000004_partners_catalog": partnersCatalog,
  "20261123000001_hardening": hardening,
  "20261123000002_worker_registry": workerRegistry,
  "20261123000003_gate_function": gateFunction,
  "20261123000004_posting_functions": postingFunctions,
  "20261123000101_vat_classifiers": vatClassifiers,
  "20261123000102_lt_chart": ltChart,
  "20261123000200_webhooks": webhooks,
  "20261124000101_invoicing": invoicing,
};

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations[name],
};
