// The shapes of the historical-books package and result (spec/migration.tsp), and what a check of a package leaves
// for the import to write: every row normalized (defaults applied, amounts converted), nothing read twice.
import type { components } from "../../generated/types.js";
import type { Decimal } from "../shared/decimal.js";
import type { BatchPosting, PostingEntry } from "../ledger/index.js";

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

/** A row's decimal fields as the database takes them: strings to the cent (plain data, which crosses threads as is). */
type Cents<T, K extends keyof T> = Omit<T, K> & { [P in K]: string };
export type InvoiceRow = Cents<NewInvoice, "net" | "vat" | "gross" | "grossBase" | "paid" | "outstanding">;
export type AssetRow = Cents<NewAsset, "cost" | "salvage" | "accumulated">;
export type StockRow = Cents<NewStockRow, "value">;
export type JournalRow = Cents<BatchPosting, "total">;

/**
 * A text[] parameter already in PostgreSQL's array syntax (`{"a","b"}`), with its length: made where the package is
 * (a worker thread), so that the event loop sends a string rather than serializing 20,000 codes itself.
 */
export interface PgTextArray {
  count: number;
  literal: string;
}

/**
 * What loadContext looks up for a package: the codes, numbers and months it names (booksDigest collects them where
 * the package is, so that only these lists, never the package, reach the thread that queries the database).
 */
export interface BooksLookups {
  partnerCodes: PgTextArray;
  itemCodes: PgTextArray;
  /** First days of the months the package writes into (`YYYY-MM-01`). */
  months: string[];
  payables: { partnerCodes: PgTextArray; documentNumbers: PgTextArray };
  /** The stock rows that name a lot (or serial) number. */
  tracked: { itemCodes: PgTextArray; lotNumbers: PgTextArray };
  receivableNumbers: PgTextArray;
  assetCodes: PgTextArray;
  /** The cut-over year, when the package has open receivables (their series); else null. */
  seriesYear: number | null;
  /** The package's fingerprint (digest.ts): the earlier imports of the same package. */
  fingerprint: string;
}

/** What the rest of an operation needs to know of a package before its checks: small, plain data. */
export interface BooksDigest {
  /** The sections the package has (for their scopes). */
  sections: (keyof BooksPackage)[];
  lookups: BooksLookups;
  fingerprint: string;
  cutoverDate: string;
  source: string | null;
  repeatOf: string | null;
}

/** An earlier import of a package with the same fingerprint (migration_imports). */
export interface EarlierImport {
  id: string;
  importedAt: string;
  repeatOf: string | null;
}

/** What the import writes, in order; built by checkBooks from a package that passed every check. Plain data. */
export interface Writes {
  accounts: NewAccount[];
  partners: { code: string; name: string; vatCode: string | null; isCustomer: boolean; isSupplier: boolean }[];
  items: {
    code: string;
    name: string;
    type: string;
    unit: string;
    barcode: string | null;
    vatRatePercent: string;
    salePrice: string | null;
    purchasePrice: string | null;
  }[];
  assetGroups: {
    code: string;
    name: string;
    assetAccountCode: string;
    depreciationAccountCode: string;
    expenseAccountCode: string;
    defaultUsefulLifeMonths: number;
  }[];
  opening: { date: string; description: string; entries: PostingEntry[] } | null;
  /** The company's opening-balance transaction from an earlier import, which migrated sale invoices link to. */
  existingOpeningId: string | null;
  journal: JournalRow[];
  series: { prefix: string; year: number; nextNumber: number }[];
  receivables: InvoiceRow[];
  payables: InvoiceRow[];
  assets: AssetRow[];
  stock: StockRow[];
  notes: string;
  cutoverDate: string;
}
