// Catalog items: a company's goods and services with their default VAT classifier and rate, and prices. Prices and rates are
// decimal strings in and out and `numeric` in Postgres; nothing here turns them into JS numbers.
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import type { CatalogItemsRow, LedgerAccountsRow } from "../db/rows.js";
import { foreignKeyViolation, uniqueViolation } from "../db/transaction.js";
import { formatDecimal } from "../shared/decimal.js";
import { conflict, notFound, unprocessable, validationError, type FieldErrors } from "../shared/errors.js";
import type { CompanyContext } from "../auth/principal.js";
import { runList, type ListRequest, type ListSpec } from "../shared/list-engine.js";
import { barcodeProblem, throwRuleFailures } from "../shared/identifiers.js";
import { itemClassifier } from "../reference/index.js";

type CatalogItem = components["schemas"]["Catalog.CatalogItem"];
type CreateInput = components["schemas"]["Catalog.CatalogItemCreateRequest"];
type UpdateInput = components["schemas"]["Catalog.CatalogItemUpdateRequest"];
type KeyInput = components["schemas"]["Catalog.CatalogItemKey"];

const COLUMNS = {
  code: "code",
  name: "name",
  type: "type",
  unit: "unit",
  barcode: "barcode",
  vatRatePercent: "vat_rate_percent",
  vatClassifier: "vat_classifier",
  salePriceExclVat: "sale_price_excl_vat",
  purchasePriceExclVat: "purchase_price_excl_vat",
  tracking: "tracking",
  revenueAccountCode: "revenue_account_code",
  expenseAccountCode: "expense_account_code",
  active: "active",
} as const;
type Field = keyof typeof COLUMNS;

const price = (value: string | null) => (value === null ? null : formatDecimal(value, "unitPrice"));

