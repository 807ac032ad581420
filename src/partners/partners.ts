// Partners: the company's customers and suppliers. Other records (journal entries today) reference a partner by
// (company_id, code) through foreign keys, so "is it referenced?" is answered by the database: deleting a partner
// or changing its code fails with a foreign-key violation (23503) while any referencing row exists, whichever
// table holds it.
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import type { PartnersRow } from "../db/rows.js";
import { foreignKeyViolation, uniqueViolation } from "../db/transaction.js";
import { conflict, notFound, validationError, type FieldErrors } from "../shared/errors.js";
import { emitEvent } from "../events/index.js";
import { runList, type ListRequest, type ListSpec } from "../shared/list-engine.js";
import { countryCodeProblem, ibanProblem, ltRegistrationCodeProblem, peppolIdProblem, throwRuleFailures, vatCodeProblem } from "../shared/identifiers.js";

type Partner = components["schemas"]["Partners.Partner"];
type CreateInput = components["schemas"]["Partners.PartnerCreateRequest"];
type UpdateInput = components["schemas"]["Partners.PartnerUpdateRequest"];
type KeyInput = components["schemas"]["Partners.PartnerGetRequest"];

/** API field -> column, for every field a create or update may set. */
const COLUMNS = {
  code: "code",
  name: "name",
  vatCode: "vat_code",
  registrationCode: "registration_code",
  countryCode: "country_code",
  address: "address",
  email: "email",
  phone: "phone",
  iban: "iban",
  isCustomer: "is_customer",
  isSupplier: "is_supplier",
  isPrivatePerson: "is_private_person",
  paymentTermDays: "payment_term_days",
  documentLanguage: "document_language",
  peppolId: "peppol_id",
} as const;
type Field = keyof typeof COLUMNS;

export function partnerToApi(row: PartnersRow): Partner {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    vatCode: row.vat_code,
    registrationCode: row.registration_code,
    countryCode: row.country_code,
    address: row.address as Partner["address"],
    email: row.email,
    phone: row.phone,
    iban: row.iban,
    isCustomer: row.is_customer,
    isSupplier: row.is_supplier,
    isPrivatePerson: row.is_private_person,
    paymentTermDays: row.payment_term_days,
    documentLanguage: row.document_language as Partner["documentLanguage"],
    peppolId: row.peppol_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/**
 * The rules the contract's patterns cannot express (422 naming each failing field). `effective` is the partner as it
 * will be (the current row with the changes), for the rules that read several fields: a Lithuanian partner's
 * registration code is checked whenever it, the country or the private-person flag changes.
 */
function checkRules(input: Partial<Record<Field, unknown>>, effective: Partial<Record<Field, unknown>> = input): void {
  const errors: FieldErrors = {};
  const keys: Record<string, string> = {};
  const check = (field: string, key: string, problem: string | undefined) => {
    if (problem) (errors[field] = [problem]), (keys[field] = key);
  };
  if (typeof input.vatCode === "string") check("vatCode", "vat_code.invalid", vatCodeProblem(input.vatCode));
  if (typeof input.iban === "string") check("iban", "iban.invalid", ibanProblem(input.iban));
  if (typeof input.peppolId === "string") check("peppolId", "peppol_id.invalid", peppolIdProblem(input.peppolId));
  if (typeof input.countryCode === "string") check("countryCode", "country_code.unknown", countryCodeProblem(input.countryCode));
  const address = input.address as { countryCode?: string } | null | undefined;
  if (address?.countryCode) check("address.countryCode", "country_code.unknown", countryCodeProblem(address.countryCode));
  const touchesRegistration = input.registrationCode !== undefined || input.countryCode !== undefined || input.isPrivatePerson !== undefined;
  if (touchesRegistration && effective.countryCode === "LT" && typeof effective.registrationCode === "string") {
    // Named on registrationCode also when the country or the flag changed: that is the value that does not fit.
    check("registrationCode", "registration_code.invalid", ltRegistrationCodeProblem(effective.registrationCode, effective.isPrivatePerson === true));
  }
  throwRuleFailures(errors, keys, "partner.invalid_fields");
}

/** Column values of the fields present in `input` (`null` kept, so an update clears). */
function toColumns(input: Partial<Record<Field, unknown>>): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(COLUMNS)) {
    const value = input[field as Field];
    if (value === undefined) continue;
    // jsonb: knex would send a JS object as a Postgres record literal, so it goes as JSON text.
    columns[column] = field === "address" && value !== null ? JSON.stringify(value) : value;
  }
  return columns;
}

const codeTaken = (code: string) => conflict(`A partner with code ${code} already exists.`, "partner.code_taken", { code });
const referenced = (row: { id: string; code: string }, action: string) =>
  conflict(`The partner ${row.code} is referenced by other records; it cannot be ${action}.`, "partner.referenced", { id: row.id, code: row.code });

