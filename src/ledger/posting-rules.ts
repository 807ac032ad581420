// The posting rules: which account each automatic posting uses, with its default in the lt-standard chart and the
// account types it may point at (a rule is refused on an account of another type: output VAT cannot point at an
// expense account, a receivable at an income account).
// The store: the company's choice of account per rule (posting_rules), its list and update, and the look-ups every
// module posts through (accountForRule, accountsForRules).
import type { AccountType } from "./lt-standard.js";
import type { Db } from "../db/connection.js";
import type { LedgerAccountsRow, PostingRulesRow } from "../db/rows.js";
import type { components } from "../../generated/types.js";
import { Decimal } from "../shared/decimal.js";
import { POSTING_RULE_DEFAULT_ACCOUNTS as DEFAULT_ACCOUNTS } from "../shared/posting-rule-defaults.js";
import { conflict, unprocessable } from "../shared/errors.js";
import { runList, type ListRequest, type ListSpec } from "../shared/list-engine.js";
import { violatedConstraint } from "../db/transaction.js";

interface PostingRuleDefinition {
  defaultAccountCode: string;
  /** The account types the rule may point at. */
  types: readonly AccountType[];
  description: string;
}

const rule = (name: keyof typeof DEFAULT_ACCOUNTS, types: AccountType | AccountType[], description: string): PostingRuleDefinition => ({
  defaultAccountCode: DEFAULT_ACCOUNTS[name],
  types: Array.isArray(types) ? types : [types],
  description,
});

export const POSTING_RULES = {
  "sales.receivable": rule("sales.receivable", "asset", "Receivable of a sale invoice (debit)"),
  "sales.revenue": rule("sales.revenue", "income", "Revenue of a sale invoice line (credit)"),
  "sales.vatPayable": rule("sales.vatPayable", "liability", "Output VAT of a sale invoice (credit)"),
  "sales.discounts": rule("sales.discounts", "income", "Discounts and returns granted on sales, a contra-income account (debit)"),
  "sales.advancesReceived": rule("sales.advancesReceived", "liability", "Advances received from customers (credit)"),
  "purchases.payables": rule("purchases.payables", "liability", "Payable of a purchase invoice (credit)"),
  "purchases.expense": rule("purchases.expense", "expense", "Default expense of a purchase invoice line: other general and administrative expenses (debit)"),
  "purchases.vatReceivable": rule("purchases.vatReceivable", "asset", "Deductible input VAT of a purchase invoice (debit)"),
  "purchases.vatNonDeductible": rule(
    "purchases.vatNonDeductible",
    ["expense", "asset"],
    "Input VAT that may not be deducted, as an expense (debit; or an asset account when it is capitalised)",
  ),
  "purchases.advancesPaid": rule("purchases.advancesPaid", "asset", "Advances paid to suppliers (debit)"),
  "purchases.reverseChargeVatInput": rule("purchases.reverseChargeVatInput", "asset", "Input VAT the buyer calculates under the reverse charge (debit)"),
  "purchases.reverseChargeVatOutput": rule(
    "purchases.reverseChargeVatOutput",
    "liability",
    "Output VAT the buyer calculates under the reverse charge (credit)",
  ),
  "purchases.customsVatPayable": rule(
    "purchases.customsVatPayable",
    "liability",
    "Import VAT owed to customs on an import purchase's customs declaration (credit)",
  ),
  "inventory.stock": rule("inventory.stock", "asset", "Stock of goods (debit on receipt, credit on issue)"),
  "inventory.costOfSales": rule("inventory.costOfSales", "expense", "Cost of goods sold (debit on issue)"),
  "inventory.writeOff": rule("inventory.writeOff", "expense", "Stock written off, and shortages found by a stock count (debit)"),
  "inventory.countSurplus": rule(
    "inventory.countSurplus",
    ["income", "expense"],
    "Surpluses found by a stock count: other operating income (credit; or an expense account it reduces)",
  ),
  "inventory.goodsReceivedNotInvoiced": rule(
    "inventory.goodsReceivedNotInvoiced",
    "liability",
    "Goods received without a supplier's invoice: the credit of a stock receipt that names no counter account, cleared by a journal transaction when the invoice comes (credit)",
  ),
  "assets.depreciationExpense": rule("assets.depreciationExpense", "expense", "Depreciation expense of fixed assets (debit)"),
  "assets.accumulatedDepreciation": rule(
    "assets.accumulatedDepreciation",
    "asset",
    "Accumulated depreciation of fixed assets, a contra-asset account (credit)",
  ),
  "assets.disposalGain": rule("assets.disposalGain", "income", "Gain on the disposal of a fixed asset (credit)"),
  "assets.disposalLoss": rule("assets.disposalLoss", "expense", "Loss on the disposal of a fixed asset (debit)"),
  "bank.account": rule("bank.account", "asset", "Bank account (payments and receipts)"),
  "bank.cash": rule("bank.cash", "asset", "Cash on hand"),
  "bank.fees": rule("bank.fees", "expense", "Bank charges (debit)"),
  "fx.gain": rule("fx.gain", "income", "Foreign exchange gains (credit)"),
  "fx.loss": rule("fx.loss", "expense", "Foreign exchange losses (debit)"),
  "equity.retainedEarnings": rule("equity.retainedEarnings", "equity", "Profit (loss) of previous years"),
  "equity.currentYearResult": rule("equity.currentYearResult", "equity", "Profit (loss) of the current year"),
  "opening.balancing": rule(
    "opening.balancing",
    "equity",
    "Opening balances interim account: receives the difference of unbalanced opening balances (migration) and must reach zero",
  ),
} as const satisfies Record<string, PostingRuleDefinition>;

