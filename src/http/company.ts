import type { Db } from "../db/connection.js";
import { notFound, validationError } from "../errors.js";
import type { Principal } from "./auth.js";

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
  return principal.companyIds === null || principal.companyIds.includes(companyId);
}

/** Resolves `X-Company-Id` (or the only company of a key restricted to one) to a company of the key's account. */
export async function resolveCompany(db: Db, principal: Principal, header: string | undefined): Promise<CompanyContext> {
  let id = header;
  if (!id) {
    if (principal.companyIds?.length !== 1) {
      throw validationError({ "X-Company-Id": ["is required: name the company this operation acts on"] }, "X-Company-Id is required.");
    }
    id = principal.companyIds[0];
  }
  if (!keyReaches(principal, id)) throw companyNotFound(id);
  const { rows } = await db.raw<{ rows: { id: string; country_code: string; base_currency: string; invoice_currency: string }[] }>(
    "select id, country_code, base_currency, invoice_currency from companies where id = ? and account_id = ?",
    [id, principal.accountId],
  );
  const row = rows[0];
  if (!row) throw companyNotFound(id);
  return { id: row.id, countryCode: row.country_code, baseCurrency: row.base_currency, invoiceCurrency: row.invoice_currency };
}
