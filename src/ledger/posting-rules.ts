// The posting rules: which account each automatic posting uses, with its default in the lt-standard chart.
export const POSTING_RULES = {
  "sales.receivable": { defaultAccountCode: "2410", description: "Receivable of a sale invoice (debit)" },
  "sales.revenue": { defaultAccountCode: "5000", description: "Revenue of a sale invoice line (credit)" },
  "sales.vatPayable": { defaultAccountCode: "4492", description: "Output VAT of a sale invoice (credit)" },
  "purchases.payables": { defaultAccountCode: "4430", description: "Payable of a purchase invoice (credit)" },
  "purchases.expense": { defaultAccountCode: "6209", description: "Default expense of a purchase invoice line (debit)" },
  "purchases.vatReceivable": { defaultAccountCode: "2443", description: "Input VAT of a purchase invoice (debit)" },
  "inventory.stock": { defaultAccountCode: "2040", description: "Stock of goods (debit on receipt, credit on issue)" },
  "inventory.costOfSales": { defaultAccountCode: "6000", description: "Cost of goods sold (debit on issue)" },
  "assets.depreciationExpense": { defaultAccountCode: "6206", description: "Depreciation expense of fixed assets (debit)" },
  "bank.account": { defaultAccountCode: "2710", description: "Bank account (payments and receipts)" },
  "bank.cash": { defaultAccountCode: "2720", description: "Cash on hand" },
  "bank.fees": { defaultAccountCode: "6210", description: "Bank charges (debit)" },
  "fx.gain": { defaultAccountCode: "5803", description: "Foreign exchange gains (credit)" },
  "fx.loss": { defaultAccountCode: "6803", description: "Foreign exchange losses (debit)" },
  "equity.retainedEarnings": { defaultAccountCode: "3420", description: "Profit (loss) of previous years" },
  "equity.currentYearResult": { defaultAccountCode: "3410", description: "Profit (loss) of the current year" },
  "opening.balancing": { defaultAccountCode: "3420", description: "Difference of unbalanced opening balances (migration)" },
} as const;

export type PostingRuleName = keyof typeof POSTING_RULES;