export type PostingRuleName = keyof typeof POSTING_RULES;

type PostingRule = components["schemas"]["Ledger.PostingRule"];

/** A rule of the catalogue with the company's account for it (the relation of `rules` below). */
interface RuleRow {
  rule: PostingRuleName;
  account_code: string;
  default_account_code: string;
  is_default: boolean;
}

const ruleToApi = (row: RuleRow): PostingRule => ({
  rule: row.rule,
  accountCode: row.account_code,
  isDefault: row.is_default,
  defaultAccountCode: row.default_account_code,
  description: POSTING_RULES[row.rule].description,
});

/** Every rule, with the company's account where it set one, else the default. */
function rules(db: Db, companyId: string) {
  const catalogue = Object.entries(POSTING_RULES);
  return db.from(
    db.raw(
      `(select c.rule, coalesce(r.account_code, c.default_code) as account_code, c.default_code as default_account_code,
               coalesce(r.account_code, c.default_code) = c.default_code as is_default
          from (values ${catalogue.map(() => "(?, ?)").join(", ")}) as c (rule, default_code)
          left join posting_rules r on r.company_id = ? and r.rule = c.rule) as p`,
      [...catalogue.flatMap(([rule, r]) => [rule, r.defaultAccountCode]), companyId],
    ),
  );
}

const listSpec: ListSpec = {
  fields: {
    rule: { column: "rule", type: "string" },
    accountCode: { column: "account_code", type: "string" },
    isDefault: { column: "is_default", type: "boolean" },
  },
  tieBreaker: "rule",
  defaultSort: [{ field: "rule", dir: "asc" }],
};

export async function listPostingRules(db: Db, companyId: string, request: ListRequest) {
  const result = await runList<RuleRow>(db, () => rules(db, companyId), listSpec, request, ["*"]);
  return { ...result, rows: result.rows.map(ruleToApi) };
}

/** The account a rule posts to, for the modules that post automatically. */
export async function accountForRule(db: Db, companyId: string, rule: PostingRuleName): Promise<string> {
  const row = await db<PostingRulesRow>("posting_rules").where({ company_id: companyId, rule }).first("account_code");
  return row?.account_code ?? POSTING_RULES[rule].defaultAccountCode;
}

/**
 * The stock rule's lock (per company): reading `inventory.stock` to post stock holds it shared until commit, and
 * repointing the rule holds it exclusively, so the rule cannot change between a stock operation's read of it and the
 * operation's commit, and a repointing sees every layer value committed before it (issue 22, item 11).
 */
const STOCK_RULE_LOCK = 7304;

/**
 * The accounts of several rules in one round trip, in the order asked. Asking for `inventory.stock` first takes the
 * stock rule's lock shared (a statement of its own: a statement reads what was committed when it began, so the rule
 * is read after the lock is granted), so that the account stays the stock account until this transaction commits.
 */
export async function accountsForRules(db: Db, companyId: string, names: PostingRuleName[]): Promise<string[]> {
  if (names.includes("inventory.stock")) await db.raw("select pg_advisory_xact_lock_shared(?, hashtext(?::text))", [STOCK_RULE_LOCK, companyId]);
  const rows = await db<PostingRulesRow>("posting_rules").where("company_id", companyId).whereIn("rule", names).select("rule", "account_code");
  const set = new Map(rows.map((r) => [r.rule, r.account_code]));
  return names.map((name) => set.get(name) ?? POSTING_RULES[name].defaultAccountCode);
}

