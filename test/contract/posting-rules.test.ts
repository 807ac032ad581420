// ledger/posting-rules: every rule listed with its default account of the lt-standard chart, pointing a rule to
// another postable account (and back), and the accounts a rule cannot use.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { startHarness, type ApiResponse, type Harness } from "../support/harness.js";
import { expectError } from "../support/expect.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const LIST = "/v1/ledger/posting-rules/list";
const UPDATE = "/v1/ledger/posting-rules/update";

// The contract's rule names with the lt-standard accounts they default to, and the type of that account.
const DEFAULTS: [rule: string, account: string, type: string][] = [
  ["assets.accumulatedDepreciation", "1247", "asset"],
  ["assets.depreciationExpense", "6206", "expense"],
  ["assets.disposalGain", "5400", "income"],
  ["assets.disposalLoss", "6400", "expense"],
  ["bank.account", "2710", "asset"],
  ["bank.cash", "2720", "asset"],
  ["bank.fees", "6314", "expense"],
  ["equity.currentYearResult", "3411", "equity"],
  ["equity.retainedEarnings", "3421", "equity"],
  ["fx.gain", "5803", "income"],
  ["fx.loss", "6803", "expense"],
  ["inventory.costOfSales", "6000", "expense"],
  ["inventory.countSurplus", "5401", "income"],
  ["inventory.stock", "2040", "asset"],
  ["inventory.writeOff", "63091", "expense"],
  ["opening.balancing", "999", "equity"],
  ["purchases.advancesPaid", "2080", "asset"],
  ["purchases.expense", "6312", "expense"],
  ["purchases.payables", "4430", "liability"],
  ["purchases.reverseChargeVatInput", "2441", "asset"],
  ["purchases.reverseChargeVatOutput", "4492", "liability"],
  ["purchases.vatNonDeductible", "63081", "expense"],
  ["purchases.vatReceivable", "2441", "asset"],
  ["sales.advancesReceived", "4420", "liability"],
  ["sales.discounts", "509", "income"],
  ["sales.receivable", "2410", "asset"],
  ["sales.revenue", "5000", "income"],
  ["sales.vatPayable", "4492", "liability"],
];

interface World {
  companyId: string;
  call(path: string, body: unknown): Promise<ApiResponse>;
}

async function world(): Promise<World> {
  const t = await h.tenant();
  const o = { key: t.apiKey, companyId: t.companyId };
  const w: World = { companyId: t.companyId, call: (path, body) => h.post(path, body, o) };
  const applied = await w.call("/v1/ledger/accounts/apply-template", { template: "lt-standard" });
  if (applied.status !== 200) throw new Error(JSON.stringify(applied.body));
  return w;
}


const stored = (companyId: string) => h.db("posting_rules").where({ company_id: companyId }).orderBy("rule").select("rule", "account_code");

describe("list", () => {
  let w: World;
  let rows: Record<string, any>[];
  beforeAll(async () => {
    w = await world();
    const res = await w.call(LIST, { pageSize: 100 });
    expect(res.status).toBe(200);
    rows = res.body.rows;
  });

  test("shows every rule, by rule name, each on its default; nothing is stored for defaults", async () => {
    expect(rows.map((r) => r.rule)).toEqual(DEFAULTS.map(([rule]) => rule));
    expect(await stored(w.companyId)).toEqual([]);
  });

  test.each(DEFAULTS)("%s defaults to %s, a postable %s account of the chart", async (rule, account, type) => {
    const row = rows.find((r) => r.rule === rule);
    expect(row).toEqual({ rule, accountCode: account, isDefault: true, defaultAccountCode: account, description: expect.stringMatching(/\S/) });
    expect(await h.db("ledger_accounts").where({ company_id: w.companyId, code: account }).first()).toMatchObject({ is_postable: true, type });
  });

  test.each([
    { name: "rule eq", body: { filter: [{ field: "rule", op: "eq", value: "inventory.stock" }] }, expected: ["inventory.stock"] },
    { name: "accountCode eq", body: { filter: [{ field: "accountCode", op: "eq", value: "2441" }] }, expected: ["purchases.reverseChargeVatInput", "purchases.vatReceivable"] },
    { name: "isDefault false", body: { filter: [{ field: "isDefault", op: "eq", value: false }] }, expected: [] },
    { name: "sort rule desc", body: { sort: [{ field: "rule", dir: "desc" }], pageSize: 2 }, expected: ["sales.vatPayable", "sales.revenue"] },
  ])("$name", async ({ body, expected }) => {
    const res = await w.call(LIST, body);
    expect(res.body.rows.map((r: { rule: string }) => r.rule)).toEqual(expected);
  });
});

