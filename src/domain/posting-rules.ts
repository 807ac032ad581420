import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import { unprocessable } from "../errors.js";
import { POSTING_RULES, type PostingRuleName } from "../ledger/posting-rules.js";
import { runList, type ListRequest, type ListSpec } from "../list/engine.js";

type PostingRule = components["schemas"]["Ledger.PostingRule"];

const ruleToApi = (row: Record<string, any>): PostingRule => ({
  rule: row.rule,
  accountCode: row.account_code,
  isDefault: row.is_default,
  defaultAccountCode: row.default_account_code,
  description: POSTING_RULES[row.rule as PostingRuleName].description,
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
  const result = await runList<Record<string, any>>(db, () => rules(db, companyId), listSpec, request, ["*"]);
  return { ...result, rows: result.rows.map(ruleToApi) };
}

/** The account a rule posts to, for the modules that post automatically. */
export async function accountForRule(db: Db, companyId: string, rule: PostingRuleName): Promise<string> {
  const row = await db("posting_rules").where({ company_id: companyId, rule }).first("account_code");
  return row?.account_code ?? POSTING_RULES[rule].defaultAccountCode;
}

/** The accounts of several rules in one round trip, in the order asked. */
export async function accountsForRules(db: Db, companyId: string, names: PostingRuleName[]): Promise<string[]> {
  const rows: { rule: string; account_code: string }[] = await db("posting_rules").where("company_id", companyId).whereIn("rule", names).select("rule", "account_code");
  const set = new Map(rows.map((r) => [r.rule, r.account_code]));
  return names.map((name) => set.get(name) ?? POSTING_RULES[name].defaultAccountCode);
}

export async function updatePostingRule(trx: Db, companyId: string, input: { rule: PostingRuleName; accountCode: string }): Promise<PostingRule> {
  const account = await trx("ledger_accounts").where({ company_id: companyId, code: input.accountCode }).forShare().first("is_postable", "type");
  if (!account || !account.is_postable) {
    throw unprocessable(`Account ${input.accountCode} ${account ? "is not postable" : "does not exist"}.`, "posting_rule.account_invalid", {
      rule: input.rule,
      accountCode: input.accountCode,
    });
  }
  const types: readonly string[] = POSTING_RULES[input.rule].types;
  if (!types.includes(account.type)) {
    throw unprocessable(`Rule ${input.rule} posts to an account of type ${types.join(" or ")}; ${input.accountCode} is ${account.type}.`, "posting_rule.account_type_invalid", {
      rule: input.rule,
      accountCode: input.accountCode,
      accountType: account.type,
      expectedTypes: [...types],
    });
  }
  await trx.raw(
    `insert into posting_rules (company_id, rule, account_code) values (?, ?, ?)
     on conflict (company_id, rule) do update set account_code = excluded.account_code, updated_at = now()`,
    [companyId, input.rule, input.accountCode],
  );
  const defaultAccountCode = POSTING_RULES[input.rule].defaultAccountCode;
  return { rule: input.rule, accountCode: input.accountCode, isDefault: input.accountCode === defaultAccountCode, defaultAccountCode, description: POSTING_RULES[input.rule].description };
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
