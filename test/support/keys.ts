// API keys for scope and tenancy tests: one helper makes them, through the SDK as an integrator would.
import type { AccountingApi, components } from "../../sdk/typescript/src/index.js";
import type { Harness } from "./harness.js";

export type Scope = components["schemas"]["Account.Scope"];

export interface KeyOptions {
  /** The companies the key is restricted to (default: every company of the account). */
  companyIds?: string[];
  /** The company its SDK client acts on (X-Company-Id). */
  companyId?: string;
  /** Default: the scopes joined with commas. */
  name?: string;
}

export interface CreatedKey {
  id: string;
  /** The secret, returned once. */
  key: string;
  /** The SDK client with this key (on `options.companyId`). */
  api: AccountingApi;
}

/** A new key of `ownerKey`'s account with these scopes, created by `ownerKey`. */
export async function keyWith(h: Harness, ownerKey: string, scopes: Scope[], options: KeyOptions = {}): Promise<CreatedKey> {
  const created = await h.sdk(ownerKey).account.apiKeys.create({
    name: options.name ?? scopes.join(","),
    scopes,
    ...(options.companyIds ? { companyIds: options.companyIds } : {}),
  });
  return { id: created.id, key: created.key, api: h.sdk(created.key, options.companyId) };
}
