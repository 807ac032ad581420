// The company a request acts on (an HTTP concern: the X-Company-Id header).
import { companyNotFound, keyReaches, type CompanyContext, type Principal } from "../auth/principal.js";
import { validationError } from "../shared/errors.js";

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