describe("update", () => {
  test("points a rule to another postable account; the list shows it; back to the default is isDefault again", async () => {
    const w = await world();
    const res = await w.call(UPDATE, { rule: "sales.receivable", accountCode: "2720" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ rule: "sales.receivable", accountCode: "2720", isDefault: false, defaultAccountCode: "2410", description: expect.stringMatching(/\S/) });
    expect(await stored(w.companyId)).toEqual([{ rule: "sales.receivable", account_code: "2720" }]);
    const listed = await w.call(LIST, { filter: [{ field: "isDefault", op: "eq", value: false }] });
    expect(listed.body.rows).toEqual([res.body]);
    const others = await w.call(LIST, { pageSize: 100 });
    expect(others.body.rows.filter((r: { isDefault: boolean }) => r.isDefault)).toHaveLength(DEFAULTS.length - 1);

    const back = await w.call(UPDATE, { rule: "sales.receivable", accountCode: "2410" });
    expect(back.body).toMatchObject({ accountCode: "2410", isDefault: true });
    expect(await stored(w.companyId)).toEqual([{ rule: "sales.receivable", account_code: "2410" }]);
    expect((await w.call(LIST, { filter: [{ field: "isDefault", op: "eq", value: false }] })).body.rows).toEqual([]);
  });

  test("a rule may use an account created by the company", async () => {
    const w = await world();
    expect((await w.call("/v1/ledger/accounts/create", { code: "4432", name: "Skolos tiekėjams USD", type: "liability", parentCode: "443" })).status).toBe(200);
    const res = await w.call(UPDATE, { rule: "purchases.payables", accountCode: "4432" });
    expect(res.body).toMatchObject({ rule: "purchases.payables", accountCode: "4432", isDefault: false, defaultAccountCode: "4430" });
    expect(await stored(w.companyId)).toEqual([{ rule: "purchases.payables", account_code: "4432" }]);
  });

  test.each([
    { name: "an account that does not exist", body: { rule: "inventory.stock", accountCode: "9999" }, status: 422, code: "unprocessable", key: "posting_rule.account_invalid" },
    { name: "a header account", body: { rule: "inventory.stock", accountCode: "20" }, status: 422, code: "unprocessable", key: "posting_rule.account_invalid" },
    { name: "an account made non-postable", body: { rule: "inventory.stock", accountCode: "NP" }, status: 422, code: "unprocessable", key: "posting_rule.account_invalid" },
    { name: "an unknown rule", body: { rule: "sales.discount", accountCode: "2040" }, status: 400, code: "validation", field: "rule" },
    { name: "stock on an expense account", body: { rule: "inventory.stock", accountCode: "6000" }, status: 422, code: "unprocessable", key: "posting_rule.account_type_invalid" },
    { name: "a malformed account code", body: { rule: "inventory.stock", accountCode: "20-40" }, status: 400, code: "validation", field: "accountCode" },
    { name: "a missing account code", body: { rule: "inventory.stock" }, status: 400, code: "validation", field: "accountCode" },
    { name: "an unknown property", body: { rule: "inventory.stock", accountCode: "2040", isDefault: true }, status: 400, code: "validation", field: "isDefault" },
  ])("$name -> $status, the rule keeps its account", async ({ body, status, code, key, field }) => {
    const w = await world();
    expect((await w.call("/v1/ledger/accounts/create", { code: "NP", name: "Not postable", type: "asset", isPostable: false })).status).toBe(200);
    expect((await w.call(UPDATE, { rule: "inventory.stock", accountCode: "2030" })).status).toBe(200);
    const res = await w.call(UPDATE, body);
    expectError(res, status, code, key);
    if (field) expect(Object.keys(res.body.error.fieldErrors)).toEqual([field]);
    expect(await stored(w.companyId)).toEqual([{ rule: "inventory.stock", account_code: "2030" }]);
    const listed = await w.call(LIST, { filter: [{ field: "rule", op: "eq", value: "inventory.stock" }] });
    expect(listed.body.rows[0]).toMatchObject({ accountCode: "2030", isDefault: false });
  });

  test("another company's rules are untouched", async () => {
    const w = await world();
    const other = await world();
    expect((await w.call(UPDATE, { rule: "bank.fees", accountCode: "6802" })).status).toBe(200);
    expect(await stored(w.companyId)).toEqual([{ rule: "bank.fees", account_code: "6802" }]);
    expect(await stored(other.companyId)).toEqual([]);
    expect((await other.call(LIST, { filter: [{ field: "rule", op: "eq", value: "bank.fees" }] })).body.rows[0]).toMatchObject({ accountCode: "6314", isDefault: true });
  });
});

