import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import { PartnerRecord } from "../db/models.js";
import { uniqueViolation } from "../db/transaction.js";
import { conflict, notFound, validationError } from "../errors.js";

type Partner = components["schemas"]["Partners.Partner"];
type CreateInput = components["schemas"]["Partners.PartnerCreateRequest"];
type GetInput = components["schemas"]["Partners.PartnerGetRequest"];

export function partnerToApi(p: PartnerRecord): Partner {
  return {
    id: p.id,
    code: p.code,
    name: p.name,
    createdAt: new Date(p.createdAt).toISOString(),
    updatedAt: new Date(p.updatedAt).toISOString(),
  };
}

export async function createPartner(trx: Db, companyId: string, input: CreateInput): Promise<Partner> {
  try {
    return partnerToApi(await PartnerRecord.query(trx).insert({ companyId, code: input.code, name: input.name }).returning("*"));
  } catch (error) {
    if (uniqueViolation(error) === "partners_company_code_key") {
      throw conflict(`A partner with code ${input.code} already exists.`, "partner.code_taken", { code: input.code });
    }
    throw error;
  }
}

export async function getPartner(db: Db, companyId: string, input: GetInput): Promise<Partner> {
  if ((input.id === undefined) === (input.code === undefined)) {
    const message = "send exactly one of id and code";
    throw validationError({ id: [message], code: [message] }, "Name the partner by id or by code.");
  }
  const where = input.id !== undefined ? { company_id: companyId, id: input.id } : { company_id: companyId, code: input.code };
  const row = await db("partners").where(where).first("id", "code", "name", "created_at", "updated_at");
  if (!row) throw notFound("The partner", "partner.not_found", input.id !== undefined ? { id: input.id } : { code: input.code });
  return partnerToApi(PartnerRecord.fromDatabaseJson(row));
}
