// Rule 12: the package's sub-ledgers against its own ledger (the opening balances, the balancing line included, and
// the historical journal), to the cent. A difference is a warning, not an error: the books being moved may well
// disagree, and the accountant decides. Compared only when the package carries ledger figures at all.
import { Decimal } from "../shared/decimal.js";
import type { BatchPosting, PostingEntry } from "../ledger/index.js";
import type { BooksPackage, MigrationWarning, NewAsset, NewInvoice, NewStockRow } from "./types.js";

interface SubLedgers {
  opening: PostingEntry[];
  journal: readonly { entries: BatchPosting["entries"] }[];
  receivables: NewInvoice[];
  payables: NewInvoice[];
  assets: NewAsset[];
  stock: NewStockRow[];
  groups: Map<string, { assetAccountCode: string; depreciationAccountCode: string }>;
  rules: { receivable: string; payables: string; stock: string };
}

const sum = (values: Decimal[]) => values.reduce((a, b) => a.plus(b), new Decimal(0));
const toBase = (amount: Decimal, rate: string) => amount.dividedBy(rate).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);

export function compareSubLedgers(pkg: BooksPackage, s: SubLedgers): MigrationWarning[] {
  if (!pkg.openingBalances && !pkg.journal?.length) return [];
  // debit − credit per account.
  const balance = new Map<string, Decimal>();
  const add = (e: { accountCode: string; debit?: string; credit?: string }) => {
    const amount = new Decimal(e.debit ?? 0).minus(e.credit ?? 0);
    balance.set(e.accountCode, (balance.get(e.accountCode) ?? new Decimal(0)).plus(amount));
  };
  s.opening.forEach(add);
  for (const t of s.journal) t.entries.forEach(add);
  const debitBalance = (code: string) => balance.get(code) ?? new Decimal(0);

  const warnings: MigrationWarning[] = [];
  const compare = (
    code: MigrationWarning["code"],
    section: string,
    accountCode: string,
    groupCode: string | null,
    expected: Decimal,
    actual: Decimal,
    what: string,
  ) => {
    const difference = actual.minus(expected);
    if (difference.isZero()) return;
    warnings.push({
      code,
      message: `${what} is ${expected.toFixed(2)}, but the balance of account ${accountCode} in the package is ${actual.toFixed(2)} (difference ${difference.toFixed(2)}).`,
      section,
      accountCode,
      groupCode,
      expected: expected.toFixed(2),
      actual: actual.toFixed(2),
      difference: difference.toFixed(2),
    });
  };
  if (pkg.openReceivables?.length) {
    const expected = sum(s.receivables.map((r) => toBase(r.outstanding, r.rate)));
    compare(
      "receivables_differ",
      "openReceivables",
      s.rules.receivable,
      null,
      expected,
      debitBalance(s.rules.receivable),
      "The outstanding total of openReceivables",
    );
  }
  if (pkg.openPayables?.length) {
    const expected = sum(s.payables.map((r) => toBase(r.outstanding, r.rate)));
    compare(
      "payables_differ",
      "openPayables",
      s.rules.payables,
      null,
      expected,
      debitBalance(s.rules.payables).negated(),
      "The outstanding total of openPayables",
    );
  }
  if (pkg.stock?.length) {
    compare("stock_differs", "stock", s.rules.stock, null, sum(s.stock.map((r) => r.value)), debitBalance(s.rules.stock), "The cost of stock");
  }
  const byGroup = new Map<string, NewAsset[]>();
  for (const a of s.assets) {
    if (!byGroup.has(a.groupCode)) byGroup.set(a.groupCode, []);
    byGroup.get(a.groupCode)!.push(a);
  }
  for (const [groupCode, assets] of [...byGroup].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const group = s.groups.get(groupCode);
    if (!group) continue;
    compare(
      "asset_cost_differs",
      "fixedAssets",
      group.assetAccountCode,
      groupCode,
      sum(assets.map((a) => a.cost)),
      debitBalance(group.assetAccountCode),
      `The cost of the fixed assets of group ${groupCode}`,
    );
    compare(
      "asset_depreciation_differs",
      "fixedAssets",
      group.depreciationAccountCode,
      groupCode,
      sum(assets.map((a) => a.accumulated)),
      debitBalance(group.depreciationAccountCode).negated(),
      `The accumulated depreciation of the fixed assets of group ${groupCode}`,
    );
  }
  return warnings;
}
