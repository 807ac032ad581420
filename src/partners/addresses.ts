// Structured addresses (issue 27): each address a partner — or the company itself — has (registered office, billing,
// shipping) as street, building, city, postal code and country, one of them the default. A SAF-T file names every
// address of a customer or supplier and of the company (src/declarations/lt/saft.ts). The free `address` of a partner
// or company stays for display. The default: the first address is the default; an address created or changed with
// `isDefault: true` takes it from the one before; the default cannot be unset except by making another the default
// (422 `<kind>.default_required`); deleting the default hands it to the oldest address left. The database keeps at
// most one default per owner (partner_addresses_one_default, company_addresses_one_default) and the values' shapes.
// The two address books — a partner's (partner_addresses) and the company's (company_addresses) — share this code.
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import type { CompanyAddressesRow, PartnerAddressesRow } from "../db/rows.js";
import { notFound, unprocessable } from "../shared/errors.js";
import { countryCodeProblem, throwRuleFailures } from "../shared/identifiers.js";
import { runList, type ListRequest, type ListSpec } from "../shared/list-engine.js";

export type PartnerAddress = components["schemas"]["Partners.PartnerAddress"];
export type CompanyAddress = components["schemas"]["Account.CompanyAddress"];
type PartnerCreateInput = components["schemas"]["Partners.PartnerAddressCreateRequest"];
type PartnerUpdateInput = components["schemas"]["Partners.PartnerAddressUpdateRequest"];
type CompanyCreateInput = components["schemas"]["Account.CompanyAddressCreateRequest"];
type CompanyUpdateInput = components["schemas"]["Account.CompanyAddressUpdateRequest"];
type AddressRow = PartnerAddressesRow | CompanyAddressesRow;
type Values = Omit<PartnerUpdateInput, "id" | "isDefault">;

/** One address book: its table, how one owner's addresses are found, and how its errors are named. */
interface Book {
  table: "partner_addresses" | "company_addresses";
  /** The owner's rows (the company's own, or one partner's). */
  owner: Record<string, string>;
  /** Error keys' prefix: `partner_address` or `company_address`. */
  kind: string;
}

