// Fixed assets (asset cards). Creating or changing one posts nothing: its cost reaches the ledger through a purchase
// invoice or a journal transaction (which it may name); the monthly run (depreciation.ts) and the disposal
// (disposal.ts) post. An asset may be created with its depreciation to date (an imported one): the run goes on from
// its remaining value over its remaining months.
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import type { AssetGroupsRow, FixedAssetsRow, JournalTransactionsRow } from "../db/rows.js";
import { uniqueViolation } from "../db/transaction.js";
import { Decimal, MAX_MONEY, formatDecimal } from "../shared/decimal.js";
import { ApiError, conflict, notFound, validationError, type FieldErrors } from "../shared/errors.js";
import { runList, type ListRequest, type ListSpec } from "../shared/list-engine.js";
import { lockCompanyAssets } from "./locks.js";

export type FixedAsset = components["schemas"]["Assets.FixedAsset"];
type CreateInput = components["schemas"]["Assets.FixedAssetCreateRequest"];
type UpdateInput = components["schemas"]["Assets.FixedAssetUpdateRequest"];

const money = (v: Decimal | string) => formatDecimal(v, "money");
export const yearMonth = (date: string) => date.slice(0, 7);

/** Lithuanian practice: depreciation starts on the first day of the month after the asset is put into use. */
export function depreciationStart(putIntoUseDate: string): string {
  const [y, m] = putIntoUseDate.split("-").map(Number);
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, "0")}-01`;
}

/** The month `months` after `month` (`YYYY-MM`; negative goes back). */
export function addMonths(month: string, months: number): string {
  const [y, m] = month.split("-").map(Number);
  const index = y * 12 + (m - 1) + months;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;
}

/**
 * The last month an asset's depreciation to date counts (`YYYY-MM`): its depreciation start month plus its opening
 * months − 1; null without depreciation to date. The monthly run never depreciates it for that month or an earlier
 * one (src/assets/depreciation.ts), and it cannot be disposed of before it.
 */
export function openingDepreciatedThrough(row: Pick<FixedAssetsRow, "opening_depreciated_months" | "depreciation_start_date">): string | null {
  return row.opening_depreciated_months > 0 ? addMonths(yearMonth(row.depreciation_start_date), row.opening_depreciated_months - 1) : null;
}

export function assetToApi(row: FixedAssetsRow): FixedAsset {
  const cost = new Decimal(row.acquisition_cost);
  const salvage = new Decimal(row.salvage_value);
  const accumulated = new Decimal(row.accumulated_depreciation);
  const disposed = row.status === "disposed";
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    description: row.description,
    groupCode: row.group_code,
    acquisitionDate: row.acquisition_date,
    putIntoUseDate: row.put_into_use_date,
    depreciationStartDate: row.depreciation_start_date,
    acquisitionCost: money(cost),
    salvageValue: money(salvage),
    depreciableValue: money(cost.minus(salvage)),
    usefulLifeMonths: row.useful_life_months,
    sourceTransactionId: row.source_transaction_id,
    openingAccumulatedDepreciation: money(row.opening_accumulated_depreciation),
    openingDepreciatedMonths: row.opening_depreciated_months,
    openingDepreciatedThrough: openingDepreciatedThrough(row),
    accumulatedDepreciation: money(accumulated),
    depreciatedMonths: row.depreciated_months,
    remainingMonths: row.status === "active" ? row.useful_life_months - row.depreciated_months : 0,
    netBookValue: money(disposed ? new Decimal(0) : cost.minus(accumulated)),
    lastDepreciatedMonth: row.last_depreciated_month ? yearMonth(row.last_depreciated_month) : null,
    status: row.status,
    // A disposed asset has all of these (fixed_assets_disposal_complete).
    disposal: disposed
      ? {
          date: row.disposal_date!,
          proceeds: money(row.disposal_proceeds!),
          accountCode: row.disposal_account_code,
          gainOrLoss: money(row.disposal_gain!),
          journalTransactionId: row.disposal_transaction_id!,
        }
      : null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export async function findAsset(db: Db, companyId: string, id: string, forUpdate = false): Promise<FixedAssetsRow> {
  const query = db<FixedAssetsRow>("fixed_assets").where({ company_id: companyId, id }).first();
  const row = await (forUpdate ? query.forUpdate() : query);
  if (!row) throw notFound("The fixed asset", "fixed_asset.not_found", { id });
  return row;
}

/** What an asset's figures are made of, as create or update would store them. */
interface Figures {
  groupCode: string;
  acquisitionDate: string;
  putIntoUseDate: string;
  acquisitionCost: string;
  salvageValue: string;
  usefulLifeMonths: number;
  sourceTransactionId: string | null;
  accumulatedDepreciation: string;
  depreciatedMonths: number;
}

const unprocessableFields = (message: string, key: string, fieldErrors: FieldErrors) => new ApiError("unprocessable", message, { key, fieldErrors });

/** The rules of the figures; returns the columns to store (status included). */
async function checkFigures(db: Db, companyId: string, f: Figures) {
  const cost = new Decimal(f.acquisitionCost);
  if (cost.isZero()) throw validationError({ acquisitionCost: ["must be above 0"] });
  const salvage = new Decimal(f.salvageValue);
  if (salvage.greaterThan(cost)) {
    throw unprocessableFields(`The salvage value ${money(salvage)} is above the cost ${money(cost)}.`, "fixed_asset.salvage_above_cost", {
      salvageValue: [`must be at most the acquisition cost ${money(cost)}`],
    });
  }
  if (f.putIntoUseDate < f.acquisitionDate) {
    throw unprocessableFields(
      `The asset cannot be put into use (${f.putIntoUseDate}) before it was acquired (${f.acquisitionDate}).`,
      "fixed_asset.put_into_use_before_acquisition",
      {
        putIntoUseDate: [`must be on or after the acquisition date ${f.acquisitionDate}`],
      },
    );
  }
  // Dates run to 2199-12-31 (spec/common.tsp, Date): an asset put into use in December 2199 would start in 2200.
  if (f.putIntoUseDate >= "2199-12-01") throw validationError({ putIntoUseDate: ["must be before December 2199 (depreciation starts the month after)"] });
  const depreciable = cost.minus(salvage);
  const accumulated = new Decimal(f.accumulatedDepreciation);
  if (accumulated.greaterThan(depreciable)) {
    throw unprocessableFields(
      `The accumulated depreciation ${money(accumulated)} is above the depreciable value ${money(depreciable)} (cost − salvage).`,
      "fixed_asset.accumulated_above_depreciable",
      {
        accumulatedDepreciation: [`must be at most the depreciable value ${money(depreciable)}`],
      },
    );
  }
  if (f.depreciatedMonths > f.usefulLifeMonths) {
    throw unprocessableFields(
      `${f.depreciatedMonths} months depreciated is more than the useful life of ${f.usefulLifeMonths} months.`,
      "fixed_asset.months_above_life",
      {
        depreciatedMonths: [`must be at most the useful life, ${f.usefulLifeMonths} months`],
      },
    );
  }
  if (f.depreciatedMonths === f.usefulLifeMonths && !accumulated.equals(depreciable)) {
    throw unprocessableFields(
      `The whole useful life (${f.usefulLifeMonths} months) is depreciated but only ${money(accumulated)} of ${money(depreciable)}; no month is left to depreciate the rest.`,
      "fixed_asset.depreciation_incomplete",
      { accumulatedDepreciation: [`must equal the depreciable value ${money(depreciable)} when every month of the useful life is depreciated`] },
    );
  }
  // Issue 22, defect 13: the largest month of an asset (its last, which takes the remainder) must stay below what one
  // journal transaction may carry. Straight-line months of an asset with two or more months left are at most about
  // half its value, so only a last month can reach it: the whole remaining value in one month.
  const remaining = depreciable.minus(accumulated);
  const monthsLeft = f.usefulLifeMonths - f.depreciatedMonths;
  if (monthsLeft === 1 && remaining.greaterThanOrEqualTo(MAX_MONEY)) {
    throw unprocessableFields(
      `The asset would depreciate ${money(remaining)} in one month, the largest amount one journal transaction may carry (${MAX_MONEY}); give it a longer useful life.`,
      "fixed_asset.monthly_charge_too_large",
      { usefulLifeMonths: [`leaves ${money(remaining)} to one month; a month's depreciation must stay below ${MAX_MONEY}`] },
    );
  }
  const group = await db<AssetGroupsRow>("asset_groups").where({ company_id: companyId, code: f.groupCode }).forShare().first("code");
  if (!group)
    throw unprocessableFields(`There is no asset group ${f.groupCode}.`, "fixed_asset.group_unknown", {
      groupCode: [`asset group ${f.groupCode} does not exist`],
    });
  if (f.sourceTransactionId) {
    const tx = await db<JournalTransactionsRow>("journal_transactions").where({ company_id: companyId, id: f.sourceTransactionId }).first("id");
    if (!tx) {
      throw unprocessableFields(`There is no journal transaction ${f.sourceTransactionId}.`, "fixed_asset.source_transaction_unknown", {
        sourceTransactionId: ["names no journal transaction of the company"],
      });
    }
  }
  return {
    group_code: f.groupCode,
    acquisition_date: f.acquisitionDate,
    put_into_use_date: f.putIntoUseDate,
    depreciation_start_date: depreciationStart(f.putIntoUseDate),
    acquisition_cost: cost.toFixed(2),
    salvage_value: salvage.toFixed(2),
    useful_life_months: f.usefulLifeMonths,
    source_transaction_id: f.sourceTransactionId,
    opening_accumulated_depreciation: accumulated.toFixed(2),
    opening_depreciated_months: f.depreciatedMonths,
    accumulated_depreciation: accumulated.toFixed(2),
    depreciated_months: f.depreciatedMonths,
    status: accumulated.equals(depreciable) ? "fully_depreciated" : "active",
  };
}

