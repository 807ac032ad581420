// Asset groups: the accounts a group of fixed assets posts to (cost, accumulated depreciation, depreciation expense)
// and the useful life its assets take by default. The expense account defaults to the `assets.depreciationExpense`
// posting rule's account at the time the group is created.
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import type { AssetGroupsRow, FixedAssetsRow, LedgerAccountsRow } from "../db/rows.js";
import { uniqueViolation } from "../db/transaction.js";
import { accountForRule } from "../ledger/index.js";
import { ApiError, conflict, notFound, type FieldErrors } from "../shared/errors.js";
import { runList, type ListRequest, type ListSpec } from "../shared/list-engine.js";

export type AssetGroup = components["schemas"]["Assets.AssetGroup"];
type CreateInput = components["schemas"]["Assets.AssetGroupCreateRequest"];
type UpdateInput = components["schemas"]["Assets.AssetGroupUpdateRequest"];

const ASSET_COUNT = "(select count(*)::int from fixed_assets a where a.company_id = asset_groups.company_id and a.group_code = asset_groups.code)";

/** A group with the count of its assets (ASSET_COUNT; none on a group just created). */
type GroupRow = AssetGroupsRow & { asset_count?: number };

export function groupToApi(row: GroupRow): AssetGroup {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    assetAccountCode: row.asset_account_code,
    depreciationAccountCode: row.depreciation_account_code,
    expenseAccountCode: row.expense_account_code,
    defaultUsefulLifeMonths: row.default_useful_life_months,
    assetCount: row.asset_count ?? 0,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

const groupQuery = (db: Db, companyId: string) =>
  db("asset_groups")
    .where("company_id", companyId)
    .select("*", db.raw(`${ASSET_COUNT} as asset_count`));

export async function findGroup(db: Db, companyId: string, id: string, forUpdate = false): Promise<AssetGroupsRow> {
  const query = db<AssetGroupsRow>("asset_groups").where({ company_id: companyId, id }).first();
  const row = await (forUpdate ? query.forUpdate() : query);
  if (!row) throw notFound("The asset group", "asset_group.not_found", { id });
  return row;
}

const ACCOUNT_FIELDS = {
  assetAccountCode: { type: "asset", what: "the cost account" },
  depreciationAccountCode: { type: "asset", what: "the accumulated-depreciation account (a contra-asset account)" },
  expenseAccountCode: { type: "expense", what: "the depreciation expense account" },
} as const;

/** Every account named must exist, be postable and of its field's type; cost and accumulated depreciation differ. */
async function checkAccounts(db: Db, companyId: string, accounts: Partial<Record<keyof typeof ACCOUNT_FIELDS, string>>): Promise<void> {
  const codes = Object.values(accounts).filter((c): c is string => c !== undefined);
  const rows = await db<LedgerAccountsRow>("ledger_accounts")
    .where("company_id", companyId)
    .whereIn("code", codes)
    .forShare()
    .select("code", "type", "is_postable");
  const byCode = new Map(rows.map((r) => [r.code, r]));
  const errors: FieldErrors = {};
  for (const [field, code] of Object.entries(accounts) as [keyof typeof ACCOUNT_FIELDS, string | undefined][]) {
    if (code === undefined) continue;
    const account = byCode.get(code);
    const { type, what } = ACCOUNT_FIELDS[field];
    const problem = !account
      ? "does not exist"
      : !account.is_postable
        ? "is not postable"
        : account.type !== type
          ? `is of type ${account.type}; ${what} must be of type ${type}`
          : undefined;
    if (problem) errors[field] = [`account ${code} ${problem}`];
  }
  if (accounts.assetAccountCode !== undefined && accounts.assetAccountCode === accounts.depreciationAccountCode) {
    (errors.depreciationAccountCode ??= []).push("must differ from the cost account");
  }
  if (Object.keys(errors).length) {
    throw new ApiError("unprocessable", "An account of the group cannot be used.", { key: "asset_group.account_invalid", fieldErrors: errors });
  }
}

async function mapCodeTaken<T>(code: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (uniqueViolation(error) === "asset_groups_code_key")
      throw conflict(`An asset group with code ${code} exists already.`, "asset_group.code_taken", { code });
    throw error;
  }
}

