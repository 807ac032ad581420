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

// The contract's rule names with the lt-standard accounts they default to.
const DEFAULTS: [rule: string, account: string][] = [
  ["assets.depreciationExpense", "6206"],
  ["bank.account", "2710"],
  ["bank.cash", "2720"],
  ["bank.fees", "6210"],
  ["equity.currentYearResult", "3410"],
  ["equity.retainedEarnings", "3420"],
  ["fx.gain", "5803"],
  ["fx.loss", "6803"],
  ["inventory.costOfSales", "6000"],
  ["inventory.stock", "2040"],
  ["opening.balancing", "3420"],
  ["purchases.expense", "6209"],
  ["purchases.payables", "4430"],
  ["purchases.vatReceivable", "2443"],
  ["sales.receivable", "2410"],
  ["sales.revenue", "5000"],
  ["sales.vatPayable", "4492"],
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

  test.each(DEFAULTS)("%s defaults to %s, a postable account of the chart", async (rule, account) => {
    const row = rows.find((r) => r.rule === rule);
    expect(row).toEqual({ rule, accountCode: account, isDefault: true, defaultAccountCode: account, description: expect.stringMatching(/\S/) });
    expect(await h.db("ledger_accounts").where({ company_id: w.companyId, code: account }).first()).toMatchObject({ is_postable: true });
  });

  test.each([
    { name: "rule eq", body: { filter: [{ field: "rule", op: "eq", value: "inventory.stock" }] }, expected: ["inventory.stock"] },
    { name: "accountCode eq", body: { filter: [{ field: "accountCode", op: "eq", value: "3420" }] }, expected: ["equity.retainedEarnings", "opening.balancing"] },
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
    expect((await w.call("/v1/ledger/accounts/create", { code: "4431", name: "Skolos tiekėjams EUR", type: "liability", parentCode: "44" })).status).toBe(200);
    const res = await w.call(UPDATE, { rule: "purchases.payables", accountCode: "4431" });
    expect(res.body).toMatchObject({ rule: "purchases.payables", accountCode: "4431", isDefault: false, defaultAccountCode: "4430" });
    expect(await stored(w.companyId)).toEqual([{ rule: "purchases.payables", account_code: "4431" }]);
  });

  test.each([
    { name: "an account that does not exist", body: { rule: "inventory.stock", accountCode: "9999" }, status: 422, code: "unprocessable", key: "posting_rule.account_invalid" },
    { name: "a header account", body: { rule: "inventory.stock", accountCode: "20" }, status: 422, code: "unprocessable", key: "posting_rule.account_invalid" },
    { name: "an account made non-postable", body: { rule: "inventory.stock", accountCode: "NP" }, status: 422, code: "unprocessable", key: "posting_rule.account_invalid" },
    { name: "an unknown rule", body: { rule: "sales.discount", accountCode: "2040" }, status: 400, code: "validation", field: "rule" },
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
    await w.call(UPDATE, { rule: "bank.fees", accountCode: "6209" });
    expect(await stored(other.companyId)).toEqual([]);
    expect((await other.call(LIST, { filter: [{ field: "rule", op: "eq", value: "bank.fees" }] })).body.rows[0]).toMatchObject({ accountCode: "6210", isDefault: true });
  });
});
