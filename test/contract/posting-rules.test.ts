// ledger/posting-rules: every rule listed with its default account of the lt-standard chart, pointing a rule to
// another postable account (and back), the accounts a rule cannot use, and the stock account that stays while the
// stock layers hold value (also against a receipt in flight, and in the database).
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import pg from "pg";
import { startHarness, type Harness } from "../support/harness.js";
import { expectApiError, invalid, settle } from "../support/expect.js";
import type { RequestBody } from "../../sdk/typescript/src/index.js";
import { world, type World } from "../support/world.js";
import { waitForLockWaiters } from "../support/db-waits.js";
import { accountBalance, layersValue } from "../support/inventory.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

type Rule = RequestBody<"ledger_posting_rules_update">["rule"];

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
  ["inventory.goodsReceivedNotInvoiced", "4431", "liability"],
  ["inventory.stock", "2040", "asset"],
  ["inventory.writeOff", "63091", "expense"],
  ["opening.balancing", "999", "equity"],
  ["purchases.advancesPaid", "2080", "asset"],
  ["purchases.customsVatPayable", "4493", "liability"],
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

const rulesWorld = () => world(h);

const stored = (companyId: string) => h.db("posting_rules").where({ company_id: companyId }).orderBy("rule").select("rule", "account_code");

describe("list", () => {
  let w: World;
  let rows: Record<string, any>[];
  beforeAll(async () => {
    w = await rulesWorld();
    const res = await w.api.ledger.postingRules.list({ pageSize: 100 });
    rows = res.rows;
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

  test.each<{ name: string; body: RequestBody<"ledger_posting_rules_list">; expected: string[] }>([
    { name: "rule eq", body: { filter: [{ field: "rule", op: "eq", value: "inventory.stock" }] }, expected: ["inventory.stock"] },
    {
      name: "accountCode eq",
      body: { filter: [{ field: "accountCode", op: "eq", value: "2441" }] },
      expected: ["purchases.reverseChargeVatInput", "purchases.vatReceivable"],
    },
    { name: "isDefault false", body: { filter: [{ field: "isDefault", op: "eq", value: false }] }, expected: [] },
    { name: "sort rule desc", body: { sort: [{ field: "rule", dir: "desc" }], pageSize: 2 }, expected: ["sales.vatPayable", "sales.revenue"] },
  ])("$name", async ({ body, expected }) => {
    const res = await w.api.ledger.postingRules.list(body);
    expect(res.rows.map((r: { rule: string }) => r.rule)).toEqual(expected);
  });
});

describe("update", () => {
  test("points a rule to another postable account; the list shows it; back to the default is isDefault again", async () => {
    const w = await rulesWorld();
    const res = await w.api.ledger.postingRules.update({ rule: "sales.receivable", accountCode: "2720" });
    expect(res).toEqual({
      rule: "sales.receivable",
      accountCode: "2720",
      isDefault: false,
      defaultAccountCode: "2410",
      description: expect.stringMatching(/\S/),
    });
    expect(await stored(w.companyId)).toEqual([{ rule: "sales.receivable", account_code: "2720" }]);
    const listed = await w.api.ledger.postingRules.list({ filter: [{ field: "isDefault", op: "eq", value: false }] });
    expect(listed.rows).toEqual([res]);
    const others = await w.api.ledger.postingRules.list({ pageSize: 100 });
    expect(others.rows.filter((r: { isDefault: boolean }) => r.isDefault)).toHaveLength(DEFAULTS.length - 1);

    const back = await w.api.ledger.postingRules.update({ rule: "sales.receivable", accountCode: "2410" });
    expect(back).toMatchObject({ accountCode: "2410", isDefault: true });
    expect(await stored(w.companyId)).toEqual([{ rule: "sales.receivable", account_code: "2410" }]);
    expect((await w.api.ledger.postingRules.list({ filter: [{ field: "isDefault", op: "eq", value: false }] })).rows).toEqual([]);
  });

  test("a rule may use an account created by the company", async () => {
    const w = await rulesWorld();
    await w.api.ledger.accounts.create({ code: "4432", name: "Skolos tiekėjams USD", type: "liability", parentCode: "443" });
    const res = await w.api.ledger.postingRules.update({ rule: "purchases.payables", accountCode: "4432" });
    expect(res).toMatchObject({ rule: "purchases.payables", accountCode: "4432", isDefault: false, defaultAccountCode: "4430" });
    expect(await stored(w.companyId)).toEqual([{ rule: "purchases.payables", account_code: "4432" }]);
  });

  test.each([
    {
      name: "an account that does not exist",
      body: { rule: "inventory.stock", accountCode: "9999" },
      status: 422,
      code: "unprocessable",
      key: "posting_rule.account_invalid",
    },
    { name: "a header account", body: { rule: "inventory.stock", accountCode: "20" }, status: 422, code: "unprocessable", key: "posting_rule.account_invalid" },
    {
      name: "an account made non-postable",
      body: { rule: "inventory.stock", accountCode: "NP" },
      status: 422,
      code: "unprocessable",
      key: "posting_rule.account_invalid",
    },
    { name: "an unknown rule", body: { rule: "sales.discount", accountCode: "2040" }, status: 400, code: "validation", field: "rule" },
    {
      name: "stock on an expense account",
      body: { rule: "inventory.stock", accountCode: "6000" },
      status: 422,
      code: "unprocessable",
      key: "posting_rule.account_type_invalid",
    },
    { name: "a malformed account code", body: { rule: "inventory.stock", accountCode: "20-40" }, status: 400, code: "validation", field: "accountCode" },
    { name: "a missing account code", body: { rule: "inventory.stock" }, status: 400, code: "validation", field: "accountCode" },
    {
      name: "an unknown property",
      body: { rule: "inventory.stock", accountCode: "2040", isDefault: true },
      status: 400,
      code: "validation",
      field: "isDefault",
    },
  ])("$name -> $status, the rule keeps its account", async ({ body, status, code, key, field }) => {
    const w = await rulesWorld();
    await w.api.ledger.accounts.create({ code: "NP", name: "Not postable", type: "asset", isPostable: false });
    await w.api.ledger.postingRules.update({ rule: "inventory.stock", accountCode: "2030" });
    // The 400 cases send what the contract forbids.
    const error = await expectApiError(w.api.ledger.postingRules.update(invalid(body)), status, code, key);
    if (field) expect(Object.keys(error.fieldErrors ?? {})).toEqual([field]);
    expect(await stored(w.companyId)).toEqual([{ rule: "inventory.stock", account_code: "2030" }]);
    const listed = await w.api.ledger.postingRules.list({ filter: [{ field: "rule", op: "eq", value: "inventory.stock" }] });
    expect(listed.rows[0]).toMatchObject({ accountCode: "2030", isDefault: false });
  });

  test("another company's rules are untouched", async () => {
    const w = await rulesWorld();
    const other = await rulesWorld();
    await w.api.ledger.postingRules.update({ rule: "bank.fees", accountCode: "6802" });
    expect(await stored(w.companyId)).toEqual([{ rule: "bank.fees", account_code: "6802" }]);
    expect(await stored(other.companyId)).toEqual([]);
    expect((await other.api.ledger.postingRules.list({ filter: [{ field: "rule", op: "eq", value: "bank.fees" }] })).rows[0]).toMatchObject({
      accountCode: "6314",
      isDefault: true,
    });
  });
});

describe("rules are checked by account type as well as postability", () => {
  // Each rule against a postable account of a type it does not post to: 422, and the rule keeps its default.
  test.each<{ rule: Rule; accountCode: string; accountType: string; name: string }>([
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
    const w = await rulesWorld();
    const error = await expectApiError(w.api.ledger.postingRules.update({ rule, accountCode }), 422, "unprocessable", "posting_rule.account_type_invalid");
    expect(error.params).toMatchObject({ rule, accountCode, accountType });
    expect(await stored(w.companyId)).toEqual([]);
  });

  test.each<{ rule: Rule; accountCode: string; name: string }>([
    { rule: "sales.vatPayable", accountCode: "4493", name: "output VAT on other taxes payable (a liability)" },
    { rule: "purchases.expense", accountCode: "6300", name: "the default expense on rent" },
    { rule: "purchases.vatNonDeductible", accountCode: "1240", name: "non-deductible VAT capitalised into equipment" },
    { rule: "assets.accumulatedDepreciation", accountCode: "1217", name: "accumulated depreciation of buildings" },
  ])("$name is accepted and stored", async ({ rule, accountCode }) => {
    const w = await rulesWorld();
    await w.api.ledger.postingRules.update({ rule, accountCode });
    expect(await stored(w.companyId)).toEqual([{ rule, account_code: accountCode }]);
  });
});

// Issue 22, item 11: `inventory.stock` is the account the layers' value was posted to. Pointing it elsewhere while
// they hold value left that value behind (issues would credit the new account); it is refused, by the code and by
// the database, and a stock operation that read the rule keeps it until it commits.
describe("inventory.stock keeps its account while the stock layers hold value", () => {
  async function stocked(counterAccountCode?: string) {
    const w = await rulesWorld();
    await w.api.inventory.warehouses.create({ code: "CENTR", name: "Centrinis" });
    await w.api.catalog.items.create({ code: "PREKE", name: "Prekė", type: "product", unit: "vnt.", vatRatePercent: "21" });
    await w.api.inventory.stock.receive({
      warehouseCode: "CENTR",
      date: "2026-03-01",
      counterAccountCode,
      lines: [{ itemCode: "PREKE", quantity: "2", unitCost: "4" }],
    });
    return w;
  }

  test.each([
    { name: "received against a supplier", counter: "4430" },
    { name: "received without a counter account", counter: undefined },
  ])("stock $name: repointing is 409 posting_rule.stock_held; once written off it moves, and later receipts post to the new account", async ({ counter }) => {
    const w = await stocked(counter);
    const error = await expectApiError(
      w.api.ledger.postingRules.update({ rule: "inventory.stock", accountCode: "2030" }),
      409,
      "conflict",
      "posting_rule.stock_held",
    );
    expect(error.params).toEqual({ rule: "inventory.stock", accountCode: "2040", requestedAccountCode: "2030", stockValue: "8.00" });
    expect(await stored(w.companyId)).toEqual([]);
    expect([await accountBalance(h, w.companyId, "2040"), await layersValue(h, w.companyId)]).toEqual(["8.00", "8.00"]);
    // Where it points already: nothing changes, nothing is written.
    expect(await w.api.ledger.postingRules.update({ rule: "inventory.stock", accountCode: "2040" })).toMatchObject({ accountCode: "2040", isDefault: true });
    expect(await stored(w.companyId)).toEqual([]);

    await w.api.inventory.stock.writeOff({ warehouseCode: "CENTR", date: "2026-03-02", lines: [{ itemCode: "PREKE", quantity: "2" }] });
    expect(await w.api.ledger.postingRules.update({ rule: "inventory.stock", accountCode: "2030" })).toMatchObject({ accountCode: "2030", isDefault: false });
    expect(await stored(w.companyId)).toEqual([{ rule: "inventory.stock", account_code: "2030" }]);
    await w.api.inventory.stock.receive({
      warehouseCode: "CENTR",
      date: "2026-03-03",
      counterAccountCode: "4430",
      lines: [{ itemCode: "PREKE", quantity: "1", unitCost: "5" }],
    });
    expect([await accountBalance(h, w.companyId, "2040"), await accountBalance(h, w.companyId, "2030"), await layersValue(h, w.companyId)]).toEqual([
      "0.00",
      "5.00",
      "5.00",
    ]);
  });

  test("the database refuses to insert, change or delete the rule's row while the layers hold value", async () => {
    const attempt = (write: (trx: typeof h.db) => Promise<unknown>) =>
      h.db.transaction(write).then(
        () => null,
        (e: { constraint?: string }) => e.constraint,
      );
    const onDefault = await stocked("4430");
    expect(await attempt((trx) => trx("posting_rules").insert({ company_id: onDefault.companyId, rule: "inventory.stock", account_code: "2030" }))).toBe(
      "posting_rules_stock_held",
    );
    expect(await stored(onDefault.companyId)).toEqual([]);
    // A rule set while the stock was empty: its row can neither change nor go once the layers hold value.
    const w = await rulesWorld();
    await w.api.ledger.postingRules.update({ rule: "inventory.stock", accountCode: "2030" });
    await w.api.inventory.warehouses.create({ code: "CENTR", name: "Centrinis" });
    await w.api.catalog.items.create({ code: "PREKE", name: "Prekė", type: "product", unit: "vnt.", vatRatePercent: "21" });
    await w.api.inventory.stock.receive({
      warehouseCode: "CENTR",
      date: "2026-03-01",
      counterAccountCode: "4430",
      lines: [{ itemCode: "PREKE", quantity: "1", unitCost: "3" }],
    });
    expect(await accountBalance(h, w.companyId, "2030")).toBe("3.00");
    const row = () => h.db("posting_rules").where({ company_id: w.companyId, rule: "inventory.stock" });
    expect(await attempt((trx) => trx("posting_rules").where({ company_id: w.companyId, rule: "inventory.stock" }).update({ account_code: "2040" }))).toBe(
      "posting_rules_stock_held",
    );
    expect(await attempt((trx) => trx("posting_rules").where({ company_id: w.companyId, rule: "inventory.stock" }).delete())).toBe("posting_rules_stock_held");
    expect(await row().select("account_code")).toEqual([{ account_code: "2030" }]);
    // The same account written again, and another rule, pass.
    expect(
      await attempt((trx) => trx("posting_rules").where({ company_id: w.companyId, rule: "inventory.stock" }).update({ account_code: "2030" })),
    ).toBeNull();
    expect(await attempt((trx) => trx("posting_rules").insert({ company_id: w.companyId, rule: "bank.fees", account_code: "6802" }))).toBeNull();
  });

  test("a repointing sent while a receipt into empty stock is in flight waits for it, then is refused: the value stays with the account it was posted to", async () => {
    const w = await rulesWorld();
    await w.api.inventory.warehouses.create({ code: "CENTR", name: "Centrinis" });
    await w.api.catalog.items.create({ code: "PREKE", name: "Prekė", type: "product", unit: "vnt.", vatRatePercent: "21" });
    // The receipt reads the rule, then stops at its posting's header behind a lock the test holds.
    const blocker = new pg.Client({ connectionString: h.connectionString });
    await blocker.connect();
    let released = false;
    try {
      await blocker.query("begin");
      await blocker.query("lock table journal_transactions in access exclusive mode");
      const receipt = settle(
        w.api.inventory.stock.receive({
          warehouseCode: "CENTR",
          date: "2026-03-01",
          counterAccountCode: "4430",
          lines: [{ itemCode: "PREKE", quantity: "2", unitCost: "4" }],
        }),
      );
      await waitForLockWaiters(h.db, { waitEvent: "relation", what: "the receipt waiting at its posting" });
      const update = settle(w.api.ledger.postingRules.update({ rule: "inventory.stock", accountCode: "2030" }));
      await waitForLockWaiters(h.db, { waitEvent: "advisory", what: "the repointing waiting for the receipt's hold on the rule" });
      await blocker.query("commit");
      released = true;
      const [r, u] = await Promise.all([receipt, update]);
      expect(r.status).toBe(200);
      expect([u.status, u.error?.code, u.error?.key]).toEqual([409, "conflict", "posting_rule.stock_held"]);
      expect(u.error?.params).toMatchObject({ accountCode: "2040", stockValue: "8.00" });
    } finally {
      if (!released) await blocker.query("commit");
      await blocker.end();
    }
    expect(await stored(w.companyId)).toEqual([]);
    expect([await accountBalance(h, w.companyId, "2040"), await layersValue(h, w.companyId)]).toEqual(["8.00", "8.00"]);
  });
});