export async function createGroup(trx: Db, companyId: string, input: CreateInput): Promise<AssetGroup> {
  const expenseAccountCode = input.expenseAccountCode ?? (await accountForRule(trx, companyId, "assets.depreciationExpense"));
  await checkAccounts(trx, companyId, { assetAccountCode: input.assetAccountCode, depreciationAccountCode: input.depreciationAccountCode, expenseAccountCode });
  const [row]: AssetGroupsRow[] = await mapCodeTaken(input.code, () =>
    trx("asset_groups")
      .insert({
        company_id: companyId,
        code: input.code,
        name: input.name,
        asset_account_code: input.assetAccountCode,
        depreciation_account_code: input.depreciationAccountCode,
        expense_account_code: expenseAccountCode,
        default_useful_life_months: input.defaultUsefulLifeMonths,
      })
      .returning("*"),
  );
  return groupToApi(row);
}

export async function getGroup(db: Db, companyId: string, id: string): Promise<AssetGroup> {
  const row: GroupRow | undefined = await groupQuery(db, companyId).andWhere("id", id).first();
  if (!row) throw notFound("The asset group", "asset_group.not_found", { id });
  return groupToApi(row);
}

export async function updateGroup(trx: Db, companyId: string, input: UpdateInput): Promise<AssetGroup> {
  const current = await findGroup(trx, companyId, input.id, true);
  const movesAccounts =
    (input.assetAccountCode !== undefined && input.assetAccountCode !== current.asset_account_code) ||
    (input.depreciationAccountCode !== undefined && input.depreciationAccountCode !== current.depreciation_account_code);
  if (movesAccounts) {
    const used = await trx<FixedAssetsRow>("fixed_assets").where({ company_id: companyId, group_code: current.code }).first("id");
    if (used) {
      throw conflict(
        `The group ${current.code} has assets; its cost and accumulated-depreciation accounts hold what was posted for them and cannot change.`,
        "asset_group.in_use",
        {
          id: current.id,
          code: current.code,
        },
      );
    }
  }
  const next = {
    assetAccountCode: input.assetAccountCode ?? current.asset_account_code,
    depreciationAccountCode: input.depreciationAccountCode ?? current.depreciation_account_code,
    expenseAccountCode: input.expenseAccountCode ?? current.expense_account_code,
  };
  await checkAccounts(trx, companyId, next);
  await trx("asset_groups")
    .where({ company_id: companyId, id: current.id })
    .update({
      name: input.name ?? current.name,
      asset_account_code: next.assetAccountCode,
      depreciation_account_code: next.depreciationAccountCode,
      expense_account_code: next.expenseAccountCode,
      default_useful_life_months: input.defaultUsefulLifeMonths ?? current.default_useful_life_months,
      updated_at: trx.fn.now(),
    });
  return getGroup(trx, companyId, current.id);
}

const listSpec: ListSpec = {
  fields: {
    id: { column: "id", type: "uuid", sort: false },
    code: { column: "code", type: "string" },
    name: { column: "name", type: "string" },
    assetAccountCode: { column: "asset_account_code", type: "string" },
    depreciationAccountCode: { column: "depreciation_account_code", type: "string" },
    expenseAccountCode: { column: "expense_account_code", type: "string" },
    defaultUsefulLifeMonths: { column: "default_useful_life_months", type: "integer" },
    createdAt: { column: "created_at", type: "timestamp" },
  },
  tieBreaker: "id",
  defaultSort: [{ field: "code", dir: "asc" }],
};

export async function listGroups(db: Db, companyId: string, request: ListRequest) {
  const result = await runList<GroupRow>(db, () => db.from(groupQuery(db, companyId).as("g")), listSpec, request, ["*"]);
  return { ...result, rows: result.rows.map(groupToApi) };
}
