// Who files a declaration: the company as the tax authority knows it, and the checks every VAT declaration makes
// first (issue 24): a company registered in the declaration's country (the path's jurisdiction does it for
// /v1/declarations/lt/...; submissions check it themselves) and a VAT payer (a VAT code).
import { readFileSync } from "node:fs";
import type { Db } from "../db/connection.js";
import { plainQuery } from "../db/prepared.js";
import { accountsForRules } from "../ledger/index.js";
import { unprocessable } from "../shared/errors.js";
import type { VatAccounts } from "./lt/documents.js";

export interface Declarant {
  id: string;
  code: string;
  name: string;
  vatCode: string;
  countryCode: string;
  address: Record<string, unknown> | null;
  email: string | null;
  phone: string | null;
}

/** The software that writes the files (i.SAF header, FFData CreatedByApp). */
export const SOFTWARE = {
  company: "Accounting API",
  name: "Accounting API",
  version: (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version,
};

/** The company of a declaration; 422 `declaration.vat_code_missing` for a company that is not a VAT payer. */
export async function loadDeclarant(db: Db, companyId: string, jurisdiction = "LT"): Promise<Declarant> {
  const [row] = await plainQuery<{
    id: string;
    code: string;
    name: string;
    vat_code: string | null;
    country_code: string;
    address: Record<string, unknown> | null;
    email: string | null;
    phone: string | null;
  }>(db, "select id, code, name, vat_code, country_code, address, email, phone from companies where id = $1", [companyId]);
  const countryCode = String(row.country_code).trim();
  if (countryCode !== jurisdiction) {
    throw unprocessable(`This declaration is for companies registered in ${jurisdiction}.`, "jurisdiction.mismatch", {
      jurisdiction,
      companyCountry: countryCode,
    });
  }
  if (!row.vat_code) {
    throw unprocessable(
      "The company has no VAT code: VAT declarations (i.SAF, FR0600, FR0564) are filed by VAT payers only. Set the company's vatCode (account/companies/update) once it is registered for VAT.",
      "declaration.vat_code_missing",
      { companyId },
    );
  }
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    vatCode: row.vat_code,
    countryCode,
    address: row.address,
    email: row.email,
    phone: row.phone,
  };
}

/** The accounts of the company's VAT posting rules. */
export async function vatAccounts(db: Db, companyId: string): Promise<VatAccounts> {
  const [vatPayable, vatReceivable, vatNonDeductible, reverseChargeVatInput, reverseChargeVatOutput] = await accountsForRules(db, companyId, [
    "sales.vatPayable",
    "purchases.vatReceivable",
    "purchases.vatNonDeductible",
    "purchases.reverseChargeVatInput",
    "purchases.reverseChargeVatOutput",
  ]);
  return { vatPayable, vatReceivable, vatNonDeductible, reverseChargeVatInput, reverseChargeVatOutput };
}