/** Depreciation to date comes as a pair: the amount and the months it covers. */
function openingPair(input: { accumulatedDepreciation?: string; depreciatedMonths?: number }): void {
  if ((input.accumulatedDepreciation === undefined) !== (input.depreciatedMonths === undefined)) {
    const missing = input.accumulatedDepreciation === undefined ? "accumulatedDepreciation" : "depreciatedMonths";
    throw unprocessableFields("Depreciation to date needs both accumulatedDepreciation and depreciatedMonths.", "fixed_asset.opening_incomplete", {
      [missing]: [`is required together with ${missing === "depreciatedMonths" ? "accumulatedDepreciation" : "depreciatedMonths"}`],
    });
  }
}

async function mapCodeTaken<T>(code: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (uniqueViolation(error) === "fixed_assets_code_key")
      throw conflict(`A fixed asset with code ${code} exists already.`, "fixed_asset.code_taken", { code });
    throw error;
  }
}

export async function createAsset(trx: Db, companyId: string, input: CreateInput): Promise<FixedAsset> {
  openingPair(input);
  const group = await trx<AssetGroupsRow>("asset_groups").where({ company_id: companyId, code: input.groupCode }).first("default_useful_life_months");
  if (!group)
    throw unprocessableFields(`There is no asset group ${input.groupCode}.`, "fixed_asset.group_unknown", {
      groupCode: [`asset group ${input.groupCode} does not exist`],
    });
  const columns = await checkFigures(trx, companyId, {
    groupCode: input.groupCode,
    acquisitionDate: input.acquisitionDate,
    putIntoUseDate: input.putIntoUseDate ?? input.acquisitionDate,
    acquisitionCost: input.acquisitionCost,
    salvageValue: input.salvageValue ?? "0",
    usefulLifeMonths: input.usefulLifeMonths ?? group.default_useful_life_months,
    sourceTransactionId: input.sourceTransactionId ?? null,
    accumulatedDepreciation: input.accumulatedDepreciation ?? "0",
    depreciatedMonths: input.depreciatedMonths ?? 0,
  });
  const [row]: FixedAssetsRow[] = await mapCodeTaken(input.code, () =>
    trx("fixed_assets")
      .insert({ company_id: companyId, code: input.code, name: input.name, description: input.description ?? null, ...columns })
      .returning("*"),
  );
  return assetToApi(row);
}

