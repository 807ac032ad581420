// Who is calling, and which companies it may reach: the caller as the gate (src/http/gate.ts) found it. Below both
// the HTTP layer and the domain, which both need it (STYLE.md, practice 16: layers run one way).
import { notFound } from "../shared/errors.js";

export interface CompanyContext {
  id: string;
  countryCode: string;
  baseCurrency: string;
  invoiceCurrency: string;
}

export interface Principal {
  keyId: string;
  accountId: string;
  scopes: string[];
  /** null: the key reaches every company of the account. */
  companyIds: string[] | null;
  paymentRequired: boolean;
  /** The company named by X-Company-Id (or the key's only company), when it belongs to the key's account. */
  company: CompanyContext | null;
}

/** The same answer for a company that does not exist and one the key may not reach: nothing leaks. */
export const companyNotFound = (id: string) => notFound("The company", "company.not_found", { companyId: id });

/** True when the key may act on the company (its account's company, within the key's restriction). */
export function keyReaches(principal: Principal, companyId: string): boolean {
  return principal.companyIds === null || principal.companyIds.includes(companyId.toLowerCase());
}
