// The company's owners or shareholders (issue 27): a code unique in the company, a name, a country, the equity account
// their capital is booked on, and what is known of their shares. SAF-T files name them in their master files
// (src/declarations/lt/saft.ts). The database keeps the code unique, the account in the chart and the dates in order.
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import type { OwnersRow } from "../db/rows.js";
import { uniqueViolation } from "../db/transaction.js";
import { Decimal, trimDecimal } from "../shared/decimal.js";
import { ApiError, conflict, notFound, unprocessable, type FieldErrors } from "../shared/errors.js";
import { runList, type ListRequest, type ListSpec } from "../shared/list-engine.js";

export type Owner = components["schemas"]["Ledger.Owner"];
type CreateInput = components["schemas"]["Ledger.OwnerCreateRequest"];
type UpdateInput = components["schemas"]["Ledger.OwnerUpdateRequest"];

export function ownerToApi(row: OwnersRow): Owner {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    countryCode: row.country_code,
    capitalAccountCode: row.capital_account_code,
    sharePercent: row.share_percent === null ? null : new Decimal(row.share_percent).toFixed(2),
    sharesQuantity: row.shares_quantity === null ? null : trimDecimal(row.shares_quantity),
    sharesAmount: row.shares_amount === null ? null : new Decimal(row.shares_amount).toFixed(2),
    sharesType: row.shares_type,
    acquiredOn: row.acquired_on,
    transferredOn: row.transferred_on,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

const codeTaken = (code: string) => conflict(`An owner with code ${code} already exists.`, "owner.code_taken", { code });

/** The owner's values as columns: only those sent (undefined stays out; null clears). */
function columnsOf(input: Partial<CreateInput> | Omit<UpdateInput, "id">): Partial<OwnersRow> {
  const columns: Partial<OwnersRow> = {};
  const set = <K extends keyof OwnersRow>(column: K, value: OwnersRow[K] | undefined) => {
    if (value !== undefined) columns[column] = value;
  };
  set("code", input.code);
  set("name", input.name);
  set("country_code", input.countryCode);
  set("capital_account_code", input.capitalAccountCode);
  set("share_percent", input.sharePercent);
  set("shares_quantity", input.sharesQuantity);
  set("shares_amount", input.sharesAmount);
  set("shares_type", input.sharesType);
  set("acquired_on", input.acquiredOn);
  set("transferred_on", input.transferredOn);
  return columns;
}

/**
 * The rules a schema cannot say, over the owner as it would be: 422 naming each field. The capital account is looked
 * up only when `checkAccount` (it is sent).
 */
async function checkRules(db: Db, companyId: string, owner: Partial<OwnersRow>, checkAccount: boolean): Promise<void> {
  if (checkAccount) {
    const account = await db("ledger_accounts").where({ company_id: companyId, code: owner.capital_account_code }).first("type");
    if (account?.type !== "equity") {
      throw unprocessable(
        `Account ${owner.capital_account_code} is ${account ? `a ${account.type} account` : "not in the chart"}; an owner's capital is booked on an equity account.`,
        "owner.account_invalid",
        { accountCode: owner.capital_account_code },
      );
    }
  }
  const errors: FieldErrors = {};
  if (owner.shares_quantity !== undefined && owner.shares_quantity !== null && !new Decimal(owner.shares_quantity).greaterThan(0))
    errors.sharesQuantity = ["must be above 0"];
  if (owner.shares_amount !== undefined && owner.shares_amount !== null && new Decimal(owner.shares_amount).lessThan(0))
    errors.sharesAmount = ["must not be negative"];
  if (owner.acquired_on && owner.transferred_on && owner.transferred_on < owner.acquired_on) errors.transferredOn = ["must be on or after acquiredOn"];
  if (Object.keys(errors).length)
    throw new ApiError("unprocessable", "Some of the owner's values break their rules.", { key: "owner.invalid_fields", fieldErrors: errors });
}

async function writing<T>(code: string | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (uniqueViolation(error) === "owners_code_key") throw codeTaken(code!);
    throw error;
  }
}

export async function createOwner(trx: Db, companyId: string, input: CreateInput): Promise<Owner> {
  const columns = columnsOf(input);
  await checkRules(trx, companyId, columns, true);
  const [row] = await writing(input.code, () =>
    trx<OwnersRow>("owners")
      .insert({ ...columns, company_id: companyId })
      .returning("*"),
  );
  return ownerToApi(row);
}

async function findOwner(db: Db, companyId: string, id: string, forUpdate = false): Promise<OwnersRow> {
  const query = db<OwnersRow>("owners").where({ company_id: companyId, id }).first();
  const row = await (forUpdate ? query.forUpdate() : query);
  if (!row) throw notFound("The owner", "owner.not_found", { id });
  return row;
}

export async function updateOwner(trx: Db, companyId: string, input: UpdateInput): Promise<Owner> {
  const current = await findOwner(trx, companyId, input.id, true);
  const { id, ...changes } = input;
  const columns = columnsOf(changes);
  if (!Object.keys(columns).length) return ownerToApi(current);
  await checkRules(trx, companyId, { ...current, ...columns }, columns.capital_account_code !== undefined);
  const [row] = await writing(input.code, () =>
    trx<OwnersRow>("owners")
      .where({ company_id: companyId, id })
      .update({ ...columns, updated_at: trx.fn.now() as unknown as Date })
      .returning("*"),
  );
  return ownerToApi(row);
}

export async function deleteOwner(trx: Db, companyId: string, id: string): Promise<Owner> {
  const current = await findOwner(trx, companyId, id, true);
  await trx("owners").where({ company_id: companyId, id }).delete();
  return ownerToApi(current);
}

const listSpec: ListSpec = {
  fields: {
    id: { column: "id", type: "uuid", sort: false },
    code: { column: "code", type: "string" },
    name: { column: "name", type: "string" },
    countryCode: { column: "country_code", type: "string" },
    capitalAccountCode: { column: "capital_account_code", type: "string", sort: false },
    createdAt: { column: "created_at", type: "timestamp" },
  },
  tieBreaker: "id",
  defaultSort: [{ field: "code", dir: "asc" }],
};

export async function listOwners(db: Db, companyId: string, request: ListRequest) {
  const result = await runList<OwnersRow>(db, () => db("owners").where("company_id", companyId), listSpec, request, ["*"]);
  return { ...result, rows: result.rows.map(ownerToApi) };
}

/** The owners a SAF-T file names (every owner of the company, by code). */
export function ownersOf(db: Db, companyId: string): Promise<OwnersRow[]> {
  return db<OwnersRow>("owners").where({ company_id: companyId }).orderBy("code");
}