/**
 * The account `inventory.stock` points at now, read under the stock rule's lock held exclusively (a stock operation
 * that read the rule commits before this goes on, and its layers count; one that reads it later waits for this
 * transaction), with the value the company's stock layers hold.
 */
async function stockRuleHeld(trx: Db, companyId: string): Promise<{ current: string; value: Decimal }> {
  // The lock first, in a statement of its own: the read after it sees what was committed before it was granted.
  await trx.raw("select pg_advisory_xact_lock(?, hashtext(?::text))", [STOCK_RULE_LOCK, companyId]);
  const { rows } = await trx.raw<{ rows: { current: string | null; value: string }[] }>(
    `select (select r.account_code from posting_rules r where r.company_id = ? and r.rule = 'inventory.stock') as current,
            (select coalesce(sum(s.value), 0) from stock_layer_sums s where s.company_id = ?)::text as value`,
    [companyId, companyId],
  );
  return { current: rows[0].current ?? POSTING_RULES["inventory.stock"].defaultAccountCode, value: new Decimal(rows[0].value) };
}

/**
 * 409 `posting_rule.stock_held`: `inventory.stock` is the account the layers' value was posted to; pointing the rule
 * elsewhere while they hold value would leave that value in the old account while issues credit the new one.
 */
const stockHeld = (current: string, requested: string, value?: Decimal) =>
  conflict(
    `The stock layers hold ${value === undefined ? "value" : `${value.toFixed(2)} EUR`} posted to account ${current} (rule inventory.stock): the rule cannot point at ${requested} while they do. Write the stock off first.`,
    "posting_rule.stock_held",
    { rule: "inventory.stock", accountCode: current, requestedAccountCode: requested, ...(value === undefined ? {} : { stockValue: value.toFixed(2) }) },
  );

export async function updatePostingRule(trx: Db, companyId: string, input: { rule: PostingRuleName; accountCode: string }): Promise<PostingRule> {
  const account = await trx<LedgerAccountsRow>("ledger_accounts")
    .where({ company_id: companyId, code: input.accountCode })
    .forShare()
    .first("is_postable", "type");
  if (!account?.is_postable) {
    throw unprocessable(`Account ${input.accountCode} ${account ? "is not postable" : "does not exist"}.`, "posting_rule.account_invalid", {
      rule: input.rule,
      accountCode: input.accountCode,
    });
  }
  const types: readonly string[] = POSTING_RULES[input.rule].types;
  if (!types.includes(account.type)) {
    throw unprocessable(
      `Rule ${input.rule} posts to an account of type ${types.join(" or ")}; ${input.accountCode} is ${account.type}.`,
      "posting_rule.account_type_invalid",
      {
        rule: input.rule,
        accountCode: input.accountCode,
        accountType: account.type,
        expectedTypes: [...types],
      },
    );
  }
  const defaultAccountCode = POSTING_RULES[input.rule].defaultAccountCode;
  const result: PostingRule = {
    rule: input.rule,
    accountCode: input.accountCode,
    isDefault: input.accountCode === defaultAccountCode,
    defaultAccountCode,
    description: POSTING_RULES[input.rule].description,
  };
  let current = "";
  if (input.rule === "inventory.stock") {
    let value: Decimal;
    ({ current, value } = await stockRuleHeld(trx, companyId));
    // Pointing the rule where it points already changes nothing and writes nothing.
    if (current === input.accountCode) return result;
    if (value.greaterThan(0)) throw stockHeld(current, input.accountCode, value);
  }
  await trx
    .raw(
      `insert into posting_rules (company_id, rule, account_code) values (?, ?, ?)
       on conflict (company_id, rule) do update set account_code = excluded.account_code, updated_at = now()`,
      [companyId, input.rule, input.accountCode],
    )
    .catch((error) => {
      // The database's own refusal (trigger posting_rules_stock_held, migration 20261127000401).
      if (violatedConstraint(error)?.constraint === "posting_rules_stock_held") throw stockHeld(current, input.accountCode);
      throw error;
    });
  return result;
}

/**
 * The rules that post to `accountCode` in this company: those set to it, and those on their default when the default
 * is it. An account change must keep each of them valid (ledger-accounts.ts).
 */
export async function rulesPostingTo(db: Db, companyId: string, accountCode: string): Promise<PostingRuleName[]> {
  const stored: { rule: PostingRuleName; account_code: string }[] = await db("posting_rules").where("company_id", companyId).select("rule", "account_code");
  const set = new Map(stored.map((r) => [r.rule, r.account_code]));
  return (Object.keys(POSTING_RULES) as PostingRuleName[]).filter((rule) => (set.get(rule) ?? POSTING_RULES[rule].defaultAccountCode) === accountCode);
}