export async function getAsset(db: Db, companyId: string, id: string): Promise<FixedAsset> {
  return assetToApi(await findAsset(db, companyId, id));
}

const FIGURE_FIELDS = [
  "groupCode",
  "acquisitionDate",
  "putIntoUseDate",
  "acquisitionCost",
  "salvageValue",
  "usefulLifeMonths",
  "sourceTransactionId",
  "accumulatedDepreciation",
  "depreciatedMonths",
] as const;

export async function updateAsset(trx: Db, companyId: string, input: UpdateInput): Promise<FixedAsset> {
  const changing = FIGURE_FIELDS.filter((f) => input[f] !== undefined);
  // A change of the figures waits for a running month (and a month for it), so that no month is computed from
  // figures that change under it; taken before the row lock, in the order the run takes them.
  if (changing.length) await lockCompanyAssets(trx, companyId);
  const current = await findAsset(trx, companyId, input.id, true);
  let figures = {};
  if (changing.length) {
    if (current.status === "disposed") {
      throw conflict(`The asset ${current.code} is disposed; only its name and description may change.`, "fixed_asset.disposed", {
        id: current.id,
        fields: changing,
      });
    }
    if (current.last_depreciated_month) {
      throw conflict(
        `Depreciation of ${current.code} has been posted (up to ${yearMonth(current.last_depreciated_month)}); only its name and description may change.`,
        "fixed_asset.depreciation_posted",
        {
          id: current.id,
          lastDepreciatedMonth: yearMonth(current.last_depreciated_month),
          fields: changing,
        },
      );
    }
    const opening = {
      accumulatedDepreciation: input.accumulatedDepreciation ?? current.opening_accumulated_depreciation,
      depreciatedMonths: input.depreciatedMonths ?? current.opening_depreciated_months,
    };
    figures = await checkFigures(trx, companyId, {
      groupCode: input.groupCode ?? current.group_code,
      acquisitionDate: input.acquisitionDate ?? current.acquisition_date,
      putIntoUseDate: input.putIntoUseDate ?? current.put_into_use_date,
      acquisitionCost: input.acquisitionCost ?? current.acquisition_cost,
      salvageValue: input.salvageValue ?? current.salvage_value,
      usefulLifeMonths: input.usefulLifeMonths ?? current.useful_life_months,
      sourceTransactionId: input.sourceTransactionId === undefined ? current.source_transaction_id : input.sourceTransactionId,
      ...opening,
    });
  }
  const [row]: FixedAssetsRow[] = await trx("fixed_assets")
    .where({ company_id: companyId, id: current.id })
    .update({
      name: input.name ?? current.name,
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...figures,
      updated_at: trx.fn.now(),
    })
    .returning("*");
  return assetToApi(row);
}