describe("rules are checked by account type as well as postability", () => {
  // Each rule against a postable account of a type it does not post to: 422, and the rule keeps its default.
  test.each([
    { rule: "sales.vatPayable", accountCode: "6312", accountType: "expense", name: "output VAT on an expense account" },
    { rule: "sales.vatPayable", accountCode: "2441", accountType: "asset", name: "output VAT on the input VAT account" },
    { rule: "purchases.vatReceivable", accountCode: "4492", accountType: "liability", name: "input VAT on the output VAT account" },
    { rule: "sales.receivable", accountCode: "5000", accountType: "income", name: "a receivable on revenue" },
    { rule: "sales.revenue", accountCode: "2410", accountType: "asset", name: "revenue on the receivable" },
    { rule: "purchases.expense", accountCode: "4430", accountType: "liability", name: "an expense on trade payables" },
    { rule: "purchases.payables", accountCode: "6000", accountType: "expense", name: "payables on cost of sales" },
    { rule: "assets.depreciationExpense", accountCode: "1247", accountType: "asset", name: "depreciation expense on accumulated depreciation" },
    { rule: "assets.accumulatedDepreciation", accountCode: "6206", accountType: "expense", name: "accumulated depreciation on the expense" },
    { rule: "fx.gain", accountCode: "6803", accountType: "expense", name: "FX gains on FX losses" },
    { rule: "opening.balancing", accountCode: "2710", accountType: "asset", name: "the opening interim on the bank" },
  ])("$name ($rule -> $accountCode) -> 422 posting_rule.account_type_invalid", async ({ rule, accountCode, accountType }) => {
    const w = await world();
    const res = await w.call(UPDATE, { rule, accountCode });
    expectError(res, 422, "unprocessable", "posting_rule.account_type_invalid");
    expect(res.body.error.params).toMatchObject({ rule, accountCode, accountType });
    expect(await stored(w.companyId)).toEqual([]);
  });

  test.each([
    { rule: "sales.vatPayable", accountCode: "4493", name: "output VAT on other taxes payable (a liability)" },
    { rule: "purchases.expense", accountCode: "6300", name: "the default expense on rent" },
    { rule: "purchases.vatNonDeductible", accountCode: "1240", name: "non-deductible VAT capitalised into equipment" },
    { rule: "assets.accumulatedDepreciation", accountCode: "1217", name: "accumulated depreciation of buildings" },
  ])("$name is accepted and stored", async ({ rule, accountCode }) => {
    const w = await world();
    expect((await w.call(UPDATE, { rule, accountCode })).status).toBe(200);
    expect(await stored(w.companyId)).toEqual([{ rule, account_code: accountCode }]);
  });
});
