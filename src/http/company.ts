import { notFound, validationError } from "../errors.js";
import type { Principal } from "./gate.js";

export interface CompanyContext {
  id: string;
  countryCode: string;
  baseCurrency: string;
  invoiceCurrency: string;
}

/** The same answer for a company that does not exist and one the key may not reach: nothing leaks. */
export const companyNotFound = (id: string) => notFound("The company", "company.not_found", { companyId: id });

/** True when the key may act on the company (its account's company, within the key's restriction). */
export function keyReaches(principal: Principal, companyId: string): boolean {
  return principal.companyIds === null || principal.companyIds.includes(companyId.toLowerCase());
}

/**
 * The company of a company-scoped request: `X-Company-Id`, or the only company of a key restricted to one.
 * The gate (src/http/gate.ts) already fetched it when it belongs to the key's account.
 */
export function resolveCompany(principal: Principal, header: string | undefined): CompanyContext {
  // UUIDs compare in lower case (the contract accepts either case; Postgres prints lower case).
  let id = header?.toLowerCase();
  if (!id) {
    if (principal.companyIds?.length !== 1) {
      throw validationError({ "X-Company-Id": ["is required: name the company this operation acts on"] }, "X-Company-Id is required.");
    }
    id = principal.companyIds[0];
  }
  if (!keyReaches(principal, id) || principal.company?.id !== id) throw companyNotFound(id);
  return principal.company;
}
