// Disposal of a fixed asset (sale or write-off): its cost and accumulated depreciation leave the ledger, the proceeds
// are debited to the account the caller names, and the difference is a gain (`assets.disposalGain`, 5400) or a loss
// (`assets.disposalLoss`, 6400). Depreciation must be posted up to the month before the disposal month; the disposal
// month itself is depreciated only when its run was posted before the disposal (a month after it never is).
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import { Decimal, formatDecimal } from "../shared/decimal.js";
import { accountsForRules } from "../ledger/index.js";
import { ApiError, conflict, validationError, type FieldErrors } from "../shared/errors.js";
import { emitEvent } from "../events/index.js";
import { post, type PostingEntry } from "../ledger/index.js";
import { assetToApi, findAsset, openingDepreciatedThrough, yearMonth, type FixedAsset } from "./assets.js";
import { lastPostedMonth, nextMonth, previousMonth } from "./depreciation.js";
import { lockCompanyAssets } from "./locks.js";

type DisposeInput = components["schemas"]["Assets.FixedAssetDisposeRequest"];

const money = (v: Decimal | string) => formatDecimal(v, "money");
const unprocessableField = (message: string, key: string, fieldErrors: FieldErrors) => new ApiError("unprocessable", message, { key, fieldErrors });

/**
 * The asset a dispose request names: `id`, like every other operation, or `assetId`, its deprecated name (issue 28);
 * exactly one of them (400 `request.invalid` naming the field otherwise: the request's shape, like a missing field).
 */
function assetIdOf(input: DisposeInput): string {
  if (input.id !== undefined && input.assetId !== undefined) {
    throw validationError(
      { assetId: ["must not be sent together with id (assetId is the deprecated name of id)"] },
      "Send the asset as id or as assetId, not both.",
    );
  }
  const id = input.id ?? input.assetId;
  if (id === undefined) throw validationError({ id: ["is required"] });
  return id;
}

export async function disposeAsset(trx: Db, companyId: string, keyId: string, input: DisposeInput): Promise<FixedAsset> {
  const assetId = assetIdOf(input);
  await lockCompanyAssets(trx, companyId);
  const asset = await findAsset(trx, companyId, assetId, true);
  if (asset.status === "disposed") {
    throw conflict(`The asset ${asset.code} was disposed of on ${asset.disposal_date}.`, "fixed_asset.disposed", {
      id: asset.id,
      disposalDate: asset.disposal_date,
    });
  }
  if (input.date < asset.acquisition_date) {
    throw unprocessableField(
      `The asset ${asset.code} was acquired on ${asset.acquisition_date}; it cannot be disposed of before.`,
      "fixed_asset.disposal_before_acquisition",
      {
        date: [`must be on or after the acquisition date ${asset.acquisition_date}`],
      },
    );
  }
  const proceeds = new Decimal(input.proceeds ?? "0");
  if (!proceeds.isZero() && input.accountCode === undefined) {
    throw unprocessableField("Proceeds need the account they are debited to.", "fixed_asset.proceeds_account_required", {
      accountCode: ["is required when proceeds are above 0"],
    });
  }
  const proceedsAccount = proceeds.isZero() ? null : input.accountCode!;
  if (proceedsAccount) {
    const account = await trx("ledger_accounts").where({ company_id: companyId, code: proceedsAccount }).first("is_postable");
    if (!account?.is_postable) {
      throw unprocessableField(`Account ${proceedsAccount} ${account ? "is not postable" : "does not exist"}.`, "fixed_asset.disposal_account_invalid", {
        accountCode: [`account ${proceedsAccount} ${account ? "is not postable" : "does not exist"}`],
      });
    }
  }

  const month = yearMonth(input.date);
  const lastOfAsset = asset.last_depreciated_month ? yearMonth(asset.last_depreciated_month) : null;
  if (lastOfAsset && lastOfAsset > month) {
    throw conflict(
      `Depreciation of ${asset.code} is posted up to ${lastOfAsset}, after the disposal month ${month}; a posted month never changes.`,
      "fixed_asset.depreciated_after_disposal",
      {
        id: asset.id,
        lastDepreciatedMonth: lastOfAsset,
      },
    );
  }
  // Depreciation to date (an imported asset) that counts a month after the disposal month: that month too would be
  // depreciated after the disposal.
  const importedThrough = openingDepreciatedThrough(asset);
  if (importedThrough && importedThrough > month) {
    throw conflict(
      `The depreciation to date of ${asset.code} counts the months up to ${importedThrough}, after the disposal month ${month}.`,
      "fixed_asset.depreciated_after_disposal",
      {
        id: asset.id,
        lastDepreciatedMonth: importedThrough,
      },
    );
  }
  // An active asset that the run depreciates in the month before the disposal (from its start, or from the month
  // after its depreciation to date) needs that month (and every one before) posted.
  const before = previousMonth(month);
  const firstRunMonth = importedThrough ? nextMonth(importedThrough) : yearMonth(asset.depreciation_start_date);
  if (asset.status === "active" && firstRunMonth <= before) {
    const last = await lastPostedMonth(trx, companyId);
    if (last === null || last < before) {
      const first = last === null ? firstRunMonth : nextMonth(last);
      throw conflict(
        `Depreciation must be posted up to ${before} before ${asset.code} is disposed of in ${month}; post ${first} first.`,
        "fixed_asset.depreciation_behind",
        {
          id: asset.id,
          month: first,
          requiredThrough: before,
          lastPostedMonth: last,
        },
      );
    }
  }

  const group = await trx("asset_groups").where({ company_id: companyId, code: asset.group_code }).first("asset_account_code", "depreciation_account_code");
  const [gainAccount, lossAccount] = await accountsForRules(trx, companyId, ["assets.disposalGain", "assets.disposalLoss"]);
  const cost = new Decimal(asset.acquisition_cost);
  const accumulated = new Decimal(asset.accumulated_depreciation);
  const gain = proceeds.minus(cost.minus(accumulated));
  const line = (accountCode: string, side: "debit" | "credit", amount: Decimal, description: string): PostingEntry[] =>
    amount.isZero() ? [] : [{ accountCode, [side]: money(amount), description }];
  const entries = [
    ...line(group.depreciation_account_code, "debit", accumulated, "Accumulated depreciation"),
    ...(proceedsAccount ? line(proceedsAccount, "debit", proceeds, "Proceeds") : []),
    ...line(lossAccount, "debit", Decimal.max(gain.negated(), 0), "Loss on disposal"),
    ...line(group.asset_account_code, "credit", cost, "Cost"),
    ...line(gainAccount, "credit", Decimal.max(gain, 0), "Gain on disposal"),
  ];
  const transaction = await post(trx, {
    companyId,
    date: input.date,
    description: `Disposal of fixed asset ${asset.code} ${asset.name}`.slice(0, 1000),
    reference: asset.code,
    documentType: "asset_disposal",
    source: { type: "fixed_asset", id: asset.id },
    entries,
    createdByKeyId: keyId,
  });
  const [row] = await trx("fixed_assets")
    .where({ company_id: companyId, id: asset.id })
    .update({
      status: "disposed",
      disposal_date: input.date,
      disposal_proceeds: proceeds.toFixed(2),
      disposal_account_code: proceedsAccount,
      disposal_gain: gain.toFixed(2),
      disposal_transaction_id: transaction.id,
      updated_at: trx.fn.now(),
    })
    .returning("*");
  const disposed = assetToApi(row);
  await emitEvent(trx, companyId, "assets.asset_disposed", disposed);
  return disposed;
}
