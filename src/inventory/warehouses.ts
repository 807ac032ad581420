// Warehouses: a code unique per company, a name, and exactly one default once the company has any (the first one
// created; `update {isDefault: true}` moves it). The default is where document lines without a warehouse take
// their goods from. The database keeps at most one default (unique index warehouses_one_default).
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import type { WarehousesRow } from "../db/rows.js";
import { uniqueViolation } from "../db/transaction.js";
import { ApiError, conflict, notFound } from "../shared/errors.js";
import { runList, type ListRequest, type ListSpec } from "../shared/list-engine.js";

export type Warehouse = components["schemas"]["Inventory.Warehouse"];
type CreateInput = components["schemas"]["Inventory.WarehouseCreateRequest"];
type UpdateInput = components["schemas"]["Inventory.WarehouseUpdateRequest"];
type KeyInput = components["schemas"]["Inventory.WarehouseKey"];

export function warehouseToApi(row: WarehousesRow): Warehouse {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    isDefault: row.is_default,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

const codeTaken = (code: string) => conflict(`A warehouse with code ${code} already exists.`, "warehouse.code_taken", { code });

/**
 * Serialises the writes that decide which warehouse is the default (two first warehouses created at once must not
 * both become it): a transaction-scoped advisory lock per company, released at commit.
 */
const lockDefault = (trx: Db, companyId: string) => trx.raw("select pg_advisory_xact_lock(hashtextextended('warehouses:' || ?::text, 0))", [companyId]);

export async function createWarehouse(trx: Db, companyId: string, input: CreateInput): Promise<Warehouse> {
  await lockDefault(trx, companyId);
  const current = await trx<WarehousesRow>("warehouses").where({ company_id: companyId, is_default: true }).first("id");
  const makeDefault = input.isDefault ?? !current;
  if (makeDefault && current) await trx("warehouses").where({ company_id: companyId, id: current.id }).update({ is_default: false, updated_at: trx.fn.now() });
  try {
    const [row] = await trx<WarehousesRow>("warehouses")
      .insert({ company_id: companyId, code: input.code, name: input.name, is_default: makeDefault || !current })
      .returning("*");
    return warehouseToApi(row);
  } catch (error) {
    if (uniqueViolation(error) === "warehouses_code_key") throw codeTaken(input.code);
    throw error;
  }
}

async function findWarehouse(db: Db, companyId: string, key: KeyInput, forUpdate = false): Promise<WarehousesRow> {
  if ((key.id === undefined) === (key.code === undefined)) {
    throw new ApiError("validation", "Name the warehouse by id or by code (exactly one).", {
      key: "request.invalid",
      fieldErrors: { id: ["send exactly one of id and code"] },
    });
  }
  const query = db<WarehousesRow>("warehouses")
    .where({ company_id: companyId, ...(key.id !== undefined ? { id: key.id } : { code: key.code }) })
    .first();
  const row = await (forUpdate ? query.forUpdate() : query);
  if (!row) throw notFound("The warehouse", "warehouse.not_found", { ...key });
  return row;
}

export async function getWarehouse(db: Db, companyId: string, key: KeyInput): Promise<Warehouse> {
  return warehouseToApi(await findWarehouse(db, companyId, key));
}

export async function updateWarehouse(trx: Db, companyId: string, input: UpdateInput): Promise<Warehouse> {
  await lockDefault(trx, companyId);
  const current = await findWarehouse(trx, companyId, { id: input.id }, true);
  if (input.isDefault === false && current.is_default) {
    throw new ApiError("unprocessable", `The warehouse ${current.code} is the default; make another warehouse the default instead.`, {
      key: "warehouse.default_required",
      params: { id: current.id, code: current.code },
      fieldErrors: { isDefault: ["the company always has a default warehouse: set isDefault on another one"] },
    });
  }
  if (input.code !== undefined && input.code !== current.code) await refuseCodeChangeInUse(trx, companyId, current);
  if (input.isDefault === true && !current.is_default) {
    await trx("warehouses").where({ company_id: companyId, is_default: true }).update({ is_default: false, updated_at: trx.fn.now() });
  }
  const changes = {
    ...(input.code !== undefined ? { code: input.code } : {}),
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.isDefault === true ? { is_default: true } : {}),
  };
  try {
    const [row] = await trx<WarehousesRow>("warehouses")
      .where({ company_id: companyId, id: current.id })
      .update({ ...changes, updated_at: trx.fn.now() })
      .returning("*");
    return warehouseToApi(row);
  } catch (error) {
    if (uniqueViolation(error) === "warehouses_code_key") throw codeTaken(input.code!);
    throw error;
  }
}