const listSpec: ListSpec = {
  fields: {
    id: { column: "id", type: "uuid", sort: false },
    code: { column: "code", type: "string" },
    name: { column: "name", type: "string" },
    groupCode: { column: "group_code", type: "string" },
    status: { column: "status", type: "string" },
    acquisitionDate: { column: "acquisition_date", type: "date" },
    putIntoUseDate: { column: "put_into_use_date", type: "date" },
    depreciationStartDate: { column: "depreciation_start_date", type: "date" },
    acquisitionCost: { column: "acquisition_cost", type: "decimal", total: true },
    salvageValue: { column: "salvage_value", type: "decimal", total: true },
    accumulatedDepreciation: { column: "accumulated_depreciation", type: "decimal", total: true },
    netBookValue: { column: "(case when status = 'disposed' then 0 else acquisition_cost - accumulated_depreciation end)", type: "decimal", total: true },
    usefulLifeMonths: { column: "useful_life_months", type: "integer" },
    depreciatedMonths: { column: "depreciated_months", type: "integer" },
    createdAt: { column: "created_at", type: "timestamp" },
  },
  tieBreaker: "id",
  defaultSort: [{ field: "code", dir: "asc" }],
};

export async function listAssets(db: Db, companyId: string, request: ListRequest) {
  const result = await runList<FixedAssetsRow>(db, () => db("fixed_assets").where("company_id", companyId), listSpec, request, ["*"]);
  const totals = result.totals && Object.fromEntries(Object.entries(result.totals).map(([k, v]) => [k, money(v)]));
  return { ...result, rows: result.rows.map(assetToApi), ...(totals ? { totals } : {}) };
}
