// One home for a test's company: a new account with a `*` key and one LT company (h.tenant), the lt-standard chart,
// and whatever else a suite's tests stand on (partners, items, warehouses, asset groups, number series, bank
// accounts), all created through the SDK as an integrator would. A suite names its variant in one call:
// `world(h, { partners: [PIRKEJAS], items: [KONS] })`. What is created is exactly what the options list, in the
// order they name it (the chart first), so every suite keeps the codes, dates, amounts and order its assertions name.
import type { AccountingApi, RequestBody, ResponseData } from "../../sdk/typescript/src/index.js";
import type { Harness } from "./harness.js";

export interface WorldOptions {
  /** Properties of the company (vatCode, address, …) over h.tenant's defaults. */
  company?: Partial<RequestBody<"account_companies_create">>;
  /** Applies the lt-standard chart of accounts (default true). */
  chart?: boolean;
  partners?: RequestBody<"partners_create">[];
  items?: RequestBody<"catalog_items_create">[];
  warehouses?: RequestBody<"inventory_warehouses_create">[];
  assetGroups?: RequestBody<"assets_groups_create">[];
  series?: RequestBody<"reference_series_create">[];
  bankAccounts?: RequestBody<"bank_accounts_create">[];
}

export interface World {
  accountId: string;
  apiKey: string;
  keyId: string;
  companyId: string;
  /** The SDK client of the tenant's company (every answer checked against the contract). */
  api: AccountingApi;
  /**
   * The tenant's key and company as `h.post` options, for the requests no typed client sends (a body the contract
   * forbids as raw JSON, raw bytes, headers of one's own).
   */
  o: { key: string; companyId: string };
  /** The bank accounts of `options.bankAccounts`, in their order. */
  bankAccounts: ResponseData<"bank_accounts_create">[];
}

export async function world(h: Harness, options: WorldOptions = {}): Promise<World> {
  const t = await h.tenant(options.company);
  const { api } = t;
  if (options.chart !== false) await api.ledger.accounts.applyTemplate({ template: "lt-standard" });
  const bankAccounts: World["bankAccounts"] = [];
  // In the order the options name them: which warehouse is the default, which partner came first, is the suite's.
  for (const kind of Object.keys(options) as (keyof WorldOptions)[]) {
    if (kind === "partners") for (const partner of options.partners ?? []) await api.partners.create(partner);
    if (kind === "items") for (const item of options.items ?? []) await api.catalog.items.create(item);
    if (kind === "warehouses") for (const warehouse of options.warehouses ?? []) await api.inventory.warehouses.create(warehouse);
    if (kind === "assetGroups") for (const group of options.assetGroups ?? []) await api.assets.groups.create(group);
    if (kind === "series") for (const series of options.series ?? []) await api.reference.series.create(series);
    if (kind === "bankAccounts") for (const account of options.bankAccounts ?? []) bankAccounts.push(await api.bank.accounts.create(account));
  }

  return {
    accountId: t.accountId,
    apiKey: t.apiKey,
    keyId: t.keyId,
    companyId: t.companyId,
    api,
    o: { key: t.apiKey, companyId: t.companyId },
    bankAccounts,
  };
}