/**
 * A warehouse's code changes only while nothing names it: invoice lines name their warehouse by code (drafts move
 * their stock when issued or registered, and a renamed code would leave them naming no warehouse), and the stock
 * history shows it on every movement. Once used, the code stays (409 `warehouse.code_in_use`); the name may change.
 */
async function refuseCodeChangeInUse(trx: Db, companyId: string, current: WarehousesRow) {
  const { rows } = await trx.raw<{ rows: { invoice_lines: boolean; movements: boolean }[] }>(
    `select exists (select 1 from sale_invoice_lines where company_id = ? and warehouse_code = ?)
              or exists (select 1 from purchase_invoice_lines where company_id = ? and warehouse_code = ?) as invoice_lines,
            exists (select 1 from stock_movements where company_id = ? and warehouse_id = ?) as movements`,
    [companyId, current.code, companyId, current.code, companyId, current.id],
  );
  const { invoice_lines: invoiceLines, movements } = rows[0];
  if (invoiceLines || movements) {
    const named = [invoiceLines ? "invoice lines" : null, movements ? "stock movements" : null].filter(Boolean).join(" and ");
    throw conflict(`The warehouse ${current.code} is named by ${named}; its code cannot change (its name can).`, "warehouse.code_in_use", {
      id: current.id,
      code: current.code,
      invoiceLines,
      movements,
    });
  }
}

const listSpec: ListSpec = {
  fields: {
    id: { column: "id", type: "uuid", sort: false },
    code: { column: "code", type: "string" },
    name: { column: "name", type: "string" },
    isDefault: { column: "is_default", type: "boolean" },
    createdAt: { column: "created_at", type: "timestamp" },
  },
  tieBreaker: "id",
  defaultSort: [{ field: "code", dir: "asc" }],
};

export async function listWarehouses(db: Db, companyId: string, request: ListRequest) {
  const result = await runList<WarehousesRow>(db, () => db("warehouses").where("company_id", companyId), listSpec, request, ["*"]);
  return { ...result, rows: result.rows.map(warehouseToApi) };
}

/**
 * The warehouses `codes` name, by code; the default warehouse under the key `""` when `withDefault`. A code that
 * names none is a 422 naming `fieldOf(code)`.
 */
export async function warehousesByCode(
  db: Db,
  companyId: string,
  codes: { code: string; field: string }[],
  withDefault = false,
): Promise<Map<string, WarehousesRow>> {
  const wanted = [...new Set(codes.map((c) => c.code))];
  const rows = await db<WarehousesRow>("warehouses")
    .where("company_id", companyId)
    .where((q) => {
      q.whereIn("code", wanted);
      if (withDefault) q.orWhere("is_default", true);
    });
  const byCode = new Map(rows.map((r) => [r.code, r]));
  const missing = codes.filter((c) => !byCode.has(c.code));
  if (missing.length) {
    throw new ApiError("unprocessable", `There is no warehouse ${missing[0].code}.`, {
      key: "warehouse.unknown",
      params: { warehouseCode: missing[0].code },
      fieldErrors: Object.fromEntries(missing.map((m) => [m.field, [`warehouse ${m.code} does not exist`]])),
    });
  }
  const fallback = rows.find((r) => r.is_default);
  if (withDefault && fallback) byCode.set("", fallback);
  return byCode;
}