export function catalogItemToApi(row: CatalogItemsRow): CatalogItem {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    type: row.type,
    unit: row.unit,
    barcode: row.barcode,
    vatRatePercent: formatDecimal(row.vat_rate_percent, "percent"),
    vatClassifier: row.vat_classifier,
    salePriceExclVat: price(row.sale_price_excl_vat),
    purchasePriceExclVat: price(row.purchase_price_excl_vat),
    tracking: row.tracking,
    revenueAccountCode: row.revenue_account_code,
    expenseAccountCode: row.expense_account_code,
    active: row.active,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/**
 * Barcode check digits, and the VAT classifier with its rate (422, each failing field named). `effective` is the
 * item as it will be (the current row with the changes): the classifier and rate are checked together whenever either
 * changes. Returns the classifier to store (the one the rate names when none was sent) when the VAT changes.
 */
async function checkRules(
  db: Db,
  company: CompanyContext,
  input: Partial<Record<Field, unknown>>,
  effective: { vatRatePercent: string; vatClassifier?: string | null },
): Promise<{ vatClassifier?: string | null }> {
  const errors: FieldErrors = {};
  const keys: Record<string, string> = {};
  if (typeof input.barcode === "string") {
    const problem = barcodeProblem(input.barcode);
    if (problem) (errors.barcode = [problem]), (keys.barcode = "barcode.invalid_checksum");
  }
  let vat: { vatClassifier?: string | null } = {};
  if (input.vatRatePercent !== undefined || input.vatClassifier !== undefined) {
    const result = await itemClassifier(db, company.countryCode, { classifier: effective.vatClassifier, ratePercent: effective.vatRatePercent });
    if ("field" in result) (errors[result.field] = [result.message]), (keys[result.field] = result.key);
    else vat = { vatClassifier: result.classifier };
  }
  for (const problem of await accountProblems(db, company.id, input))
    (errors[problem.field] = [problem.message]), (keys[problem.field] = "catalog_item.account_invalid");
  throwRuleFailures(errors, keys, "catalog_item.invalid_fields");
  return vat;
}

// The types a line of each side posts to (src/invoicing/documents.ts checks a line's own account the same way).
const ACCOUNT_FIELDS = [
  { field: "revenueAccountCode", types: ["income"], purpose: "a sales line posts its revenue to an income account" },
  { field: "expenseAccountCode", types: ["expense", "asset"], purpose: "a purchase line posts its cost to an expense or asset account" },
] as const;

/** The item's default accounts that are sent: each must exist, take postings and be of its side's type. */
async function accountProblems(db: Db, companyId: string, input: Partial<Record<Field, unknown>>) {
  const sent = ACCOUNT_FIELDS.filter((f) => typeof input[f.field] === "string");
  if (sent.length === 0) return [];
  const rows: Pick<LedgerAccountsRow, "code" | "type" | "is_postable">[] = await db<LedgerAccountsRow>("ledger_accounts")
    .where("company_id", companyId)
    .whereIn(
      "code",
      sent.map((f) => input[f.field] as string),
    )
    .select("code", "type", "is_postable");
  return sent.flatMap((f) => {
    const code = input[f.field] as string;
    const account = rows.find((r) => r.code === code);
    const message = !account
      ? `account ${code} does not exist`
      : !account.is_postable
        ? `account ${code} is a header account and takes no postings`
        : !(f.types as readonly string[]).includes(account.type)
          ? `account ${code} is of type ${account.type}; ${f.purpose}`
          : undefined;
    return message ? [{ field: f.field, message }] : [];
  });
}

const toColumns = (input: Partial<Record<Field, unknown>>) =>
  Object.fromEntries(
    Object.entries(COLUMNS)
      .filter(([field]) => input[field as Field] !== undefined)
      .map(([field, column]) => [column, input[field as Field]]),
  );

const codeTaken = (code: string) => conflict(`A catalog item with code ${code} already exists.`, "catalog_item.code_taken", { code });
const referenced = (row: Pick<CatalogItemsRow, "id" | "code">, action: string) =>
  conflict(`The catalog item ${row.code} is referenced by other records; it cannot be ${action}.`, "catalog_item.referenced", { id: row.id, code: row.code });

/** Constraint violations that the contract's patterns should have prevented; mapped so they are never a 500. */
function mapWriteError(error: unknown, code: string | undefined, current?: CatalogItemsRow): never {
  if (uniqueViolation(error) === "catalog_items_company_code_key") throw codeTaken(code!);
  const account = ACCOUNT_FIELDS.find(
    (f) => foreignKeyViolation(error) === `catalog_items_${f.field === "revenueAccountCode" ? "revenue" : "expense"}_account_fkey`,
  );
  if (account) throw unprocessable(`The account of ${account.field} changed while the item was written; retry.`, "catalog_item.account_invalid", {});
  if (current && foreignKeyViolation(error) !== undefined) throw referenced(current, "given another code");
  throw error;
}

export async function createCatalogItem(trx: Db, company: CompanyContext, input: CreateInput): Promise<CatalogItem> {
  const vat = await checkRules(trx, company, input, input);
  try {
    const [row] = await trx<CatalogItemsRow>("catalog_items")
      .insert({ company_id: company.id, ...toColumns({ ...input, ...vat }) })
      .returning("*");
    return catalogItemToApi(row);
  } catch (error) {
    mapWriteError(error, input.code);
  }
}

async function findItem(db: Db, companyId: string, key: KeyInput, forUpdate = false): Promise<CatalogItemsRow> {
  if ((key.id === undefined) === (key.code === undefined)) {
    const message = "send exactly one of id and code";
    throw validationError({ id: [message], code: [message] }, "Name the item by id or by code.");
  }
  const where = key.id !== undefined ? { company_id: companyId, id: key.id } : { company_id: companyId, code: key.code };
  const query = db<CatalogItemsRow>("catalog_items").where(where).first();
  const row = await (forUpdate ? query.forUpdate() : query);
  if (!row) throw notFound("The catalog item", "catalog_item.not_found", key.id !== undefined ? { id: key.id } : { code: key.code });
  return row;
}

export async function getCatalogItem(db: Db, companyId: string, key: KeyInput): Promise<CatalogItem> {
  return catalogItemToApi(await findItem(db, companyId, key));
}

export async function updateCatalogItem(trx: Db, company: CompanyContext, input: UpdateInput): Promise<CatalogItem> {
  const { id, ...changes } = input;
  const current = await findItem(trx, company.id, { id }, true);
  // A new rate without a classifier is named afresh by its rate; a new classifier keeps the current rate.
  const effective = {
    vatRatePercent: changes.vatRatePercent ?? current.vat_rate_percent,
    vatClassifier: changes.vatClassifier !== undefined ? changes.vatClassifier : changes.vatRatePercent !== undefined ? undefined : current.vat_classifier,
  };
  const vat = await checkRules(trx, company, changes, effective);
  const columns = toColumns({ ...changes, ...vat });
  if (Object.keys(columns).length === 0) return catalogItemToApi(current);
  try {
    const [row] = await trx<CatalogItemsRow>("catalog_items")
      .where({ company_id: company.id, id })
      .update({ ...columns, updated_at: trx.fn.now() })
      .returning("*");
    return catalogItemToApi(row);
  } catch (error) {
    mapWriteError(error, changes.code, current);
  }
}

export async function deleteCatalogItem(trx: Db, companyId: string, key: KeyInput): Promise<CatalogItem> {
  const current = await findItem(trx, companyId, key, true);
  try {
    await trx("catalog_items").where({ company_id: companyId, id: current.id }).delete();
  } catch (error) {
    if (foreignKeyViolation(error) !== undefined) throw referenced(current, "deleted");
    throw error;
  }
  return catalogItemToApi(current);
}

const catalogItemListSpec: ListSpec = {
  fields: {
    id: { column: "id", type: "uuid", sort: false },
    code: { column: "code", type: "string" },
    name: { column: "name", type: "string" },
    type: { column: "type", type: "string" },
    unit: { column: "unit", type: "string" },
    barcode: { column: "barcode", type: "string" },
    tracking: { column: "tracking", type: "string" },
    revenueAccountCode: { column: "revenue_account_code", type: "string" },
    expenseAccountCode: { column: "expense_account_code", type: "string" },
    vatRatePercent: { column: "vat_rate_percent", type: "decimal" },
    vatClassifier: { column: "vat_classifier", type: "string" },
    salePriceExclVat: { column: "sale_price_excl_vat", type: "decimal", total: true },
    purchasePriceExclVat: { column: "purchase_price_excl_vat", type: "decimal", total: true },
    active: { column: "active", type: "boolean" },
    createdAt: { column: "created_at", type: "timestamp" },
    updatedAt: { column: "updated_at", type: "timestamp" },
  },
  tieBreaker: "id",
  defaultSort: [{ field: "code", dir: "asc" }],
};

export async function listCatalogItems(db: Db, companyId: string, request: ListRequest) {
  const result = await runList<CatalogItemsRow>(db, () => db("catalog_items").where("company_id", companyId), catalogItemListSpec, request, ["*"]);
  return { ...result, rows: result.rows.map(catalogItemToApi) };
}
