// The shapes of the historical-books package and result (spec/migration.tsp), and what a check of a package leaves
// for the import to write: every row normalized (defaults applied, amounts converted), nothing read twice.
import type { components } from "../../generated/types.js";
import type { Decimal } from "../decimal.js";
import type { BatchPosting, PostingEntry } from "../ledger/posting.js";

export type BooksPackage = components["schemas"]["Migration.BooksPackage"];
export type BooksResult = components["schemas"]["Migration.BooksResult"];
export type MigrationWarning = components["schemas"]["Migration.MigrationWarning"];
export type MigratedNumberSeries = components["schemas"]["Migration.MigratedNumberSeries"];

export interface NewAccount {
  code: string;
  name: string;
  type: string;
  parentCode: string | null;
  isPostable: boolean;
  statementLine: string | null;
  saftAccountTableId: string | null;
  saftAccountType: string;
}

export interface NewInvoice {
  partnerCode: string;
  number: string;
  seriesPrefix: string;
  issueDate: string;
  dueDate: string;
  currency: string;
  rate: string;
  rateSource: "base" | "override";
  net: Decimal;
  vat: Decimal;
  gross: Decimal;
  grossBase: Decimal;
  paid: Decimal;
  outstanding: Decimal;
}

export interface NewAsset {
  code: string;
  name: string;
  groupCode: string;
  acquisitionDate: string;
  depreciationStartDate: string;
  cost: Decimal;
  salvage: Decimal;
  usefulLifeMonths: number;
  accumulated: Decimal;
  depreciatedMonths: number;
  status: "active" | "fully_depreciated";
}

export interface NewStockRow {
  itemCode: string;
  warehouseId: string;
  quantity: string;
  unitCost: string;
  value: Decimal;
  lotNumber: string | null;
  serialNumber: string | null;
  expiryDate: string | null;
}

/** What the import writes, in order; built by planBooks from a package that passed every check. */
export interface Writes {
  accounts: NewAccount[];
  partners: { code: string; name: string; vatCode: string | null; isCustomer: boolean; isSupplier: boolean }[];
  items: { code: string; name: string; type: string; unit: string; barcode: string | null; vatRatePercent: string; salePrice: string | null; purchasePrice: string | null }[];
  assetGroups: { code: string; name: string; assetAccountCode: string; depreciationAccountCode: string; expenseAccountCode: string; defaultUsefulLifeMonths: number }[];
  opening: { date: string; description: string; entries: PostingEntry[] } | null;
  /** The company's opening-balance transaction from an earlier import, which migrated sale invoices link to. */
  existingOpeningId: string | null;
  journal: BatchPosting[];
  series: { prefix: string; year: number; nextNumber: number }[];
  receivables: NewInvoice[];
  payables: NewInvoice[];
  assets: NewAsset[];
  stock: NewStockRow[];
  notes: string;
  cutoverDate: string;
}