export async function createPartner(trx: Db, companyId: string, input: CreateInput): Promise<Partner> {
  checkRules(input);
  try {
    const [row] = await trx<PartnersRow>("partners")
      .insert({ company_id: companyId, ...toColumns(input) })
      .returning("*");
    const partner = partnerToApi(row);
    await emitEvent(trx, companyId, "partner.created", partner);
    return partner;
  } catch (error) {
    if (uniqueViolation(error) === "partners_company_code_key") throw codeTaken(input.code);
    throw error;
  }
}

/** The partner named by exactly one of id and code (400 otherwise, 404 when there is none). */
async function findPartner(db: Db, companyId: string, key: KeyInput, forUpdate = false): Promise<PartnersRow> {
  if ((key.id === undefined) === (key.code === undefined)) {
    const message = "send exactly one of id and code";
    throw validationError({ id: [message], code: [message] }, "Name the partner by id or by code.");
  }
  const where = key.id !== undefined ? { company_id: companyId, id: key.id } : { company_id: companyId, code: key.code };
  const query = db<PartnersRow>("partners").where(where).first();
  const row = await (forUpdate ? query.forUpdate() : query);
  if (!row) throw notFound("The partner", "partner.not_found", key.id !== undefined ? { id: key.id } : { code: key.code });
  return row;
}

export async function getPartner(db: Db, companyId: string, input: KeyInput): Promise<Partner> {
  return partnerToApi(await findPartner(db, companyId, input));
}

export async function updatePartner(trx: Db, companyId: string, input: UpdateInput): Promise<Partner> {
  const { id, ...changes } = input;
  const current = await findPartner(trx, companyId, { id }, true);
  checkRules(changes, { ...partnerToApi(current), ...changes });
  const columns = toColumns(changes);
  if (Object.keys(columns).length === 0) return partnerToApi(current);
  try {
    const [row] = await trx<PartnersRow>("partners")
      .where({ company_id: companyId, id })
      .update({ ...columns, updated_at: trx.fn.now() })
      .returning("*");
    const partner = partnerToApi(row);
    await emitEvent(trx, companyId, "partner.updated", partner);
    return partner;
  } catch (error) {
    if (uniqueViolation(error) === "partners_company_code_key") throw codeTaken(changes.code!);
    // Only the code is a referenced key; a foreign-key failure here means a row references the old code.
    if (foreignKeyViolation(error) !== undefined) throw referenced(current, "given another code");
    throw error;
  }
}

export async function deletePartner(trx: Db, companyId: string, input: KeyInput): Promise<Partner> {
  const current = await findPartner(trx, companyId, input, true);
  try {
    await trx("partners").where({ company_id: companyId, id: current.id }).delete();
  } catch (error) {
    if (foreignKeyViolation(error) !== undefined) throw referenced(current, "deleted");
    throw error;
  }
  const partner = partnerToApi(current);
  await emitEvent(trx, companyId, "partner.deleted", partner);
  return partner;
}

const partnerListSpec: ListSpec = {
  fields: {
    id: { column: "id", type: "uuid", sort: false },
    code: { column: "code", type: "string" },
    name: { column: "name", type: "string" },
    vatCode: { column: "vat_code", type: "string" },
    registrationCode: { column: "registration_code", type: "string" },
    countryCode: { column: "country_code", type: "string" },
    email: { column: "email", type: "string" },
    isCustomer: { column: "is_customer", type: "boolean" },
    isSupplier: { column: "is_supplier", type: "boolean" },
    isPrivatePerson: { column: "is_private_person", type: "boolean" },
    paymentTermDays: { column: "payment_term_days", type: "integer" },
    createdAt: { column: "created_at", type: "timestamp" },
    updatedAt: { column: "updated_at", type: "timestamp" },
    // What a SAF-T file needs of a customer or supplier (src/declarations/lt/saft.ts, incompletePartners).
    addressComplete: {
      // A structured address with a postal code (partners/addresses); without structured ones, the free address's city and postal code.
      column: `(case when exists (select 1 from partner_addresses a where a.company_id = partners.company_id and a.partner_id = partners.id)
                     then exists (select 1 from partner_addresses a where a.company_id = partners.company_id and a.partner_id = partners.id and a.postal_code is not null)
                     else coalesce(address ->> 'city', '') <> '' and coalesce(address ->> 'postalCode', '') <> '' end)`,
      type: "boolean",
      sort: false,
    },
  },
  tieBreaker: "id",
  defaultSort: [
    { field: "name", dir: "asc" },
    { field: "code", dir: "asc" },
  ],
};

export async function listPartners(db: Db, companyId: string, request: ListRequest) {
  const result = await runList<PartnersRow>(db, () => db("partners").where("company_id", companyId), partnerListSpec, request, ["*"]);
  return { ...result, rows: result.rows.map(partnerToApi) };
}
