// Partners' structured addresses (issue 27): each address a partner has — registered office, billing or shipping —
// as street, building, city, postal code and country, one of them the partner's default. A SAF-T file names every
// address of a customer or supplier (src/declarations/lt/saft.ts). The partner's free `address` stays for display.
// The default: a partner's first address is its default; an address created or changed with `isDefault: true` takes
// it from the one before; the default cannot be unset except by making another the default (422
// `partner_address.default_required`); deleting the default hands it to the oldest address left. The database keeps
// at most one default per partner (partner_addresses_one_default) and the values' shapes.
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import type { PartnerAddressesRow } from "../db/rows.js";
import { notFound, unprocessable } from "../shared/errors.js";
import { countryCodeProblem, throwRuleFailures } from "../shared/identifiers.js";
import { runList, type ListRequest, type ListSpec } from "../shared/list-engine.js";

export type PartnerAddress = components["schemas"]["Partners.PartnerAddress"];
type CreateInput = components["schemas"]["Partners.PartnerAddressCreateRequest"];
type UpdateInput = components["schemas"]["Partners.PartnerAddressUpdateRequest"];

export function addressToApi(row: PartnerAddressesRow): PartnerAddress {
  return {
    id: row.id,
    partnerId: row.partner_id,
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

/** The address's values as columns: only those sent (undefined stays out; null clears). */
function columnsOf(input: Omit<UpdateInput, "id">): Partial<PartnerAddressesRow> {
  const columns: Partial<PartnerAddressesRow> = {};
  const set = <K extends keyof PartnerAddressesRow>(column: K, value: PartnerAddressesRow[K] | undefined) => {
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

/** The partner, locked: its addresses change one request at a time (the default moves between them). */
async function lockPartner(trx: Db, companyId: string, partnerId: string): Promise<void> {
  const partner = await trx("partners").where({ company_id: companyId, id: partnerId }).forUpdate().first("id");
  if (!partner) throw notFound("The partner", "partner.not_found", { id: partnerId });
}

/** Makes no address of the partner the default (before another becomes it). */
const clearDefault = (trx: Db, companyId: string, partnerId: string) =>
  trx("partner_addresses").where({ company_id: companyId, partner_id: partnerId, is_default: true }).update({ is_default: false, updated_at: trx.fn.now() });

export async function createPartnerAddress(trx: Db, companyId: string, input: CreateInput): Promise<PartnerAddress> {
  checkCountry(input.countryCode);
  await lockPartner(trx, companyId, input.partnerId);
  const existing = await trx("partner_addresses").where({ company_id: companyId, partner_id: input.partnerId }).first("id");
  const isDefault = input.isDefault === true || !existing;
  if (isDefault) await clearDefault(trx, companyId, input.partnerId);
  const { partnerId, isDefault: _, ...values } = input;
  const [row] = await trx<PartnerAddressesRow>("partner_addresses")
    .insert({ ...columnsOf(values), company_id: companyId, partner_id: partnerId, is_default: isDefault })
    .returning("*");
  return addressToApi(row);
}

async function findAddress(db: Db, companyId: string, id: string): Promise<PartnerAddressesRow> {
  const row = await db<PartnerAddressesRow>("partner_addresses").where({ company_id: companyId, id }).first();
  if (!row) throw notFound("The partner address", "partner_address.not_found", { id });
  return row;
}

/** The address, read again with its partner locked (the partner's addresses change one request at a time). */
async function lockAddress(trx: Db, companyId: string, id: string): Promise<PartnerAddressesRow> {
  const { partner_id } = await findAddress(trx, companyId, id);
  // The partner exists while it has addresses (they are deleted with it): the lock finds it.
  await trx("partners").where({ company_id: companyId, id: partner_id }).forUpdate().first("id");
  return findAddress(trx, companyId, id);
}

export async function updatePartnerAddress(trx: Db, companyId: string, input: UpdateInput): Promise<PartnerAddress> {
  checkCountry(input.countryCode);
  const current = await lockAddress(trx, companyId, input.id);
  const { id, isDefault, ...changes } = input;
  if (isDefault === false && current.is_default) {
    throw unprocessable(
      "The partner's default address cannot be unset; make another of its addresses the default instead.",
      "partner_address.default_required",
      { id },
    );
  }
  const columns = columnsOf(changes);
  if (isDefault === true && !current.is_default) {
    await clearDefault(trx, companyId, current.partner_id);
    columns.is_default = true;
  }
  if (!Object.keys(columns).length) return addressToApi(current);
  const [row] = await trx<PartnerAddressesRow>("partner_addresses")
    .where({ company_id: companyId, id })
    .update({ ...columns, updated_at: trx.fn.now() as unknown as Date })
    .returning("*");
  return addressToApi(row);
}

export async function deletePartnerAddress(trx: Db, companyId: string, id: string): Promise<PartnerAddress> {
  const current = await lockAddress(trx, companyId, id);
  await trx("partner_addresses").where({ company_id: companyId, id }).delete();
  if (current.is_default) {
    const next = await trx("partner_addresses")
      .where({ company_id: companyId, partner_id: current.partner_id })
      .orderBy([{ column: "created_at" }, { column: "id" }])
      .first("id");
    if (next) await trx("partner_addresses").where({ company_id: companyId, id: next.id }).update({ is_default: true, updated_at: trx.fn.now() });
  }
  return addressToApi(current);
}

const listSpec: ListSpec = {
  fields: {
    id: { column: "id", type: "uuid", sort: false },
    partnerId: { column: "partner_id", type: "uuid", sort: false },
    type: { column: "type", type: "string" },
    city: { column: "city", type: "string" },
    postalCode: { column: "postal_code", type: "string" },
    countryCode: { column: "country_code", type: "string" },
    isDefault: { column: "is_default", type: "boolean", sort: false },
    createdAt: { column: "created_at", type: "timestamp" },
  },
  tieBreaker: "id",
  defaultSort: [{ field: "createdAt", dir: "asc" }],
};

export async function listPartnerAddresses(db: Db, companyId: string, request: ListRequest) {
  const result = await runList<PartnerAddressesRow>(db, () => db("partner_addresses").where("company_id", companyId), listSpec, request, ["*"]);
  return { ...result, rows: result.rows.map(addressToApi) };
}