function valuesToApi(row: AddressRow) {
  return {
    id: row.id,
    type: row.type,
    street: row.street,
    building: row.building,
    city: row.city,
    postalCode: row.postal_code,
    countryCode: row.country_code,
    isDefault: row.is_default,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export const addressToApi = (row: PartnerAddressesRow): PartnerAddress => ({ ...valuesToApi(row), partnerId: row.partner_id });
const companyAddressToApi = (row: CompanyAddressesRow): CompanyAddress => valuesToApi(row);

/** The address's values as columns: only those sent (undefined stays out; null clears). */
function columnsOf(input: Values): Partial<AddressRow> {
  const columns: Partial<AddressRow> = {};
  const set = <K extends keyof AddressRow>(column: K, value: AddressRow[K] | undefined) => {
    if (value !== undefined) columns[column] = value;
  };
  set("type", input.type);
  set("street", input.street);
  set("building", input.building);
  set("city", input.city);
  set("postal_code", input.postalCode);
  set("country_code", input.countryCode);
  return columns;
}

/** 422 `country_code.unknown` for a country code that is not an assigned ISO 3166-1 code. */
function checkCountry(countryCode: string | undefined): void {
  const problem = countryCode === undefined ? undefined : countryCodeProblem(countryCode);
  if (problem) throwRuleFailures({ countryCode: [problem] }, { countryCode: "country_code.unknown" }, "country_code.unknown");
}

/** Makes no address of the owner the default (before another becomes it). */
const clearDefault = (trx: Db, book: Book) =>
  trx(book.table)
    .where({ ...book.owner, is_default: true })
    .update({ is_default: false, updated_at: trx.fn.now() });

/** Adds an address to `book` (its owner locked by the caller: its addresses change one request at a time). */
async function create<T extends AddressRow>(trx: Db, book: Book, values: Values, makeDefault: boolean | undefined): Promise<T> {
  checkCountry(values.countryCode);
  const existing = await trx(book.table).where(book.owner).first("id");
  const isDefault = makeDefault === true || !existing;
  if (isDefault) await clearDefault(trx, book);
  const [row] = await trx(book.table)
    .insert({ ...columnsOf(values), ...book.owner, is_default: isDefault })
    .returning("*");
  return row as T;
}

async function find<T extends AddressRow>(db: Db, book: Book, id: string): Promise<T> {
  const row = await db(book.table)
    .where({ ...book.owner, id })
    .first();
  if (!row) throw notFound(book.kind === "partner_address" ? "The partner address" : "The company address", `${book.kind}.not_found`, { id });
  return row as T;
}

async function update<T extends AddressRow>(trx: Db, book: Book, current: T, values: Values, isDefault: boolean | undefined): Promise<T> {
  checkCountry(values.countryCode);
  if (isDefault === false && current.is_default) {
    throw unprocessable("The default address cannot be unset; make another address the default instead.", `${book.kind}.default_required`, {
      id: current.id,
    });
  }
  const columns = columnsOf(values);
  if (isDefault === true && !current.is_default) {
    await clearDefault(trx, book);
    columns.is_default = true;
  }
  if (!Object.keys(columns).length) return current;
  const [row] = await trx(book.table)
    .where({ ...book.owner, id: current.id })
    .update({ ...columns, updated_at: trx.fn.now() })
    .returning("*");
  return row as T;
}

async function remove<T extends AddressRow>(trx: Db, book: Book, current: T): Promise<T> {
  await trx(book.table)
    .where({ ...book.owner, id: current.id })
    .delete();
  if (current.is_default) {
    const next = await trx(book.table)
      .where(book.owner)
      .orderBy([{ column: "created_at" }, { column: "id" }])
      .first("id");
    if (next)
      await trx(book.table)
        .where({ ...book.owner, id: next.id })
        .update({ is_default: true, updated_at: trx.fn.now() });
  }
  return current;
}

const listFields: ListSpec["fields"] = {
  id: { column: "id", type: "uuid", sort: false },
  type: { column: "type", type: "string" },
  city: { column: "city", type: "string" },
  postalCode: { column: "postal_code", type: "string" },
  countryCode: { column: "country_code", type: "string" },
  isDefault: { column: "is_default", type: "boolean", sort: false },
  createdAt: { column: "created_at", type: "timestamp" },
};
const defaultSort: ListSpec["defaultSort"] = [{ field: "createdAt", dir: "asc" }];

// --- A partner's addresses (partners/addresses/*) ---------------------------------------------------------------

const partnerBook = (companyId: string, partnerId: string): Book => ({
  table: "partner_addresses",
  owner: { company_id: companyId, partner_id: partnerId },
  kind: "partner_address",
});

/** The partner, locked (its addresses change one request at a time; a posting naming it is not held up). */
async function lockPartner(trx: Db, companyId: string, partnerId: string): Promise<boolean> {
  return Boolean(await trx("partners").where({ company_id: companyId, id: partnerId }).forNoKeyUpdate().first("id"));
}

/** The address and its book, its partner locked (the partner exists while it has addresses: they go with it). */
async function lockPartnerAddress(trx: Db, companyId: string, id: string): Promise<{ book: Book; current: PartnerAddressesRow }> {
  const any: Book = { table: "partner_addresses", owner: { company_id: companyId }, kind: "partner_address" };
  const { partner_id } = await find<PartnerAddressesRow>(trx, any, id);
  await lockPartner(trx, companyId, partner_id);
  const book = partnerBook(companyId, partner_id);
  return { book, current: await find<PartnerAddressesRow>(trx, book, id) };
}

export async function createPartnerAddress(trx: Db, companyId: string, input: PartnerCreateInput): Promise<PartnerAddress> {
  if (!(await lockPartner(trx, companyId, input.partnerId))) throw notFound("The partner", "partner.not_found", { id: input.partnerId });
  const { partnerId, isDefault, ...values } = input;
  return addressToApi(await create<PartnerAddressesRow>(trx, partnerBook(companyId, partnerId), values, isDefault));
}

export async function updatePartnerAddress(trx: Db, companyId: string, input: PartnerUpdateInput): Promise<PartnerAddress> {
  const { id, isDefault, ...values } = input;
  const { book, current } = await lockPartnerAddress(trx, companyId, id);
  return addressToApi(await update(trx, book, current, values, isDefault));
}

export async function deletePartnerAddress(trx: Db, companyId: string, id: string): Promise<PartnerAddress> {
  const { book, current } = await lockPartnerAddress(trx, companyId, id);
  return addressToApi(await remove(trx, book, current));
}

const partnerListSpec: ListSpec = {
  fields: { ...listFields, partnerId: { column: "partner_id", type: "uuid", sort: false } },
  tieBreaker: "id",
  defaultSort,
};

export async function listPartnerAddresses(db: Db, companyId: string, request: ListRequest) {
  const result = await runList<PartnerAddressesRow>(db, () => db("partner_addresses").where("company_id", companyId), partnerListSpec, request, ["*"]);
  return { ...result, rows: result.rows.map(addressToApi) };
}

// --- The company's own addresses (account/companies/addresses/*) ------------------------------------------------

const companyBook = (companyId: string): Book => ({ table: "company_addresses", owner: { company_id: companyId }, kind: "company_address" });

/** The company, locked (its addresses change one request at a time; nothing that references it is held up). */
const lockCompany = (trx: Db, companyId: string) => trx("companies").where({ id: companyId }).forNoKeyUpdate().first("id");

export async function createCompanyAddress(trx: Db, companyId: string, input: CompanyCreateInput): Promise<CompanyAddress> {
  await lockCompany(trx, companyId);
  const { isDefault, ...values } = input;
  return companyAddressToApi(await create<CompanyAddressesRow>(trx, companyBook(companyId), values, isDefault));
}

export async function updateCompanyAddress(trx: Db, companyId: string, input: CompanyUpdateInput): Promise<CompanyAddress> {
  await lockCompany(trx, companyId);
  const { id, isDefault, ...values } = input;
  const book = companyBook(companyId);
  return companyAddressToApi(await update(trx, book, await find<CompanyAddressesRow>(trx, book, id), values, isDefault));
}

export async function deleteCompanyAddress(trx: Db, companyId: string, id: string): Promise<CompanyAddress> {
  await lockCompany(trx, companyId);
  const book = companyBook(companyId);
  return companyAddressToApi(await remove(trx, book, await find<CompanyAddressesRow>(trx, book, id)));
}

const companyListSpec: ListSpec = { fields: listFields, tieBreaker: "id", defaultSort };

export async function listCompanyAddresses(db: Db, companyId: string, request: ListRequest) {
  const result = await runList<CompanyAddressesRow>(db, () => db("company_addresses").where("company_id", companyId), companyListSpec, request, ["*"]);
  return { ...result, rows: result.rows.map(companyAddressToApi) };
}
