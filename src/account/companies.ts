import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import { CompanyRecord } from "../db/models.js";
import { uniqueViolation } from "../db/transaction.js";
import { conflict, forbidden, type FieldErrors } from "../shared/errors.js";
import { companyNotFound, keyReaches, type Principal } from "../auth/principal.js";
import { runList, type ListRequest, type ListSpec } from "../shared/list-engine.js";
import { countryCodeProblem, ibanProblem, ltCompanyCodeProblem, throwRuleFailures, vatCodeProblem } from "../shared/identifiers.js";

type Company = components["schemas"]["Account.Company"];
type CreateInput = components["schemas"]["Account.CompanyCreateRequest"];
type UpdateInput = components["schemas"]["Account.CompanyUpdateRequest"];

export function companyToApi(c: CompanyRecord): Company {
  return {
    id: c.id,
    name: c.name,
    code: c.code,
    vatCode: c.vatCode,
    countryCode: c.countryCode as Company["countryCode"],
    baseCurrency: c.baseCurrency,
    invoiceCurrency: c.invoiceCurrency,
    address: c.address,
    email: c.email,
    phone: c.phone,
    iban: c.iban,
    fiscalYearStartMonth: c.fiscalYearStartMonth,
    invoiceIssuer: (c.invoiceIssuer as Company["invoiceIssuer"]) ?? null,
    contactPerson: c.contactPerson ? { phone: null, email: null, ...c.contactPerson } : null,
    createdAt: new Date(c.createdAt).toISOString(),
    updatedAt: new Date(c.updatedAt).toISOString(),
  };
}

const codeTaken = (code: string) => conflict(`A company with code ${code} already exists in this account.`, "company.code_taken", { code });

async function mapCodeConflict<T>(code: string | undefined, work: () => PromiseLike<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (uniqueViolation(error) === "companies_account_code_key") throw codeTaken(code!);
    throw error;
  }
}

/**
 * The company's own identifiers go through the rules partners' do (422 naming each failing field): a Lithuanian
 * company's code is its legal entity code (9 digits, mod-11 check digit), `vatCode` and `iban` are checked as
 * partners' are, and the address country must be an assigned ISO code.
 */
function checkRules(
  countryCode: string,
  input: { code?: string; vatCode?: string | null; iban?: string | null; address?: { countryCode?: string } | null },
): void {
  const errors: FieldErrors = {};
  const keys: Record<string, string> = {};
  const check = (field: string, key: string, problem: string | undefined) => {
    if (problem) (errors[field] = [problem]), (keys[field] = key);
  };
  if (countryCode === "LT" && typeof input.code === "string") check("code", "company_code.invalid", ltCompanyCodeProblem(input.code));
  if (typeof input.vatCode === "string") check("vatCode", "vat_code.invalid", vatCodeProblem(input.vatCode));
  if (typeof input.iban === "string") check("iban", "iban.invalid", ibanProblem(input.iban));
  if (input.address?.countryCode) check("address.countryCode", "country_code.unknown", countryCodeProblem(input.address.countryCode));
  throwRuleFailures(errors, keys, "company.invalid_fields");
}

export async function createCompany(trx: Db, principal: Principal, input: CreateInput): Promise<Company> {
  if (principal.companyIds !== null) {
    throw forbidden("A key restricted to some companies cannot create companies.", "company.create_restricted_key");
  }
  checkRules(input.countryCode, input);
  const baseCurrency = input.baseCurrency ?? "EUR";
  const record = await mapCodeConflict(input.code, () =>
    CompanyRecord.query(trx)
      .insert({
        accountId: principal.accountId,
        name: input.name,
        code: input.code,
        vatCode: input.vatCode ?? null,
        countryCode: input.countryCode,
        baseCurrency,
        invoiceCurrency: input.invoiceCurrency ?? baseCurrency,
        address: input.address ?? null,
        email: input.email ?? null,
        phone: input.phone ?? null,
        iban: input.iban ?? null,
        fiscalYearStartMonth: input.fiscalYearStartMonth ?? 1,
        invoiceIssuer: input.invoiceIssuer ?? null,
        contactPerson: input.contactPerson ?? null,
      })
      .returning("*"),
  );
  return companyToApi(record!);
}

/** The company, when the key may reach it; otherwise the same 404 as for a company that does not exist. */
async function reachableCompany(db: Db, principal: Principal, id: string, forUpdate = false): Promise<CompanyRecord> {
  if (!keyReaches(principal, id)) throw companyNotFound(id);
  // Objection maps model properties, not the keys of a where-object: columns are named as in the database.
  const query = CompanyRecord.query(db).findOne({ id, account_id: principal.accountId });
  const record = await (forUpdate ? query.forUpdate() : query);
  if (!record) throw companyNotFound(id);
  return record;
}

export async function getCompany(db: Db, principal: Principal, id: string): Promise<Company> {
  return companyToApi(await reachableCompany(db, principal, id));
}

export async function updateCompany(trx: Db, principal: Principal, input: UpdateInput): Promise<Company> {
  const current = await reachableCompany(trx, principal, input.id, true);
  const { id, ...changes } = input;
  checkRules(current.countryCode, changes);
  if (Object.keys(changes).length === 0) return getCompany(trx, principal, id);
  const record = await mapCodeConflict(changes.code, () =>
    CompanyRecord.query(trx)
      .patch({ ...changes, updatedAt: new Date() } as Partial<CompanyRecord>)
      .where({ id, account_id: principal.accountId })
      .returning("*")
      .first(),
  );
  return companyToApi(record!);
}

export const companyListSpec: ListSpec = {
  fields: {
    id: { column: "id", type: "uuid" },
    name: { column: "name", type: "string" },
    code: { column: "code", type: "string" },
    vatCode: { column: "vat_code", type: "string" },
    countryCode: { column: "country_code", type: "string" },
    baseCurrency: { column: "base_currency", type: "string" },
    invoiceCurrency: { column: "invoice_currency", type: "string" },
    createdAt: { column: "created_at", type: "timestamp" },
    updatedAt: { column: "updated_at", type: "timestamp" },
  },
  tieBreaker: "id",
  defaultSort: [{ field: "name", dir: "asc" }],
};

export async function listCompanies(db: Db, principal: Principal, request: ListRequest) {
  const result = await runList<Record<string, unknown>>(
    db,
    () => {
      const q = db("companies").where("account_id", principal.accountId);
      if (principal.companyIds) q.whereIn("id", principal.companyIds);
      return q;
    },
    companyListSpec,
    request,
    ["*"],
  );
  return { ...result, rows: result.rows.map((row) => companyToApi(CompanyRecord.fromDatabaseJson(row))) };
}
