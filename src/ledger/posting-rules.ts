// The posting rules: which account each automatic posting uses, with its default in the lt-standard chart and the
// account types it may point at (a rule is refused on an account of another type: output VAT cannot point at an
// expense account, a receivable at an income account).
import type { AccountType } from "./lt-standard.js";

interface PostingRule {
  defaultAccountCode: string;
  /** The account types the rule may point at. */
  types: readonly AccountType[];
  description: string;
}

const rule = (defaultAccountCode: string, types: AccountType | AccountType[], description: string): PostingRule => ({
  defaultAccountCode,
  types: Array.isArray(types) ? types : [types],
  description,
});

export const POSTING_RULES = {
  "sales.receivable": rule("2410", "asset", "Receivable of a sale invoice (debit)"),
  "sales.revenue": rule("5000", "income", "Revenue of a sale invoice line (credit)"),
  "sales.vatPayable": rule("4492", "liability", "Output VAT of a sale invoice (credit)"),
  "sales.discounts": rule("509", "income", "Discounts and returns granted on sales, a contra-income account (debit)"),
  "sales.advancesReceived": rule("4420", "liability", "Advances received from customers (credit)"),
  "purchases.payables": rule("4430", "liability", "Payable of a purchase invoice (credit)"),
  "purchases.expense": rule("6312", "expense", "Default expense of a purchase invoice line: other general and administrative expenses (debit)"),
  "purchases.vatReceivable": rule("2441", "asset", "Deductible input VAT of a purchase invoice (debit)"),
  "purchases.vatNonDeductible": rule("63081", ["expense", "asset"], "Input VAT that may not be deducted, as an expense (debit; or an asset account when it is capitalised)"),
  "purchases.advancesPaid": rule("2080", "asset", "Advances paid to suppliers (debit)"),
  "purchases.reverseChargeVatInput": rule("2441", "asset", "Input VAT the buyer calculates under the reverse charge (debit)"),
  "purchases.reverseChargeVatOutput": rule("4492", "liability", "Output VAT the buyer calculates under the reverse charge (credit)"),
  "inventory.stock": rule("2040", "asset", "Stock of goods (debit on receipt, credit on issue)"),
  "inventory.costOfSales": rule("6000", "expense", "Cost of goods sold (debit on issue)"),
  "inventory.writeOff": rule("63091", "expense", "Stock written off, and shortages found by a stock count (debit)"),
  "inventory.countSurplus": rule("5401", ["income", "expense"], "Surpluses found by a stock count: other operating income (credit; or an expense account it reduces)"),
  "inventory.goodsReceivedNotInvoiced": rule("4431", "liability", "Goods received without a supplier's invoice: the credit of a stock receipt that names no counter account, cleared by a journal transaction when the invoice comes (credit)"),
  "assets.depreciationExpense": rule("6206", "expense", "Depreciation expense of fixed assets (debit)"),
  "assets.accumulatedDepreciation": rule("1247", "asset", "Accumulated depreciation of fixed assets, a contra-asset account (credit)"),
  "assets.disposalGain": rule("5400", "income", "Gain on the disposal of a fixed asset (credit)"),
  "assets.disposalLoss": rule("6400", "expense", "Loss on the disposal of a fixed asset (debit)"),
  "bank.account": rule("2710", "asset", "Bank account (payments and receipts)"),
  "bank.cash": rule("2720", "asset", "Cash on hand"),
  "bank.fees": rule("6314", "expense", "Bank charges (debit)"),
  "fx.gain": rule("5803", "income", "Foreign exchange gains (credit)"),
  "fx.loss": rule("6803", "expense", "Foreign exchange losses (debit)"),
  "equity.retainedEarnings": rule("3421", "equity", "Profit (loss) of previous years"),
  "equity.currentYearResult": rule("3411", "equity", "Profit (loss) of the current year"),
  "opening.balancing": rule("999", "equity", "Opening balances interim account: receives the difference of unbalanced opening balances (migration) and must reach zero"),
} as const satisfies Record<string, PostingRule>;

export type PostingRuleName = keyof typeof POSTING_RULES;
